import DecisionsTesting
import Foundation
import Observation
import Synchronization
import Testing

@testable import Decisions

/// Records diagnostics as text, from any thread.
private final class DiagnosticLog: Sendable {
  private let lines = Mutex<[String]>([])

  func record(_ diagnostic: MainStore<Counter>.Diagnostic) {
    let line: String
    switch diagnostic {
    case .started: line = "started"
    case .received(let event): line = "received \(event)"
    case .state(let state): line = "state \(state.count)"
    case .decided(let decision): line = "decided \(decision)"
    case .ignored(let event, let reason): line = "ignored \(event) \(reason)"
    case .workStarted(let id): line = "started \(id.map(String.init(describing:)) ?? "nil")"
    case .workFailed(let id, let error):
      line = "failed \(id.map(String.init(describing:)) ?? "nil") \(error)"
    case .workFinished(let id): line = "finished \(id.map(String.init(describing:)) ?? "nil")"
    case .workWithoutLifetime(let scope): line = "without lifetime \(scope)"
    }
    lines.withLock { $0.append(line) }
  }

  var all: [String] { lines.withLock { $0 } }
}

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

  @Test func replacedWorkSendsNothingAndIsReported() async {
    let first = ControlledDependency<Int, Int>()
    let diagnostics = DiagnosticLog()
    let store = MainStore<Counter>(
      state: .init(),
      deps: .init(work: { _, value in value == 1 ? try await first(value) : value }),
      diagnostics: diagnostics.record)
    store.send(.startWork(id: "a", value: 1))
    let call = try? await first.nextCall()
    store.send(.startWork(id: "a", value: 2))
    await store.settle()
    #expect(store.state.count == 2)
    // The replaced call ends with the cancellation: its work sends nothing.
    call?.answer(100)
    await store.settle()
    #expect(store.state.count == 2)
    #expect(diagnostics.all.contains("started a"))
    #expect(diagnostics.all.filter { $0 == "finished a" }.count == 2)
  }

  @Test func anUnhandledErrorIsReportedWithItsWork() async {
    let diagnostics = DiagnosticLog()
    let store = MainStore<Counter>(
      state: .init(), deps: .init(), diagnostics: diagnostics.record)
    store.send(.fail(handled: false))
    await store.settle()
    #expect(
      diagnostics.all.suffix(2) == [
        "failed unhandled Failure(message: \"boom\")", "finished unhandled",
      ])
  }

  @Test func aHandledErrorBecomesAnEvent() async {
    let store = MainStore<Counter>(state: .init(), deps: .init())
    store.send(.fail(handled: true))
    await store.settle()
    #expect(store.state.messages == ["Failure(message: \"boom\")"])
  }

  @Test func stopCancelsWorkAndIgnoresLaterEvents() async {
    let work = ControlledDependency<Int, Int>()
    let diagnostics = DiagnosticLog()
    let store = MainStore<Counter>(
      state: .init(), deps: .init(work: { _, value in try await work(value) }),
      diagnostics: diagnostics.record)
    store.send(.startWork(id: "a", value: 1))
    _ = try? await work.nextCall()
    store.stop()
    store.stop()
    #expect(store.isStopped)
    await store.settle()
    store.send(.increment)
    #expect(store.state.count == 0)
    #expect(diagnostics.all.last == "ignored increment stopped")
    #expect(diagnostics.all.contains("finished a"))
  }

  @Test func aReleasedStoreCancelsItsWork() async {
    let work = ControlledDependency<Int, Int>()
    var store: MainStore<Counter>? = MainStore<Counter>(
      state: .init(), deps: .init(work: { _, value in try await work(value) }))
    store?.send(.startWork(id: "a", value: 1))
    let call = try? await work.nextCall()
    weak let released = store
    store = nil
    #expect(released == nil)
    // The call ends only with its work's cancellation, which the release did at once.
    #expect(call?.isWaiting == false)
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

  @Test func settleReturnsWhenItsTaskIsCancelled() async {
    // Not a wait for the test, so `settle()` waits for it: a stream that yields nothing until
    // the test ends it.
    let (never, end) = AsyncStream<Never>.makeStream()
    defer { end.finish() }
    let store = MainStore<Counter>(
      state: .init(),
      deps: .init(work: { _, value in
        for await _ in never {}
        return value
      }))
    store.send(.startWork(id: "a", value: 1))
    let waiter = Task { await store.settle() }
    waiter.cancel()
    await waiter.value
    #expect(store.state.count == 0)
    store.stop()
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
