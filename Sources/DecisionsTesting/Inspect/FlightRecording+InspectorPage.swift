import Decisions

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
  /// of an exploration drawn and listed, and the ones the recording visited highlighted.
  ///
  /// The diagram is inline SVG: a circle per explored state, an arrow per pair of states a
  /// transition joins, and the recording's path over them, numbered by step; a click on a visited
  /// state shows its step. An exploration with more states or arrows than `limits` allow is only
  /// listed.
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
      explored: replay.explored(by: exploration, limits: limits), limits: limits)
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
