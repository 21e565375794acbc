import DecisionsTesting
import Foundation
import Observation
import Synchronization
import Testing

@testable import Decisions

@MainActor
@Suite(.timeLimit(.minutes(3))) struct MainStoreTests {
  @Test func sendUpdatesTheStateBeforeItReturns() {
    let store = MainStore<Counter>(state: .init(), deps: .init())
    store.send(.increment)
    #expect(store.state.count == 1)
    store.send(.add(41))
    #expect(store.state.count == 42)
  }

  @Test func quickWorkAndQueuedEventsAreDoneBeforeSendReturns() {
    let log = Calls<String>()
    let store = MainStore<Counter>(state: .init(), deps: .init(log: { log.record($0) }))
    store.send(.echo("hi"))
    // `.echo` logs, and queues `.log("echo hi")`, whose decision logs again.
    #expect(log.all == ["hi", "echo hi"])
    #expect(store.state.messages == ["hi"])
  }

  @Test func longWorkRunsOffTheMainActorAndItsEventsComeBack() async {
    let ranOnMainThread = Mutex<Bool?>(nil)
    let store = MainStore<Counter>(
      state: .init(),
      deps: .init(work: { _, value in
        ranOnMainThread.withLock { $0 = Thread.isMainThread }
        return value
      }))
    store.send(.startWork(id: "a", value: 5))
    #expect(store.state.count == 0)
    await store.settle()
    #expect(store.state.count == 5)
    #expect(ranOnMainThread.withLock { $0 } == false)
  }

  @Test func eventsSentWhileOneIsProcessedFollowItInOrder() {
    let store = MainStore<Counter>(state: .init(), deps: .init())
    // An observer that sends from inside the change: the store is in the middle of `send`.
    let observer = ResendingObserver(store: store, times: 3)
    observer.observe()
    store.send(.increment)
    #expect(store.state.count == 31)
    #expect(observer.seen == [0, 1, 11, 21])
  }

  @Test func anObserverHearsEachChangeInTheSameTurn() {
    let store = MainStore<Counter>(state: .init(), deps: .init())
    let changes = Mutex(0)
    withObservationTracking {
      _ = store.state.count
    } onChange: {
      changes.withLock { $0 += 1 }
    }
    store.send(.increment)
    #expect(changes.withLock { $0 } == 1)
  }

  // The store tells observers only of changes after which someone read `state`: an observer
  // registers by reading. A skipped change must not make it miss a later one.
  @Test func anObserverThatReadsAfterChangesNobodyReadHearsTheNextChange() {
    let store = MainStore<Counter>(state: .init(), deps: .init())
    let changes = Mutex(0)
    func observe() {
      withObservationTracking {
        _ = store.state.count
      } onChange: {
        changes.withLock { $0 += 1 }
      }
    }
    observe()
    store.send(.increment)
    store.send(.increment)  // nobody read since the last change: nobody to tell
    store.send(.increment)
    #expect(changes.withLock { $0 } == 1)
    observe()
    store.send(.increment)
    #expect(changes.withLock { $0 } == 2)
    // Two observers, one of which reads again as it hears of the change: both hear this one, and
    // the one that read again hears the next.
    observe()
    let rereading = RereadingObserver(store: store)
    rereading.observe()
    store.send(.increment)
    #expect(changes.withLock { $0 } == 3)
    #expect(rereading.heard == 1)
    store.send(.increment)
    #expect(rereading.heard == 2)
    #expect(store.state.count == 6)
  }

  @Test func settleTreatsWorkAsleepOnATestClockAsSettled() async {
    let clock = TestClock()
    let store = MainStore<Counter>(
      state: .init(),
      deps: .init(work: { _, value in
        try await clock.sleep(for: .seconds(1))
        return value
      }))
    store.send(.startWork(id: "timer", value: 3))
    await store.settle()
    #expect(store.state.count == 0)
    await clock.advance(by: .seconds(1))
    #expect(store.state.count == 3)
  }
}

/// Sends `.add(10)` from inside each of the first `times` changes of a store's state, reading the
/// count it had then.
@MainActor
private final class ResendingObserver {
  let store: MainStore<Counter>
  var remaining: Int
  var seen: [Int] = []

  init(store: MainStore<Counter>, times: Int) {
    self.store = store
    self.remaining = times
  }

  func observe() {
    withObservationTracking {
      _ = store.state
    } onChange: { [self] in
      MainActor.assumeIsolated { changed() }
    }
  }

  private func changed() {
    // NB: `onChange` runs before the change is stored: the count is the one before it.
    seen.append(store.state.count)
    if remaining > 0 {
      remaining -= 1
      store.send(.add(10))
    }
    observe()
  }
}

/// An observer that registers again from inside each change, as SwiftUI does when it renders.
@MainActor
private final class RereadingObserver {
  private let store: MainStore<Counter>
  private(set) var heard = 0

  init(store: MainStore<Counter>) {
    self.store = store
  }

  func observe() {
    withObservationTracking {
      _ = store.state.count
    } onChange: {
      MainActor.assumeIsolated {
        self.heard += 1
        self.observe()
      }
    }
  }
}
