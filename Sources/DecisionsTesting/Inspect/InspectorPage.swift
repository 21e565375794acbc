import Decisions

/// A replayed run as one self-contained HTML page: a timeline of its events, and for each step
/// its event, its decisions and the diff of its state, to click or step through with the keyboard.
///
/// Make one from a flight recording, which the page replays through today's core, or from any
/// ``Replay``:
///
/// ```swift
/// let page = try recording.inspectorPage()
/// try page.write(to: URL(fileURLWithPath: "session.html"), atomically: true, encoding: .utf8)
/// ```
///
/// The page needs no network: its styles and its script are inline, and its content security
/// policy forbids loading anything else. Every recorded text (events, states, decisions, notes) is
/// escaped as HTML, so a payload such as `<script>` shows as text. Docs/Recording.md shows the
/// page and the `decisions-inspect` command that writes it.
public enum InspectorPage {
  /// How large a page may be: more steps or more bytes is an ``InspectorPageError``, not a page a
  /// browser chokes on.
  public struct Limits: Sendable, Hashable {
    /// The most steps a page shows.
    public var steps: Int
    /// The most bytes of UTF-8 a page may take.
    public var bytes: Int

    /// Creates limits; by default 100,000 steps and 64 MiB, the most a flight recording is read
    /// from.
    /// - Parameters:
    ///   - steps: The most steps a page shows.
    ///   - bytes: The most bytes a page may take.
    public init(steps: Int = 100_000, bytes: Int = 64 << 20) {
      self.steps = steps
      self.bytes = bytes
    }
  }
}

/// Why an inspector page could not be made.
public enum InspectorPageError: Error, Equatable, Sendable {
  /// The run has more steps than the page's limit.
  case tooManySteps(count: Int, limit: Int)
  /// The page would take more bytes than its limit: its states are too large to show whole.
  case tooLarge(limit: Int)
}

extension InspectorPageError: CustomStringConvertible {
  /// What went wrong, in a sentence.
  public var description: String {
    switch self {
    case .tooManySteps(let count, let limit):
      "The run has \(count) steps, more than the inspector page's limit of \(limit)."
    case .tooLarge(let limit):
      "The inspector page would be larger than its limit of \(limit) bytes: its states are too "
        + "large to show whole."
    }
  }
}

// MARK: - Making a page

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
  ///   compared and printed.
  public func inspectorPage(
    title: String? = nil, limits: InspectorPage.Limits = .init()
  ) throws(InspectorPageError) -> String {
    try inspectorPage(title: title, about: [], finalState: nil, explored: nil, limits: limits)
  }

  /// The run as a self-contained HTML page, with the states of an exploration listed and the ones
  /// the run visited highlighted.
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
      title: title, about: [], finalState: nil, explored: explored(by: exploration),
      limits: limits)
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
    // NB: each state is reflected once, for its diff with the state before and for its text; the
    // steps' sections are written before the timeline, which dims the steps that changed nothing.
    var previous = Node(reflecting: initialState)
    try page.addInitialState(previous.text)
    var timeline: [(event: String, changed: Bool)] = []
    for (index, step) in steps.enumerated() {
      let after = Node(reflecting: step.state)
      let diff =
        previous == after
        ? nil
        : DiffFormat.standard.render(
          rootType: typeName(C.State.self), differences(between: previous, and: after))
      try page.addStep(
        number: index + 1, event: describe(step.event),
        decisions: step.decisions.map { describe($0) }, diff: diff, state: after.text)
      timeline.append((describeFlat(step.event), diff != nil))
      previous = after
    }
    try page.addTimeline(timeline)
    return try page.close(explored: explored)
  }

  /// The exploration's states, each with the steps of this run that were in it.
  fileprivate func explored<Key: Hashable>(by exploration: Exploration<C, Key>)
    -> InspectorHTML.Explored
  {
    var visits = [[Int]](repeating: [], count: exploration.states.count)
    var unexplored = 0
    for number in 0...count {
      guard let state = state(atStep: number), let explored = exploration.number(of: state) else {
        unexplored += 1
        continue
      }
      visits[explored].append(number)
    }
    return InspectorHTML.Explored(
      summary: exploration.description, states: exploration.states.map(describeFlat),
      visits: visits, unexplored: unexplored)
  }
}

extension FlightRecording {
  /// The recording replayed through today's core as a self-contained HTML page: what the
  /// recording says (its feature, trigger, the events before it, whether it was redacted, whether
  /// the replay ends in its final state), a timeline of its events, and each step's event,
  /// decisions and state diff.
  ///
  /// ```swift
  /// let page = try recording.inspectorPage()
  /// ```
  /// - Parameter limits: How large the page may be; the steps are counted before the replay.
  /// - Returns: The page's HTML.
  /// - Throws: ``InspectorPageError`` when the recording has more events, or the page more bytes,
  ///   than `limits` allow.
  public func inspectorPage(limits: InspectorPage.Limits = .init()) throws(InspectorPageError)
    -> String
  {
    guard events.count <= limits.steps else {
      throw .tooManySteps(count: events.count, limit: limits.steps)
    }
    return try Replay(self).inspectorPage(
      title: feature, about: about, finalState: finalState, explored: nil, limits: limits)
  }

  /// The recording replayed through today's core as a self-contained HTML page, with the states
  /// of an exploration listed and the ones the recording visited highlighted.
  /// - Parameters:
  ///   - exploration: The states explored from the recording's first state, or any other.
  ///   - limits: How large the page may be; the steps are counted before the replay.
  /// - Returns: The page's HTML.
  /// - Throws: ``InspectorPageError`` when the recording has more events, or the page more bytes,
  ///   than `limits` allow.
  public func inspectorPage<Key: Hashable>(
    exploration: Exploration<F, Key>, limits: InspectorPage.Limits = .init()
  ) throws(InspectorPageError) -> String {
    guard events.count <= limits.steps else {
      throw .tooManySteps(count: events.count, limit: limits.steps)
    }
    let replay = Replay(self)
    return try replay.inspectorPage(
      title: feature, about: about, finalState: finalState,
      explored: replay.explored(by: exploration), limits: limits)
  }

  /// The rows that say what the recording is.
  private var about: [(String, String)] {
    let trigger =
      switch trigger {
      case .requested(let note): "requested: \(note.debugDescription)"
      case .workFailed(let work?, let error): "work \(work) failed: \(error)"
      case .workFailed(nil, let error): "work failed: \(error)"
      case .invariantBroken(let name): "invariant broken: \(name.debugDescription)"
      }
    return [
      ("Feature", feature),
      ("Trigger", trigger),
      ("Events before", "\(eventsBefore), fallen out of the recorder before step 1"),
      ("Redacted", isRedacted ? "yes" : "no"),
      ("Recorder", "capacity \(capacity), a checkpoint every \(checkpointInterval) events"),
    ]
  }
}

extension Node {
  /// The node as `describe(_:)` prints it: on one line, or on several when it is long.
  fileprivate var text: String {
    lines(width: DiffFormat.standard.lineWidth).joined(separator: "\n")
  }
}
