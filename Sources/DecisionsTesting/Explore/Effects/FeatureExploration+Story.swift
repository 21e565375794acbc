import Decisions

// Paths as store tests: the explorer takes the path again with the store's reports on, and
// prints each step as the Swift code of a `StoreTest` step, with the explored doubles of
// `ExploredEffects()` answering the calls and moving the clock in the same order.

extension FeatureExploration {
  /// The shortest path to state `number` as the Swift code of a ``StoreTest`` that takes it again:
  /// each event sent, each call answered and each clock advance, in order, with the decisions,
  /// the events work sent back, the events dropped, and the state after each.
  ///
  /// ```swift
  /// let effects = ExploredEffects()
  /// let test = StoreTest<ItemList>(state: ItemList.State(), deps: deps(effects))
  /// await test.send(.open(1), decisions: [.loadForScreen(1)]) {
  ///   $0 = ItemList.State(screen: ItemScreen.State(item: 1), opened: 1)
  /// }
  /// await test.send(.close) {
  ///   $0 = ItemList.State(opened: 1)
  /// }
  /// try await effects.answer("load", arguments: "1", sample: 0)
  /// await test.receive(.screen(.loaded(item: 1, text: "text")))
  /// ```
  ///
  /// The deps come from the same function the exploration was given, under the name `deps`; the
  /// samples are named by their index in the dependency's `answers:`. Values print as the failure
  /// messages print them: a value that prints otherwise (a type with a custom description) must be
  /// edited by hand.
  /// - Parameters:
  ///   - number: The number of a state of ``snapshots``.
  ///   - deps: The name of the function that makes the deps, as the test calls it.
  /// - Returns: The test's code; empty if the exploration has no record of its run.
  public func storeTest(to number: Int, deps: String = "deps") -> String {
    storeTest(of: pathIndices(to: number), deps: deps)
  }

  /// The store test of a path from state `0`, given as indices into ``transitions``.
  func storeTest(of indices: [Int], deps: String) -> String {
    // NB: a search stopped by work that never waits cannot take a path again: its pump is done.
    guard let runner = runnerBox as? Runner, let initial = startState, !runner.pump.overran
    else { return "" }
    // NB: work that still waits where the path ends would fail the test's end check of running
    // work, which is not what the path shows: the printed test leaves that one check out.
    let endsWithWork = indices.last.map { !snapshots[transitions[$0].to].work.isEmpty } ?? false
    let endChecks = endsWithWork ? ", endChecks: EndChecks.all.subtracting(.runningWork)" : ""
    var lines = [
      "let effects = ExploredEffects()",
      "let test = StoreTest<\(typeName(F.self))>(state: \(DecisionsTesting.describe(initial)), deps: "
        + "\(deps)(effects)\(endChecks))",
    ]
    let journal = runner.journal
    journal.reports = []
    journal.isRecording = true
    defer {
      journal.isRecording = false
      journal.reports = []
    }
    let loop = runner.makeLoop(state: initial, runsStart: true, now: .zero)
    loop.start()
    runner.pump.drain()
    var state = initial
    lines += Self.steps(of: journal.reports, state: &state, first: .start)
    for (position, index) in indices.enumerated() {
      journal.reports = []
      let transition = transitions[index]
      let first: Lead
      switch transition.choice {
      case .event:
        first = .sent
      case .answer(let dependency, let arguments, _):
        guard case .answer(let work, _, let sample) = steps[index] else { continue }
        let (named, caveat) = workNaming(
          work, in: transition.from, dependency: dependency, arguments: arguments, loop: loop,
          runner: runner)
        if let caveat { lines.append(caveat) }
        lines.append(
          "try await effects.answer(\(DecisionsTesting.describe(dependency)), arguments: \(DecisionsTesting.describe(arguments)), "
            + "\(named)sample: \(sample))")
        first = .received
      case .clock(let duration):
        lines.append("await test.settle()")
        lines.append("await effects.advanceClock(by: \(swiftCode(duration)))")
        first = .received
      }
      take(steps[index], in: loop, runner: runner)
      lines += Self.steps(of: journal.reports, state: &state, first: first)
      _ = position
    }
    // NB: the exploration took two moments as one state where the core's states are equal and the
    // same work waits for the same things. Work whose next step depends on a value it keeps to
    // itself breaks that, and a path can then end elsewhere when taken again.
    if let last = indices.last,
      stateNumber(state: loop.state, work: workKeys(of: loop, runner: runner).work)
        != transitions[last].to
    {
      lines.append(
        "// Taken again, this path does not end in the state the exploration found: some work "
          + "keeps a value to itself that neither the state nor what the work waits for shows.")
    }
    runner.tearDown(loop)
    return lines.joined(separator: "\n")
  }

  // NB: a store test starts such pieces of work at once, and which calls first is a race: the
  // oldest equal call is not always the one the path answered.
  /// How a printed answer names the call of the work at `work` in state `from`.
  ///
  /// `work: id, ` when another call of `dependency` with equal `arguments` waits in the running
  /// world, and the work has an id; else nothing. And a comment for the test, when even that does
  /// not tell the calls apart: the work has no id, or another has the same id in another scope.
  func workNaming(
    _ work: Int, in from: Int, dependency: String, arguments: String, loop: SteppedLoop<F>,
    runner: Runner
  ) -> (naming: String, caveat: String?) {
    let works = snapshots[from].work
    guard let world = runner.effects.world, works.indices.contains(work) else { return ("", nil) }
    let tokens = loop.workTokens
    let others = world.calls.filter {
      dependencies[$0.dependency].name == dependency && runner.effects.text(of: $0) == arguments
    }.compactMap { call -> ExploredWork? in
      guard let token = call.token, let position = Self.position(of: token, in: tokens),
        position != work, works.indices.contains(position)
      else { return nil }
      return works[position]
    }
    guard !others.isEmpty else { return ("", nil) }
    guard let id = works[work].id else {
      return (
        "",
        "// Another piece of work waits for an equal call, and this one has no id to name it by: "
          + "the test answers the oldest, which may not be this one."
      )
    }
    let naming = "work: \(DecisionsTesting.describe(id.base)), "
    guard others.contains(where: { $0.id == id }) else { return (naming, nil) }
    return (
      naming,
      "// Work with this id in another scope waits for an equal call: the test answers the "
        + "oldest of the two, which may not be this one."
    )
  }

  /// How the first event of a step reached the store.
  enum Lead {
    case start
    case sent
    case received
  }

  /// The store test's lines for what the store reported in one step.
  static func steps(of reports: [StoreDiagnostic<F>], state: inout F.State, first: Lead) -> [String]
  {
    var lines: [String] = []
    var event: F.Event?
    var decisions: [F.Decision] = []
    var after = state
    var isFirst = true
    var startDecisions: [F.Decision] = []
    var startState: F.State?
    func flush() {
      guard let sent = event else { return }
      let call = isFirst && first == .sent ? "send" : "receive"
      let list = decisions.isEmpty ? "" : ", decisions: " + DecisionsTesting.describe(decisions)
      let head = "await test.\(call)(\(DecisionsTesting.describe(sent))\(list))"
      if DecisionsTesting.describe(after) == DecisionsTesting.describe(state) {
        lines.append(head)
      } else {
        lines.append(head + " {")
        lines.append("  $0 = " + DecisionsTesting.describe(after, indent: "  "))
        lines.append("}")
      }
      state = after
      event = nil
      decisions = []
      isFirst = false
    }
    for report in reports {
      switch report {
      case .received(let received):
        flush()
        event = received
      case .state(let new):
        if event == nil, first == .start { startState = new } else { after = new }
      case .decided(let decision):
        if event == nil, first == .start {
          startDecisions.append(decision)
        } else {
          decisions.append(decision)
        }
      case .ignored(let ignored, let reason):
        flush()
        lines.append(
          "await test.expectIgnored(\(DecisionsTesting.describe(ignored)), reason: .\(reason))")
      default:
        break
      }
    }
    flush()
    if first == .start,
      startState.map({ DecisionsTesting.describe($0) != DecisionsTesting.describe(state) }) ?? false
        || !startDecisions.isEmpty
    {
      let list =
        startDecisions.isEmpty ? "" : "decisions: " + DecisionsTesting.describe(startDecisions)
      var start = ["await test.expectStart(\(list)) {"]
      if let startState {
        start.append("  $0 = " + DecisionsTesting.describe(startState, indent: "  "))
        state = startState
      }
      start.append("}")
      lines = start + lines
    }
    return lines
  }
}

/// A duration as Swift code: `.seconds(1)`, `.milliseconds(300)`, or `.nanoseconds(…)`.
func swiftCode(_ duration: Duration) -> String {
  let (seconds, attoseconds) = duration.components
  if attoseconds == 0 { return ".seconds(\(seconds))" }
  // NB: a duration finer than a nanosecond, or too long to count in nanoseconds (about 292
  // years), is written by its components: `.nanoseconds` dropped the rest, and the product
  // overflowed (a trap in a diff).
  let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
  let (total, overflowAgain) = nanoseconds.addingReportingOverflow(attoseconds / 1_000_000_000)
  guard attoseconds % 1_000_000_000 == 0, !overflow, !overflowAgain else {
    return "Duration(secondsComponent: \(seconds), attosecondsComponent: \(attoseconds))"
  }
  if total % 1_000_000 == 0 { return ".milliseconds(\(total / 1_000_000))" }
  return ".nanoseconds(\(total))"
}
