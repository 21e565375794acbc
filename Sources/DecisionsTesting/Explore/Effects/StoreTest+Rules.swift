import Decisions

// The check a printed store test ends with: the rule the exploration found broken, on the store's
// moment as the explorer would see it (its state and the work in flight, with what each piece
// waits for among the calls and sleeps of the explored doubles).

extension StoreTest {
  /// Asserts that the store keeps `rule` now, once settled: its state, and its work in flight
  /// with what each piece waits for among the calls and sleeps of `effects`.
  ///
  /// The store test that an exploration prints for a broken rule ends with this check, so that it
  /// fails as printed:
  ///
  /// ```swift
  /// try await effects.answer("search", arguments: "\"s\"", sample: 0)
  /// await test.receive(.searched(query: "s", results: ["result"])) { … }
  /// await test.expect(.idleResultsMatchTheQuery, effects: effects)
  /// ```
  ///
  /// The check settles the store first, as the explorer lets all work run until it waits. A
  /// piece of work that waits for something `effects` does not control shows as
  /// ``ExploredWork/Wait/somethingElse``.
  /// - Parameters:
  ///   - rule: The rule the store must keep.
  ///   - effects: The doubles in the store's deps, made with ``ExploredEffects/init()``.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  nonisolated(nonsending) public func expect(
    _ rule: ExplorationRule<F>,
    effects: ExploredEffects,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let script = effects.script else {
      reportFailure(
        "expect(_:effects:) takes the doubles of a store test, made with ExploredEffects(), not "
          + "those an exploration made.",
        at: location)
      return
    }
    await settle()
    let state = await underTest.state
    let inFlight = await underTest.workInFlight
    let waits = testWaits.map { script.waits(of: $0) } ?? [:]
    let work = inFlight.map { entry in
      let waitsFor: ExploredWork.Wait
      switch waits[entry.token] {
      case .call(let dependency, let text):
        waitsFor = .answer(dependency: effects.dependencies[dependency].name, arguments: text)
      case .deadline(let remaining):
        waitsFor = .deadline(in: remaining)
      case nil:
        waitsFor = .somethingElse
      }
      return ExploredWork(scope: entry.scope, id: entry.id, waitsFor: waitsFor)
    }
    let moment = FeatureExploration<F>.Snapshot(state: state, work: work)
    guard !rule.holds(in: moment) else { return }
    let described =
      work.isEmpty ? "none" : work.map(\.description).joined(separator: "; ")
    reportFailure(
      """
      The rule "\(rule.name)" does not hold:
        state: \(DecisionsTesting.describe(state, indent: "         "))
        work:  \(described)
      """,
      at: location)
  }
}
