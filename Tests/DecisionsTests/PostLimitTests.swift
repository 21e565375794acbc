import DecisionsTesting
import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Decisions

/// Posts have a bound (issue 34, item 10): at most the store's `postLimit` events wait; a thread
/// that may block waits for room, a task is refused, and the store reports both, so that memory
/// stays bounded whatever the rate and nothing is dropped without a report.
///
/// Two of the tests hold a store's executor, a thread of the cooperative pool, which has as many
/// threads as cores (2 in CI): they run one at a time, so that the other thread stays free for the
/// awaits they make while one is held, and each holds for a bounded time, so that a store never
/// stays held past it (run together, they held both threads and hung 10 runs of 15).
@Suite(.serialized, .timeLimit(.minutes(3))) struct PostLimitTests {
  /// Without the bound, the 25 posts all waited and were processed: memory grew with the rate.
  @Test func postsFromATaskBeyondTheLimitAreRefusedAndReported() async {
    let box = StoreBox<Inbox>()
    let journal = Journal<Inbox>(initialState: .init())
    let store = Store<Inbox>(
      state: .init(),
      deps: .init(post: { count in
        // On the store's executor, in a task: it cannot wait for the store it holds up.
        for _ in 0..<count { box.store?.post(.tick) }
      }),
      diagnostics: journal.record, postLimit: 10)
    box.store = store
    await store.send(.post(25))
    await store.settle()
    #expect(await store.state.ticks == 10)
    #expect(store.posted.largestRoom <= 10)
    let reports = journal.records.compactMap(\.postLimit)
    #expect(reports.count == 1)
    #expect(reports.first?.limit == 10)
    #expect(reports.first?.refused == 15)
    // The report comes after the ten events that filled the limit.
    let last = journal.records.lastIndex { if case .received = $0 { true } else { false } }
    let report = journal.records.firstIndex { $0.postLimit != nil }
    #expect(report.map { $0 > last ?? .max } == true)
  }

  /// Two threads post in a loop while the store is held up: they wait for room rather than grow
  /// the queue, and every event arrives.
  @Test func threadsThatPostBeyondTheLimitWaitForRoom() async {
    let limit = 64
    let perThread = 2_000
    let (store, journal, release) = await heldStore(limit: limit)
    // The store's executor is held: the threads' first `limit` posts fill the queue.
    let posts = Atomic<Int>(0)
    let filled = Gate()
    let ends = [Gate(), Gate()]
    for end in ends {
      Thread.detachNewThread {
        for _ in 0..<perThread {
          store.post(.tick)
          if posts.add(1, ordering: .relaxed).newValue == limit { filled.open() }
        }
        end.open()
      }
    }
    await filled.wait()
    release.signal()
    for end in ends { await end.wait() }
    await store.settle()
    let ticks = await store.state.ticks
    let reports = journal.records.compactMap(\.postLimit)
    #expect(!reports.isEmpty)
    #expect(reports.allSatisfy { $0.limit == limit })
    // Nothing lost unreported; and threads that may block were not refused.
    #expect(ticks + reports.map(\.refused).reduce(0, +) == 2 * perThread)
    #expect(ticks == 2 * perThread)
    #expect(store.posted.largestRoom <= limit)
  }

  // NB: a test of the main actor, not the main thread: on Linux the main actor's jobs run on a
  // thread other than the main thread, and before the fix its post was refused (1 here, not 0).
  /// A task on the main actor waits for room too, rather than drop a UI's events: the store never
  /// needs the main actor to make room.
  @MainActor @Test func theMainActorWaitsForRoom() async {
    let limit = 8
    let (store, journal, release) = await heldStore(limit: limit)
    // NB: lets the store go once the main actor waits for room (or a post was refused).
    let posted = store.posted
    Thread.detachNewThread {
      while posted.atLimit == (0, 0) { sched_yield() }
      release.signal()
    }
    for _ in 0..<(limit + 1) { store.post(.tick) }
    await store.settle()
    #expect(await store.state.ticks == limit + 1)
    #expect(journal.records.compactMap(\.postLimit).map(\.refused) == [0])
  }

  /// A store with `limit` that holds its executor in quick work until the test signals `release`
  /// (60 s at most), once it is held; and the journal of its reports.
  private func heldStore(limit: Int) async -> (Store<Inbox>, Journal<Inbox>, DispatchSemaphore) {
    let holding = Gate()
    let release = DispatchSemaphore(value: 0)
    let journal = Journal<Inbox>(initialState: .init())
    let store = Store<Inbox>(
      state: .init(),
      deps: .init(hold: {
        holding.open()
        _ = release.wait(timeout: .now() + .seconds(60))
      }),
      diagnostics: journal.record, postLimit: limit)
    store.post(.hold)
    await holding.wait()
    return (store, journal, release)
  }

  /// The default bound applies to every store.
  @Test func everyStoreHasTheDefaultLimit() {
    let store = Store<Inbox>(state: .init(), deps: .init())
    #expect(store.posted.limit == Store<Inbox>.defaultPostLimit)
  }
}

extension StoreReport {
  /// The limit and refused count of a ``StoreReport/postLimitReached(limit:refused:)``.
  fileprivate var postLimit: (limit: Int, refused: Int)? {
    if case .postLimitReached(let limit, let refused) = self { (limit, refused) } else { nil }
  }
}

/// Ticks, posted from a dep on the store's executor or from threads, and an event whose quick work
/// holds the store's executor until the test lets it go.
enum Inbox: Feature {
  struct State: Equatable, Sendable {
    var ticks = 0
  }

  enum Event: Equatable, Sendable {
    case tick
    /// Posts this many ticks from a dep, on the store's executor.
    case post(Int)
    /// Holds the store's executor in quick work until the test lets it go.
    case hold
  }

  typealias Decision = Event

  struct Deps: Sendable {
    var post: @Sendable (Int) -> Void = { _ in }
    var hold: @Sendable () -> Void = {}
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
    case .hold: deps.hold()
    }
  }
}
