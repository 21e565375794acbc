import Decisions
import DecisionsTesting
import Foundation
import Synchronization
import Testing

/// From a store in the field to a regression test: the store's flight recorder saves a recording
/// when the keypad's rule breaks, the recording goes through JSON, and `Replay` shrinks it to the
/// four events of the planted bug.
@Suite struct FlightRecordingReplayTests {
  /// The rule the planted bug breaks, as a state invariant a store can check.
  static let notOpenedByTheFactoryCode = FlightRecorder<Keypad>.Invariant(
    "not opened by the factory code"
  ) { !$0.isOpen || $0.lastDigits != Keypad.factoryCode }

  @Test func aRecordingSavedByAStoreShrinksToThePlantedBug() async throws {
    let saved = Mutex<[String]>([])
    let store = Store<Keypad>(
      state: .init(), deps: (),
      recorder: FlightRecorder(
        capacity: 600, checkpointInterval: 50, invariant: Self.notOpenedByTheFactoryCode,
        save: { recording in saved.withLock { $0.append((try? recording.json()) ?? "") } }))
    await store.send(contentsOf: Keypad.recording(seed: 26))

    let json = try #require(saved.withLock { $0.first })
    let recording = try FlightRecording<Keypad>(json: Data(json.utf8))
    #expect(recording.trigger == .invariantBroken("not opened by the factory code"))
    #expect(recording.events.count >= 600)
    #expect(recording.events.last == .digit(1))

    let replay = Replay(recording)
    #expect(replay.state(atStep: replay.count) == recording.finalState)
    let shrunk = try replay.shrink(
      keeping: .transitionInvariantBroken("only the owner's code", Keypad.opensOnlyOnTheOwnersCode))
    #expect(shrunk.events == [.digit(7), .digit(3), .digit(9), .digit(1)])
    #expect(shrunk.isOneMinimal)
  }

  @MainActor
  @Test func aMainStoresRecordingReplaysToItsState() throws {
    let store = MainStore<Keypad>(
      state: .init(), deps: (), recorder: FlightRecorder(capacity: 100, checkpointInterval: 10))
    store.send(contentsOf: Keypad.recording(count: 300, seed: 3))
    let recording = try #require(store.flightRecording(note: "report"))
    let replay = Replay(try FlightRecording<Keypad>(json: try recording.json().utf8))
    #expect(replay.count == recording.events.count)
    #expect(replay.state(atStep: replay.count) == store.state)
    #expect(replay.events == Array(Keypad.recording(count: 300, seed: 3).suffix(replay.count)))
  }

  /// A recording of another feature is refused with a typed error before replay.
  @Test func aRecordingOfAnotherFeatureIsRefused() throws {
    let recording = FlightRecording<Keypad>(
      feature: "App.Door", trigger: .requested(note: ""), capacity: 1, checkpointInterval: 1,
      initialState: .init(), events: [], finalState: .init())
    #expect(
      throws: FlightRecordingError.wrongFeature(
        expected: String(reflecting: Keypad.self), found: "App.Door")
    ) {
      try FlightRecording<Keypad>(json: try recording.json().utf8)
    }
  }
}
