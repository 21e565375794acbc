import Decisions
import DecisionsTesting
import Dispatch
import TestSupport
import Testing

/// Guarantees 1, 2 and 8: one event at a time, in each sender's order, from async and sync code.
@Suite(.timeLimit(.minutes(3))) struct StoreOrderingTests {
  @Test(arguments: StoreKind.allCases)
  func hundredConcurrentSendersKeepTheirOwnOrder(on kind: StoreKind) async {
    let store = await kind.make(
      Tally.self, state: .init(), deps: ())
    let senders = 100
    // NB: a million sends took a fifth of the ThreadSanitizer run's CPU time; a tenth of them, from
    // as many senders at once, still interleave.
    let eventsPerSender = underSanitizer ? 1_000 : 10_000
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<senders {
        group.addTask {
          for sequence in 0..<eventsPerSender {
            await store.send(.tick(sender: sender, sequence: sequence))
          }
        }
      }
    }
    let state = await store.state
    #expect(state.total == senders * eventsPerSender)
    #expect(state.outOfOrder == 0)
    #expect(state.next.count == senders)
    #expect(state.next.values.allSatisfy { $0 == eventsPerSender })
  }

  @Test func postFromManyThreadsKeepsEachThreadsOrder() async {
    let store = Store<Tally>(state: .init(), deps: ())
    let threads = 8
    let eventsPerThread = 5_000
    // NB: concurrentPerform runs plain synchronous code on several threads, like UI callbacks would.
    DispatchQueue.concurrentPerform(iterations: threads) { sender in
      for sequence in 0..<eventsPerThread {
        store.post(.tick(sender: sender, sequence: sequence))
      }
    }
    await store.settle()
    let state = await store.state
    #expect(state.total == threads * eventsPerThread)
    #expect(state.outOfOrder == 0)
  }

  @Test func postedEventsComeBeforeALaterAwaitedSendFromTheSameSender() async {
    let store = Store<Tally>(state: .init(), deps: ())
    for round in 0..<200 {
      store.post(.tick(sender: 0, sequence: 2 * round))
      await store.send(.tick(sender: 0, sequence: 2 * round + 1))
    }
    let state = await store.state
    #expect(state.total == 400)
    #expect(state.outOfOrder == 0)
  }

  @Test func aHighPriorityWorkResultComesAfterEventsPostedBeforeIt() async {
    // What guarantee 2 promises across priorities: an event posted before work sends its result
    // is processed first, even when the poster runs at background priority and the work at high.
    for _ in 0..<200 {
      let gate = Gate()
      let store = Store<Racer>(state: .init(), deps: .init(wait: { await gate.wait() }))
      await store.send(.start)
      await Task(priority: .background) {
        for index in 0..<20 { store.post(.posted(index)) }
      }.value
      gate.open()
      await store.settle()
      #expect(await store.state.log == (0..<20).map { "posted \($0)" } + ["result"])
    }
  }

  @Test(arguments: StoreKind.allCases)
  func decisionsArePerformedInTheOrderReturned(on kind: StoreKind) async {
    let calls = Calls<String>()
    let store = await kind.make(
      Counter.self, state: .init(), deps: .init(log: { calls.record($0) }))
    await store.send(.logAll(["1", "2", "3", "4", "5"]))
    #expect(calls.all == ["1", "2", "3", "4", "5"])
  }

  @Test(arguments: StoreKind.allCases)
  func eventsQueuedByEffectsRunAfterTheCurrentEventsDecisions(on kind: StoreKind) async {
    let calls = Calls<String>()
    let store = await kind.make(
      Counter.self, state: .init(), deps: .init(log: { calls.record($0) }))
    await store.send(.echo("a"))
    await store.send(.echo("b"))
    // `.echo` logs its text in place and queues `.log("echo …")` behind itself.
    #expect(calls.all == ["a", "echo a", "b", "echo b"])
  }

  /// Checks atomicity by replaying the diagnostics journal through the pure core.
  ///
  /// Work sends events back while other events arrive. If processing were interleaved — state read
  /// before a suspension and written after it — the recorded states would not match a replay of the
  /// recorded events through the pure core, or one event's decisions would be split by another event.
  @Test(arguments: StoreKind.allCases)
  func eventsFromWorkNeverInterleaveWithTheEventBeingProcessed(on kind: StoreKind) async {
    let journal = Journal<Counter>(initialState: .init())
    let store = await kind.make(
      Counter.self,
      state: .init(),
      deps: .init(work: { _, value in value }),
      diagnostics: journal.record
    )
    // NB: a fifth of the rounds under a sanitizer, from as many senders (see `underSanitizer`).
    let rounds = underSanitizer ? 40 : 200
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<20 {
        group.addTask {
          for index in 0..<rounds {
            await store.send(.startUnkeyed(value: 1))
            await store.send(.echo("\(sender)-\(index)"))
            await store.send(.chain(remaining: 2))
            await store.send(.logAll(["x", "y"]))
          }
        }
      }
    }
    await store.settle()

    // Replaying the recorded events gives each recorded state and each event's decisions: no
    // event's decisions were split by another event, and no state was written after a suspension.
    journal.expectReplayMatches()
    #expect(journal.ignoredEvents.isEmpty)
    #expect(journal.unhandledErrors.isEmpty)
    // 20 senders × the rounds × (start + work result + echo + echo's log + chain ×3 + logAll).
    let expectedEvents = 20 * rounds * 8
    #expect(journal.events.count == expectedEvents)
    #expect(await store.state == journal.steps.last?.state)
  }
}

/// Starts high-priority work and logs the order in which posted events and its result arrive.
private enum Racer: Feature {
  struct State: Equatable, Sendable {
    var log: [String] = []
  }
  enum Event: Equatable, Sendable {
    case start
    case posted(Int)
    case result
  }
  enum Decision: Equatable, Sendable {
    case load
  }
  struct Deps: Sendable {
    var wait: @Sendable () async -> Void
  }
  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start: return [.load]
    case .posted(let index): state.log.append("posted \(index)")
    case .result: state.log.append("result")
    }
    return []
  }
  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load:
      effects.run(priority: .high) { send in
        await deps.wait()
        await send(.result)
      }
    }
  }
}
