#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the cases a command line selects, prints the tables, and returns once all passed their
/// self-checks (a failed check ends the program).
func runBenchmarks(_ options: Options) async {
  let plan = Plan(options)
  let clock = ContinuousClock()
  let started = clock.now

  #if DEBUG
    print("WARNING: a debug build; measure with `swift run -c release decisions-bench`.")
  #endif
  print(
    "decisions-bench: \(options.quick ? "quick" : "full") run, \(plan.warmup) warm-up and "
      + "\(plan.runs) timed runs per case; load average before: \(loadAverages() ?? "n/a")")
  print()

  var report = Report()
  let cases: [(number: Int, run: (Plan) async -> [Row])] = [
    (1, { await floorCase($0) }),
    (2, { await sendCase($0) }),
    (3, { await postCase($0) }),
    (4, { await quickDecisionCase($0) }),
    (5, { await roundTripCase($0) }),
    (6, { await observersCase($0) }),
    (7, { await compositionCase($0) }),
    (8, { await baselineCase($0) }),
    (9, { await uiPathCase($0) }),
    (11, { await actorSendCase($0) }),
    (12, { await rowsCase($0) }),
    (13, { await exploreCase($0) }),
    (14, { await mainStoreCase($0) }),
    (15, { await childrenWorkCase($0) }),
    (16, { await childModelsCase($0) }),
    (17, { await flightRecorderCase($0) }),
    (18, { await embeddingCase($0) }),
    (19, { await shrinkCase($0) }),
  ]
  for (number, run) in cases where options.runs(case: number) {
    currentCase = "\(number)"
    let rows = await run(plan)
    if let missing = options.rows.first(where: { id in
      id.prefix { $0.isNumber } == "\(number)" && !rows.contains { $0.id == id }
    }) {
      let ids = rows.map(\.id).joined(separator: ", ")
      printError("decisions-bench: error: case \(number) has no row \(missing); its rows: \(ids)\n")
      exit(2)
    }
    // NB: a row the command line did not pick comes back without runs.
    report.rows += rows.filter { !$0.nanos.isEmpty }
  }
  if options.runs(case: 10) {
    currentCase = "10"
    report.memory = await memoryCase(plan, options: options)
  }

  report.printTables()
  report.printFrameBudget()
  report.printTargets()
  print()
  print(
    "all self-checks passed in \(fixed(nanoseconds(clock.now - started) / 1e9, 1)) s; "
      + "load average after: \(loadAverages() ?? "n/a")")
}
