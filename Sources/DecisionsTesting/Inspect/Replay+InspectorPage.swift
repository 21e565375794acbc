import Decisions

// Making an inspector page from a replay; the HTML itself is written by Internal/InspectorHTML.swift.

extension Replay {
  /// The run as a self-contained HTML page: a timeline of its steps, and each step's event,
  /// decisions and state diff.
  ///
  /// - Parameters:
  ///   - title: The page's title; the core's name unless given.
  ///   - limits: How large the page may be.
  /// - Returns: The page's HTML.
  /// - Throws: ``InspectorPageError`` when the run has more steps, or the page more bytes, than
  ///   `limits` allow.
  /// - Complexity: O(*n* × *s*) for *n* steps of states of size *s*: each step's states are
  ///   compared and printed. The page holds each distinct text (event, decision, state, diff)
  ///   once, and a few numbers per step.
  public func inspectorPage(
    title: String? = nil, limits: InspectorPage.Limits = .init()
  ) throws(InspectorPageError) -> String {
    try inspectorPage(title: title, about: [], finalState: nil, explored: nil, limits: limits)
  }

  /// The run as a self-contained HTML page, with the states of an exploration drawn and listed,
  /// and the ones the run visited highlighted.
  ///
  /// The diagram is inline SVG: a circle per explored state, an arrow per pair of states a
  /// transition joins, and the run's path over them, numbered by step; a click on a visited state
  /// shows its step. An exploration with more states or arrows than `limits` allow is only listed.
  ///
  /// A state of the run is found among the explored ones by the exploration's key, as
  /// ``Exploration/number(of:)`` finds it.
  /// - Parameters:
  ///   - title: The page's title; the core's name unless given.
  ///   - exploration: The states explored from the run's first state, or any other.
  ///   - limits: How large the page may be.
  /// - Returns: The page's HTML.
  /// - Throws: ``InspectorPageError`` when the run has more steps, or the page more bytes, than
  ///   `limits` allow.
  public func inspectorPage<Key: Hashable>(
    title: String? = nil, exploration: Exploration<C, Key>,
    limits: InspectorPage.Limits = .init()
  ) throws(InspectorPageError) -> String {
    try inspectorPage(
      title: title, about: [], finalState: nil,
      explored: explored(by: exploration, limits: limits), limits: limits)
  }

  /// The page, with rows about the recording and the recorded final state to compare with.
  func inspectorPage(
    title: String?, about: [(String, String)], finalState: C.State?,
    explored: InspectorHTML.Explored?, limits: InspectorPage.Limits
  ) throws(InspectorPageError) -> String {
    guard count <= limits.steps else {
      throw .tooManySteps(count: count, limit: limits.steps)
    }
    var page = InspectorHTML(title: title ?? typeName(C.self), byteLimit: limits.bytes)
    var rows = about
    rows.append(("Steps", "\(count)"))
    var finalDiff: String?
    if let finalState {
      let replayed = state(atStep: count) ?? initialState
      finalDiff = structuralDiff(finalState, replayed)
      rows.append(
        (
          "Final state",
          finalDiff == nil
            ? "matches the replay"
            : "differs from the replay: the feature has changed since the recording, or the "
              + "recording was redacted"
        ))
    }
    try page.open(steps: count, rows: rows, finalDiff: finalDiff)
    // NB: each state is reflected once, for its diff with the state before and for its text.
    var previous = Node(reflecting: initialState)
    try page.addInitialState(previous.text)
    for step in steps {
      let after = Node(reflecting: step.state)
      let diff =
        previous == after
        ? nil
        : DiffFormat.standard.render(
          rootType: typeName(C.State.self), differences(between: previous, and: after))
      let event = Node(reflecting: step.event)
      try page.addStep(
        event: event.text, flatEvent: event.flat,
        decisions: step.decisions.map { describe($0) }, diff: diff, state: after.text)
      previous = after
    }
    return try page.close(explored: explored)
  }

  /// The exploration's states, each with the steps of this run that were in it, and its diagram
  /// unless it has more states or arrows than `limits` allow.
  func explored<Key: Hashable>(
    by exploration: Exploration<C, Key>, limits: InspectorPage.Limits
  ) -> InspectorHTML.Explored {
    var visits = [[Int]](repeating: [], count: exploration.states.count)
    var path: [Int?] = []
    path.reserveCapacity(count + 1)
    for number in 0...count {
      let explored = state(atStep: number).flatMap(exploration.number(of:))
      path.append(explored)
      if let explored { visits[explored].append(number) }
    }
    return InspectorHTML.Explored(
      summary: exploration.description, states: exploration.states.map(describeFlat),
      visits: visits, unexplored: path.count { $0 == nil },
      diagram: exploration.inspectorDiagram(path: path, limits: limits))
  }
}

extension Node {
  /// The node as `describe(_:)` prints it: on one line, or on several when it is long.
  fileprivate var text: String {
    lines(width: DiffFormat.standard.lineWidth).joined(separator: "\n")
  }
}
