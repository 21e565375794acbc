import DecisionsTesting
import Foundation
import Synchronization
import Testing

@testable import Decisions

/// A feature for the flight recorder's tests: a counter with a note, whose events can queue
/// another event and start work that fails.
enum Gauge: Feature {
  struct State: Equatable, Sendable, Codable {
    /// The count so far.
    var count = 0
    /// A note the user typed: private data, for redaction.
    var note = ""
  }

  enum Event: Equatable, Sendable, Codable {
    /// Adds to the count.
    case add(Int)
    /// Adds to the count, then queues another `.add` of the same value.
    case addTwice(Int)
    /// The user typed a note.
    case typed(String)
    /// Starts work that fails; `handled` says whether its `catch:` handler takes the error.
    case fail(handled: Bool)
    /// The error of handled work.
    case failed(String)
  }

  enum Decision: Equatable, Sendable {
    /// Queue `.add(value)`.
    case again(Int)
    /// Run work that throws.
    case fail(handled: Bool)
  }

  struct Deps: Sendable {
    /// What the failing work waits for before it throws.
    var wait: @Sendable () async throws -> Void = {}
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String { "the card number 4111 was refused" }
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .add(let value):
      state.count += value
      return []
    case .addTwice(let value):
      state.count += value
      return [.again(value)]
    case .typed(let text):
      state.note = text
      return []
    case .fail(let handled):
      return [.fail(handled: handled)]
    case .failed(let message):
      state.note = message
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .again(let value):
      effects.send(.add(value))
    case .fail(let handled):
      if handled {
        effects.run(id: "payment") { _ in
          try await deps.wait()
          throw Failure()
        } catch: { error in
          .failed("\(error)")
        }
      } else {
        effects.run(id: "payment") { _ in
          try await deps.wait()
          throw Failure()
        }
      }
    }
  }

  /// The state after `events`, from `state`, through the core alone.
  static func replayed(_ events: [Event], from state: State) -> State {
    var state = state
    for event in events { _ = makeDecisions(event: event, state: &state) }
    return state
  }
}

/// The recordings a recorder saved, in order.
final class SavedRecordings: Sendable {
  private let recordings = Mutex<[FlightRecording<Gauge>]>([])

  /// Keeps a recording: pass it as the recorder's `save`.
  @Sendable func keep(_ recording: FlightRecording<Gauge>) {
    recordings.withLock { $0.append(recording) }
  }

  /// Everything kept so far.
  var all: [FlightRecording<Gauge>] { recordings.withLock { $0 } }
}

@Suite(.timeLimit(.minutes(2))) struct FlightRecorderTests {
  // MARK: - What a recording holds

  /// A recording has at least the last `capacity` events, starts at a checkpoint, and replays
  /// through the core to the store's state.
  @Test func aRecordingReplaysToTheStoresState() async throws {
    let store = Store<Gauge>(
      state: .init(), deps: .init(), recorder: FlightRecorder(capacity: 5, checkpointInterval: 3))
    for value in 1...13 { await store.send(.add(value)) }
    let recording = try #require(await store.flightRecording(note: "report"))
    #expect(recording.events.count >= 5 && recording.events.count <= 7)
    #expect(recording.eventsBefore + recording.events.count == 13)
    #expect(recording.eventsBefore % 3 == 0)  // it starts at a checkpoint
    #expect(recording.events.last == .add(13))
    #expect(recording.trigger == .requested(note: "report"))
    #expect(recording.finalState == (await store.state))
    #expect(Gauge.replayed(recording.events, from: recording.initialState) == recording.finalState)
    #expect(recording.feature == String(reflecting: Gauge.self))
    #expect(recording.capacity == 5 && recording.checkpointInterval == 3)
    #expect(!recording.isRedacted)
  }

  /// Every window, as the ring fills and wraps, has from `capacity` to `capacity + interval - 1`
  /// events (all of them, before the ring is full) and replays to the store's state.
  @Test func everyWindowHasTheLastEventsAndReplays() async throws {
    let store = Store<Gauge>(
      state: .init(), deps: .init(), recorder: FlightRecorder(capacity: 4, checkpointInterval: 4))
    for sent in 1...40 {
      await store.send(.add(sent))
      let recording = try #require(await store.flightRecording())
      #expect(recording.events.count >= min(sent, 4) && recording.events.count <= 7)
      #expect(recording.eventsBefore + recording.events.count == sent)
      #expect(recording.events.last == .add(sent))
      #expect(
        Gauge.replayed(recording.events, from: recording.initialState) == recording.finalState,
        "after \(sent) events")
    }
  }

  /// Before any event, a recording has no events, and its states are the store's state after the
  /// start.
  @Test func aRecordingBeforeAnyEventIsTheState() async throws {
    let store = Store<Gauge>(
      state: .init(count: 7), deps: .init(), recorder: FlightRecorder(capacity: 3))
    let recording = try #require(await store.flightRecording())
    #expect(recording.events.isEmpty)
    #expect(recording.eventsBefore == 0)
    #expect(recording.initialState == .init(count: 7))
    #expect(recording.finalState == .init(count: 7))
  }

  /// A store without a recorder has no recording.
  @Test func aStoreWithoutARecorderHasNoRecording() async {
    let store = Store<Gauge>(state: .init(), deps: .init())
    await store.send(.add(1))
    #expect(await store.flightRecording() == nil)
    let mainStore = await MainStore<Gauge>(state: .init(), deps: .init())
    #expect(await mainStore.flightRecording() == nil)
  }

  /// Events that decisions queue, and events posted from synchronous code, are recorded in the
  /// order the core saw them.
  @Test func queuedAndPostedEventsAreRecordedInOrder() async throws {
    let store = Store<Gauge>(state: .init(), deps: .init(), recorder: FlightRecorder(capacity: 10))
    await store.send(.addTwice(2))
    store.post(.add(5))
    let recording = try #require(await store.flightRecording())
    #expect(recording.events == [.addTwice(2), .add(2), .add(5)])
    #expect(recording.finalState.count == 9)
  }

  /// A main-actor store records the same way, and its recording replays to its state.
  @MainActor
  @Test func aMainStoreRecordsToo() throws {
    let store = MainStore<Gauge>(
      state: .init(), deps: .init(), recorder: FlightRecorder(capacity: 6, checkpointInterval: 2))
    for value in 1...20 { store.send(.addTwice(value)) }
    let recording = try #require(store.flightRecording(note: "from the main actor"))
    #expect(recording.events.count >= 6 && recording.events.count <= 7)
    #expect(recording.events.last == .add(20))
    #expect(recording.finalState == store.state)
    #expect(Gauge.replayed(recording.events, from: recording.initialState) == store.state)
  }

  // MARK: - Memory

  /// However long the store runs, the recorder holds at most `capacity + interval - 1` events and
  /// `(capacity + interval - 1) / interval + 2` states.
  @Test func memoryStaysBoundedOverALongRun() async throws {
    let store = Store<Gauge>(
      state: .init(), deps: .init(), recorder: FlightRecorder(capacity: 100, checkpointInterval: 10)
    )
    var mostEvents = 0
    var mostCheckpoints = 0
    for round in 1...10 {
      await store.send(contentsOf: (0..<10_000).map { .add($0 % 7) })
      let held = try #require(await store.flightLogHeld)
      mostEvents = max(mostEvents, held.events)
      mostCheckpoints = max(mostCheckpoints, held.checkpoints)
      let recording = try #require(await store.flightRecording())
      #expect(recording.eventsBefore + recording.events.count == round * 10_000)
      #expect(recording.events.count >= 100 && recording.events.count <= 109)
    }
    #expect(mostEvents == 109)
    #expect(mostCheckpoints == 12)
    #expect(await store.state.count == 10 * (0..<10_000).reduce(0) { $0 + $1 % 7 })
  }

  /// The same bound on a main-actor store, over 100,000 events sent one by one.
  @MainActor
  @Test func aMainStoresMemoryStaysBounded() throws {
    let store = MainStore<Gauge>(
      state: .init(), deps: .init(), recorder: FlightRecorder(capacity: 50, checkpointInterval: 7))
    for value in 0..<100_000 {
      store.send(.add(value & 1))
      if value % 9_999 == 0 {
        let held = try #require(store.flightLogHeld)
        #expect(held.events <= 56 && held.checkpoints <= 10)
      }
    }
    let held = try #require(store.flightLogHeld)
    #expect(held.events == 56 && held.checkpoints == 10)
    let recording = try #require(store.flightRecording())
    #expect(recording.events.count >= 50 && recording.events.count <= 56)
    #expect(Gauge.replayed(recording.events, from: recording.initialState) == store.state)
  }

  // MARK: - Saving by itself

  /// A recorder made with a main-actor `save` and given to an actor `Store` saves on the main actor.
  ///
  /// The store hands the recording over; it called `save` on its own executor, which trapped.
  @MainActor
  @Test func aMainActorSaveGivenToAnActorStoreRunsOnTheMainActor() async throws {
    let saved = SavedRecordings()
    let save: @MainActor @Sendable (FlightRecording<Gauge>) -> Void = { recording in
      MainActor.assertIsolated()
      saved.keep(recording)
    }
    let gate = ControlledDependency<Void, Void>()
    let store = Store<Gauge>(
      state: .init(), deps: .init(wait: { try await gate() }), diagnostics: { _ in },
      recorder: FlightRecorder(capacity: 10, save: save))
    await store.send(.fail(handled: false))
    await store.settle()
    try await gate.nextCall().answer(())
    await store.settle()
    // NB: the recording reaches the main actor in a task of its own, queued before this one's
    // next turn.
    for _ in 0..<100 where saved.all.isEmpty { await Task.yield() }
    #expect(saved.all.count == 1)
    #expect(
      saved.all.first?.trigger
        == .workFailed(work: "payment", error: "the card number 4111 was refused"))
  }

  /// Work that fails with no `catch:` handler makes the store save a recording that ends with the
  /// event whose decision started it; handled, cancelled and successful work save nothing.
  @Test func unhandledWorkErrorsSaveARecording() async throws {
    let saved = SavedRecordings()
    let gate = ControlledDependency<Void, Void>()
    let store = Store<Gauge>(
      state: .init(), deps: .init(wait: { try await gate() }), diagnostics: { _ in },
      recorder: FlightRecorder(capacity: 10, save: saved.keep))
    await store.send(.add(1))
    await store.send(.fail(handled: true))
    await store.settle()
    try await gate.nextCall().answer(())
    await store.settle()
    #expect(saved.all.isEmpty)  // handled: the error became an event

    await store.send(.fail(handled: false))
    await store.settle()
    await store.send(.add(2))
    try await gate.nextCall().answer(())
    await store.settle()
    let recording = try #require(saved.all.first)
    #expect(saved.all.count == 1)
    #expect(
      recording.trigger == .workFailed(work: "payment", error: "the card number 4111 was refused"))
    #expect(recording.events.suffix(2) == [.fail(handled: false), .add(2)])

    await store.send(.fail(handled: false))
    await store.settle()
    await store.stop()  // cancelled: its error is not the app's problem
    #expect(saved.all.count == 1)
  }

  /// When the state breaks the invariant the store saves a recording that ends with the event that
  /// broke it; not again while it stays broken; and again when it breaks after holding.
  @Test func aBrokenInvariantSavesOncePerBreak() async throws {
    let saved = SavedRecordings()
    let store = Store<Gauge>(
      state: .init(), deps: .init(),
      recorder: FlightRecorder(
        capacity: 10, invariant: .init("under ten") { $0.count < 10 }, save: saved.keep))
    for _ in 0..<9 { await store.send(.add(1)) }
    #expect(saved.all.isEmpty)
    await store.send(.add(1))  // 10
    await store.send(.add(1))  // 11: still broken
    #expect(saved.all.count == 1)
    let first = try #require(saved.all.first)
    #expect(first.trigger == .invariantBroken("under ten"))
    #expect(first.events.count == 10 && first.events.last == .add(1))
    #expect(first.finalState.count == 10)

    await store.send(.add(-5))  // holds again
    await store.send(.add(20))  // breaks again
    #expect(saved.all.count == 2)
    #expect(saved.all.last?.finalState.count == 26)
  }

  /// A main-actor store saves on a broken invariant too.
  @MainActor
  @Test func aMainStoreSavesOnABrokenInvariant() {
    let saved = SavedRecordings()
    let store = MainStore<Gauge>(
      state: .init(), deps: .init(),
      recorder: FlightRecorder(
        capacity: 4, invariant: .init("no notes") { $0.note.isEmpty }, save: saved.keep))
    store.send(.add(1))
    store.send(.typed("hi"))
    #expect(saved.all.map(\.trigger) == [.invariantBroken("no notes")])
    #expect(saved.all.first?.events == [.add(1), .typed("hi")])
  }

  // MARK: - Redaction

  /// Redaction changes the events, states and error descriptions of a recording, when the recording
  /// is made and not as events are recorded.
  @Test func redactionAppliesWhenARecordingIsMade() async throws {
    let calls = Atomic<Int>(0)
    let saved = SavedRecordings()
    let redaction = FlightRecorder<Gauge>.Redaction(
      event: { event in
        calls.add(1, ordering: .relaxed)
        guard case .typed = event else { return event }
        return .typed("•••")
      },
      state: { state in
        var state = state
        state.note = state.note.isEmpty ? "" : "•••"
        return state
      },
      error: { _ in "a payment error" })
    let store = Store<Gauge>(
      state: .init(note: "secret"), deps: .init(), diagnostics: { _ in },
      recorder: FlightRecorder(capacity: 10, redaction: redaction, save: saved.keep))
    await store.send(.typed("my password"))
    await store.send(.add(3))
    #expect(calls.load(ordering: .relaxed) == 0)  // nothing is redacted while recording

    let recording = try #require(await store.flightRecording())
    #expect(calls.load(ordering: .relaxed) == 2)
    #expect(recording.isRedacted)
    #expect(recording.events == [.typed("•••"), .add(3)])
    #expect(recording.initialState == .init(count: 0, note: "•••"))
    #expect(recording.finalState == .init(count: 3, note: "•••"))
    #expect(!(try recording.json()).contains("secret"))
    #expect(!(try recording.json()).contains("password"))

    await store.send(.fail(handled: false))
    await store.settle()
    // A redaction hides work ids down to their type: "payment" could have been a query.
    #expect(
      saved.all.first?.trigger == .workFailed(work: "Swift.String(…)", error: "a payment error"))
    #expect((await store.state).note == "my password")  // the store itself is untouched
  }

  // MARK: - Misuse

  /// A capacity below 1 traps, with a message that names the problem.
  @Test func aCapacityBelowOneTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = FlightRecorder<Gauge>(capacity: 0)
    }
  }
}
