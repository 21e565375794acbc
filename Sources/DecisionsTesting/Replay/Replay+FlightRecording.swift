import Decisions

extension Replay where C: Feature {
  /// Replays a store's flight recording, such as one decoded from a bug report, through today's
  /// core: from the recording's first state, its events, in order.
  ///
  /// ```swift
  /// let recording = try FlightRecording<Keypad>(json: Data(contentsOf: report))
  /// let replay = Replay(recording)
  /// #expect(replay.state(atStep: replay.count) == recording.finalState)
  /// ```
  ///
  /// A flight recording keeps events and the states at its ends, not the state after each step,
  /// so the replay has no ``recordedSteps`` to compare with: compare its last state with the
  /// recording's ``Decisions/FlightRecording/finalState``, which differs when the feature has
  /// changed since the recording was made, or when the recording was redacted
  /// (``Decisions/FlightRecording/isRedacted``).
  /// - Parameter flightRecording: The recording.
  public init(_ flightRecording: FlightRecording<C>) {
    self.init(from: flightRecording.initialState, events: flightRecording.events)
  }
}
