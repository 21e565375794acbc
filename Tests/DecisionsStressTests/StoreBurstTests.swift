import DecisionsTesting
import TestSupport
import Testing

@testable import Decisions

/// After a burst (a flood of posts, a long queue of events, a storm of replaced work) a store gives
/// its memory back; and a `Send` kept past the end of its work is dropped with a reason of its own.
@Suite(.timeLimit(.minutes(3))) struct StoreBurstTests {
  @Test func aFloodOfPostsLeavesNoOversizedBuffer() async {
    let box = StoreBox<Burst>()
    let store = Store<Burst>(
      state: .init(),
      deps: .init(post: { count in
        // Posted on the store's executor, so all of them wait in one batch: the store's limit
        // lets them.
        for _ in 0..<count { box.store?.post(.tick) }
      }), postLimit: 100_000)
    box.store = store
    await store.send(.post(100_000))
    await store.settle()
    #expect(await store.state.ticks == 100_000)
    #expect(await !store.isOversized)
  }

  @Test func aLongQueueOfEventsLeavesNoOversizedBuffer() async {
    let store = Store<Burst>(state: .init(), deps: .init())
    await store.send(.queue(100_000))
    #expect(await store.state.ticks == 100_000)
    #expect(await !store.isOversized)
  }

  @Test func aStormOfReplacedWorkLeavesNoOversizedRegistry() async {
    let gate = Gate()
    let store = Store<Burst>(state: .init(), deps: .init(wait: { await gate.wait() }))
    await store.send(.replace(20_000))
    gate.open()
    await store.settle()
    #expect(await !store.isOversized)
    // The registry still works after it shrank.
    await store.send(.replace(3))
    await store.settle()
    #expect(await !store.isOversized)
  }

  @Test func aSendKeptPastTheEndOfItsWorkIsIgnoredAsFinishedWork() async {
    let kept = Calls<Send<Burst.Event>>()
    let journal = Journal<Burst>(initialState: .init())
    let store = Store<Burst>(
      state: .init(), deps: .init(keep: { kept.record($0) }),
      diagnostics: journal.record)
    await store.send(.keepSend)
    await store.settle()
    await kept.all[0](.tick)
    #expect(await store.state.ticks == 0)
    #expect(journal.records.last == .ignored(.tick, reason: .finishedWork))
  }
}

/// Bursts on demand: posts, queued events, replaced work.
enum Burst: Feature {
  struct State: Equatable, Sendable {
    var ticks = 0
  }

  enum Event: Equatable, Sendable {
    case tick
    /// Posts this many ticks from a dep, on the store's executor.
    case post(Int)
    /// Queues this many ticks with `effects.send`.
    case queue(Int)
    /// Starts this many pieces of work with the same id, each replacing the last.
    case replace(Int)
    /// Starts work that hands its `Send` to a dep and finishes.
    case keepSend
  }

  typealias Decision = Event

  struct Deps: Sendable {
    var post: @Sendable (Int) -> Void = { _ in }
    var wait: @Sendable () async -> Void = {}
    var keep: @Sendable (Send<Event>) -> Void = { _ in }
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    if case .tick = event {
      state.ticks += 1
      return []
    }
    return [event]
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .tick: break
    case .post(let count): deps.post(count)
    case .queue(let count):
      for _ in 0..<count { effects.send(.tick) }
    case .replace(let count):
      for _ in 0..<count { effects.run(id: "same") { _ in await deps.wait() } }
    case .keepSend:
      effects.run { send in deps.keep(send) }
    }
  }
}
