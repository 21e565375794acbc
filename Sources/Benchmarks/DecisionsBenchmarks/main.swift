// decisions-bench: measures the Store's cost per event against a floor, checking every result.
// Run it with `swift run -c release decisions-bench`; see Docs/Performance.md.

import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

let options: Options
do {
  options = try Options.parse(CommandLine.arguments.dropFirst())
} catch {
  printError("decisions-bench: error: \(error.message)\n")
  printError(Options.usage)
  exit(2)
}
if options.help {
  print(Options.usage)
  exit(0)
}
if options.checkAllocations {
  exit(checkAllocationBudgets() ? 0 : 1)
}

// NB: this file has no top-level `await`, so `main` is synchronous. An async `main` parks the main
// thread in `dispatch_main`, which valgrind 3.19 cannot run (it crashes in `sigsuspend`), and the
// allocation counts of case 10 come from valgrind. Only the main-actor cases that wait for the main
// queue (8, 9 and 14) need it drained, so only they park the main thread there; case 16 needs the
// main thread but not its queue (see `MainThread`).
if options.runs(case: 8) || options.runs(case: 9) || options.runs(case: 14) {
  Task { @MainActor in
    await runBenchmarks(options)
    exit(0)
  }
  dispatchMain()
} else {
  // NB: the main thread runs the jobs of the cases that need it but not the main queue (16).
  MainThread.isServing = true
  Task.detached {
    await runBenchmarks(options)
    MainThread.finish()
  }
  MainThread.serve()
}
