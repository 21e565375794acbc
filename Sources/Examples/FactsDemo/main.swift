import Decisions
import ExampleSupport
import FactFeature
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The `facts` demo: the fact screen in a terminal, run by a real Store with live deps.

/// A short name for an event in the analytics log, such as `view.didTapButton`.
func analyticsName(_ event: FactFeature.Event) -> String {
  switch event {
  case .view(.didTapButton): "view.didTapButton"
  case .model(.finishLoading): "model.finishLoading"
  case .model(.failedLoading): "model.failedLoading"
  }
}

// NB: first, before anything opens a file or a socket.
let streams = StandardStreams.prepare()

/// Reports a failed write on standard error, or standard output if that is what failed, and exits
/// with status 1.
@Sendable func failWriting(_ failure: WriteFailure) -> Never {
  StandardStreams.exit(reporting: failure, program: "facts", on: [streams.error, streams.output])
}

/// Writes to standard error, or fails.
func writeError(_ text: String) {
  do { try streams.error.write(text) } catch { failWriting(error) }
}

let options: Options
do {
  options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  writeError("facts: \(error)\n\n\(Options.usage)\n")
  exit(2)
}
if options.help {
  do { try streams.output.write(Options.usage + "\n") } catch { failWriting(error) }
  exit(0)
}

let log: LogSink
let source: FactSource
do {
  log = try LogSink(path: options.logFile, standardError: streams.error, fail: failWriting)
  if let url = options.source {
    source = .http(url: url, timeout: options.timeout, maxBytes: options.maxBytes)
  } else {
    source = .bundled(
      facts: try FactSource.bundledFacts(),
      delay: .milliseconds(options.delayMilliseconds),
      failureRate: options.failureRate,
      seed: options.seed)
  }
} catch let failure as WriteFailure {
  writeError("facts: cannot open \(failure.destination): \(failure.reason)\n")
  exit(1)
} catch {
  writeError("facts: \(error)\n")
  exit(1)
}

let interactive = options.taps == nil && isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
let screen = Screen(
  state: .idle, isInteractive: interactive, output: streams.output, fail: failWriting)
let deps = FactFeature.Deps.live(
  source: source,
  track: { event in log.write("track: \(analyticsName(event))") },
  showSnackbar: { text in screen.showSnackbar(text) },
  log: { text in log.write("log: \(text)") })
// NB: the diagnostics hook runs on the store's executor, in order, as does `showSnackbar`: state
// lines and snackbar lines therefore print in the order they happened.
let store = Store<FactFeature>(
  state: .idle, deps: deps,
  diagnostics: { diagnostic in
    if case .state(let state) = diagnostic { screen.show(state) }
  })

if let taps = options.taps {
  for _ in 0..<taps {
    await store.send(.view(.didTapButton))
    await store.settle()
  }
  exit(0)
}

// Interactive, or commands on standard input: each line is a command.
let commands = AsyncStream<String> { continuation in
  Thread.detachNewThread {
    while let line = readLine() { continuation.yield(line) }
    continuation.finish()
  }
}
let spinner = Task {
  while !Task.isCancelled {
    screen.tick()
    try? await Task.sleep(for: .milliseconds(100))
  }
}
for await command in commands {
  switch command.trimmingCharacters(in: .whitespaces).lowercased() {
  case "":
    store.post(.view(.didTapButton))
  case "q", "quit":
    await store.stop()
    spinner.cancel()
    exit(0)
  default:
    writeError("facts: unknown command \(excerpt(command).debugDescription)\n")
  }
}
// Input ended: let the last load finish, then leave.
await store.settle()
spinner.cancel()
exit(0)
