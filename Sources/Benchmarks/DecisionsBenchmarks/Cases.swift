import Decisions
import Synchronization

#if canImport(Observation)
  import Observation
#endif

// MARK: - 1. Floor

/// Calls the counter's core once, never inlined, so the floor loop cannot be folded away.
@inline(never)
func decide(_ event: Counter.Event, _ state: inout Counter.State) -> [Counter.Decision] {
  Counter.makeDecisions(event: event, state: &state)
}

/// Case 1: the core called directly in a loop, with no store: the cost every other case is
/// compared with.
func floorCase(_ plan: Plan) async -> [Row] {
  let row = await measure(
    "1", "floor: makeDecisions in a loop, no Store", events: plan.events(20_000_000), plan: plan
  ) { events in
    var state = Counter.State()
    var decided = 0
    let start = ContinuousClock.now
    for _ in 0..<events {
      decided &+= decide(.increment, &state).count
    }
    let elapsed = ContinuousClock.now - start
    check(state.count == events, "the core counted \(state.count) of \(events) events")
    check(decided == 0, "the core decided \(decided) times; increment decides nothing")
    return elapsed
  }
  return [row]
}

// MARK: - 2-4. Sending events

/// Case 2: `await store.send` of events that decide nothing, from one task.
///
/// The best case: the sending task is not isolated and does nothing between sends, so the runtime
/// need not switch back to it after each send. Case 11 measures what an app's own actor pays.
func sendCase(_ plan: Plan) async -> [Row] {
  let row = await measure(
    "2", "await send, no decisions, one task", events: plan.events(1_000_000), plan: plan
  ) { events in
    let store = Store<Counter>(state: .init(), deps: .none)
    let elapsed = await timedInBackground {
      for _ in 0..<events { await store.send(.increment) }
    }
    await expectCount(store, events)
    return elapsed
  }
  return [row]
}

/// Case 11: case 2 sent from an actor that does a little work of its own between sends, as an
/// app's own actor (or the main actor) would: after each send the runtime switches back to the
/// caller's executor, and before the next away again.
func actorSendCase(_ plan: Plan) async -> [Row] {
  let row = await measure(
    "11", "await send from an actor, working between", events: plan.events(1_000_000),
    plan: plan
  ) { events in
    let store = Store<Counter>(state: .init(), deps: .none)
    let caller = Caller()
    let elapsed = await timedInBackground { await caller.send(events, to: store) }
    await expectCount(store, events)
    let work = await caller.work
    check(work == events, "the caller worked \(work) of \(events) times")
    return elapsed
  }
  let batch = await measure(
    "11b", "…send(contentsOf:) 100 at a time from an actor", events: plan.events(1_000_000),
    plan: plan
  ) { events in
    let store = Store<Counter>(state: .init(), deps: .none)
    let caller = Caller()
    let elapsed = await timedInBackground { await caller.sendBatches(events, to: store) }
    await expectCount(store, events)
    return elapsed
  }
  return [row, batch]
}

/// An app's own actor that sends to a store and does a little work of its own between sends.
actor Caller {
  /// How many times it did its own work.
  private(set) var work = 0

  /// Sends `events` increments to `store`, doing its own work after each.
  func send(_ events: Int, to store: Store<Counter>) async {
    for _ in 0..<events {
      await store.send(.increment)
      work += 1  // on this actor: the runtime must switch back to it after each send
    }
  }

  /// Sends `events` increments to `store` in batches of 100 (and one of the rest).
  func sendBatches(_ events: Int, to store: Store<Counter>) async {
    let batch = [Counter.Event](repeating: .increment, count: 100)
    for _ in 0..<events / 100 {
      await store.send(contentsOf: batch)
      work += 1
    }
    await store.send(contentsOf: [Counter.Event](repeating: .increment, count: events % 100))
  }
}

/// Posts `events` increments from synchronous code, as a UI callback would.
@inline(never)
func postIncrements(to store: Store<Counter>, _ events: Int) {
  for _ in 0..<events { store.post(.increment) }
}

/// Case 3: `store.post` from synchronous code, then one `await store.settle()`.
func postCase(_ plan: Plan) async -> [Row] {
  let row = await measure(
    "3", "post from sync code, then settle()", events: plan.events(1_000_000), plan: plan
  ) { events in
    // NB: the posts come from a task, which is refused at the limit: the limit lets all of them
    // wait, as the case measures a burst.
    let store = Store<Counter>(state: .init(), deps: .none, postLimit: max(1, events))
    let elapsed = await timedInBackground {
      postIncrements(to: store, events)
      await store.settle()
    }
    await expectCount(store, events)
    return elapsed
  }
  return [row]
}

/// Case 4: events that each decide one quick decision, performed in place through `Deps`.
func quickDecisionCase(_ plan: Plan) async -> [Row] {
  let row = await measure(
    "4", "await send, one quick decision", events: plan.events(1_000_000), plan: plan
  ) { events in
    let total = Total()
    let store = Store<Counter>(state: .init(), deps: .init(log: { total.add($0) }))
    let elapsed = await timedInBackground {
      for _ in 0..<events { await store.send(.tap(1)) }
    }
    await expectCount(store, events)
    check(total.value == events, "the executor logged \(total.value) of \(events) decisions")
    return elapsed
  }
  return [row]
}

/// Checks that a counter store has counted exactly `events` events.
func expectCount(_ store: Store<Counter>, _ events: Int) async {
  let count = await store.state.count
  check(count == events, "the store counted \(count) of \(events) events")
}

// MARK: - 5. Effect round trip

/// The times at which the `echo` dependency was called, to measure each round trip on its own.
final class Stamps: Sendable {
  private let instants: Mutex<[ContinuousClock.Instant]>

  /// Creates an empty record with room for `capacity` instants.
  init(capacity: Int) {
    var instants: [ContinuousClock.Instant] = []
    instants.reserveCapacity(capacity)
    self.instants = Mutex(instants)
  }

  /// Records the current instant.
  func record() {
    let now = ContinuousClock.now
    instants.withLock { $0.append(now) }
  }

  /// The nanoseconds between consecutive instants: one value per complete round trip.
  var intervals: [Double] {
    instants.withLock { instants in
      zip(instants, instants.dropFirst()).map { nanoseconds($1 - $0) }
    }
  }
}

/// A chain of `rounds` round trips through `echo`, returning its time, the answers that arrived and
/// their sum.
private typealias RoundTripChain =
  @Sendable (_ rounds: Int, _ echo: @escaping @Sendable (Int) async -> Int) async -> (
    Duration, answers: Int, sum: Int
  )

/// Case 5: a chain of round trips, event → long-work decision → `Deps` closure → event back →
/// state, each one started by the answer to the previous one: latency, not throughput.
///
/// The runs of 5a, 5b and 5c take turns (5a, 5b, 5c, 5a, …), warm-up runs included, so the ratios
/// between them compare the same minutes of the machine: on a shared machine, the latency of a
/// thread handoff drifts by tens of percent from one second to the next.
func roundTripCase(_ plan: Plan) async -> [Row] {
  let store: RoundTripChain = { rounds, echo in
    let store = Store<PingPong>(state: .init(), deps: .init(echo: echo))
    let elapsed = await timedInBackground {
      await store.send(.start(rounds: rounds))
      await store.settle()
    }
    let state = await store.state
    return (elapsed, state.answers, state.sum)
  }
  func handWritten(startsOffTheActor: Bool) -> RoundTripChain {
    { rounds, echo in
      let owner = HandWrittenPingPong(echo: echo, startsOffTheActor: startsOffTheActor)
      let elapsed = await timedInBackground { await owner.run(rounds: rounds) }
      let (answers, sum) = await owner.totals
      return (elapsed, answers, sum)
    }
  }
  let chains: [(id: String, title: String, run: RoundTripChain)] = [
    ("5a", "effect round trip (latency)", store),
    ("5b", "hand-written: an actor, a Task per trip", handWritten(startsOffTheActor: false)),
    ("5c", "…the Task started off the actor", handWritten(startsOffTheActor: true)),
  ]
  let rounds = plan.events(100_000)
  var nanos: [String: [Double]] = [:]
  var trips: [String: [Double]] = [:]
  for run in 0..<(plan.warmup + plan.runs) {
    for chain in chains where plan.selects(chain.id) {
      let stamps = Stamps(capacity: rounds)
      let (elapsed, answers, sum) = await chain.run(rounds) { value in
        stamps.record()
        return value
      }
      check(answers == rounds, "\(chain.id): \(answers) of \(rounds) answers arrived")
      check(sum == rounds * (rounds - 1) / 2, "\(chain.id): the answers add up to \(sum)")
      trips[chain.id, default: []] += stamps.intervals
      if run >= plan.warmup {
        nanos[chain.id, default: []].append(nanoseconds(elapsed) / Double(rounds))
      }
    }
  }
  return chains.map { chain in
    var row = Row(id: chain.id, title: chain.title, events: rounds, nanos: nanos[chain.id] ?? [])
    if var trips = trips[chain.id], !trips.isEmpty {
      trips.sort()
      let median = trips[trips.count / 2]
      let p99 = trips[Swift.min(trips.count - 1, trips.count * 99 / 100)]
      row.note =
        "each round trip timed on its own (Deps call to next Deps call, includes warm-up): "
        + "median \(readable(median)) ns, p99 \(readable(p99)) ns"
    }
    return row
  }
}

/// Cases 5b and 5c, the floors of case 5a: the same chain written by hand, without the library. An
/// actor starts one `Task` per request, which awaits the deps closure and calls the actor back with
/// the answer; the answer decides the next request.
///
/// In 5b the task starts on the actor, as a task started in an actor method does, and ends there
/// with the answer. In 5c it starts off the actor, on the global executor, as a store's work does:
/// a store's work must not run on the store's executor, where it would hold up events.
actor HandWrittenPingPong {
  private var answers = 0
  private var rounds = 0
  private var sum = 0
  private let echo: @Sendable (Int) async -> Int
  private let startsOffTheActor: Bool
  private var done: CheckedContinuation<Void, Never>?

  /// Creates the chain's owner.
  /// - Parameters:
  ///   - echo: The deps closure each trip awaits.
  ///   - startsOffTheActor: Whether each trip's task starts on the global executor (5c) rather than
  ///     on the actor (5b).
  init(echo: @escaping @Sendable (Int) async -> Int, startsOffTheActor: Bool = false) {
    self.echo = echo
    self.startsOffTheActor = startsOffTheActor
  }

  /// The answers that arrived, and their sum.
  var totals: (answers: Int, sum: Int) { (answers, sum) }

  /// Makes `rounds` round trips, one after the other, and returns when the last answer arrived.
  func run(rounds: Int) async {
    self.rounds = rounds
    guard rounds > 0 else { return }
    await withCheckedContinuation { done in
      self.done = done
      request(0)
    }
  }

  private func answer(_ value: Int) {
    answers += 1
    sum += value
    if answers < rounds {
      request(answers)
    } else {
      done?.resume()
      done = nil
    }
  }

  // NB: the task inherits the actor's isolation, as a task started in an actor method does: it
  // leaves the actor for the deps call and comes back with the answer.
  private func request(_ value: Int) {
    if startsOffTheActor {
      requestOffTheActor(value)
      return
    }
    let echo = self.echo
    Task {
      let answer = await echo(value)
      self.answer(answer)
    }
  }

  // NB: nonisolated, so the task's closure is nonisolated, as in `Effects.run`: the task starts on
  // the global executor and hops to the actor with the answer.
  private nonisolated func requestOffTheActor(_ value: Int) {
    let echo = self.echo
    Task {
      let answer = await echo(value)
      await self.answer(answer)
    }
  }
}

// MARK: - 6. Observers

/// Case 6: the store of case 2 with 1 and with 100 `states()` sequences, each consumed by a task.
func observersCase(_ plan: Plan) async -> [Row] {
  var rows: [Row] = []
  for (id, observers) in [("6a", 1), ("6b", 100)] {
    let title = "await send, \(observers) states() observer\(observers == 1 ? "" : "s")"
    rows.append(
      await measure(id, title, events: plan.events(5_000), plan: plan) { events in
        let store = Store<Counter>(state: .init(), deps: .none)
        var tasks: [Task<Int, Never>] = []
        for _ in 0..<observers {
          let states = await store.states()
          tasks.append(Task.detached { await consume(states, until: events) })
        }
        let consumers = tasks
        let elapsed = await timedInBackground {
          for _ in 0..<events { await store.send(.increment) }
          for consumer in consumers {
            let seen = await consumer.value
            check(seen == events + 1, "an observer saw \(seen) of \(events + 1) states")
          }
        }
        await expectCount(store, events)
        await store.stop()
        return elapsed
      })
  }
  // NB: the synchronous observer the store already has: its diagnostics hook, called on the
  // store's executor with each state, in order, with no task to wake.
  let title = "await send, diagnostics hook reads states"
  rows.append(
    await measure("6c", title, events: plan.events(5_000), plan: plan) { events in
      let seen = Atomic<Int>(0)
      let last = Atomic<Int>(-1)
      let store = Store<Counter>(state: .init(), deps: .none) { diagnostic in
        guard case .state(let state) = diagnostic else { return }
        seen.add(1, ordering: .relaxed)
        last.store(state.count, ordering: .relaxed)
      }
      let elapsed = await timedInBackground {
        for _ in 0..<events { await store.send(.increment) }
      }
      await expectCount(store, events)
      // NB: the hook saw the state after the store's start, then one per event.
      let states = seen.load(ordering: .relaxed)
      check(states == events + 1, "the hook saw \(states) of \(events + 1) states")
      check(last.load(ordering: .relaxed) == events, "the hook's last state is not the store's")
      await store.stop()
      return elapsed
    })
  return rows
}

/// Reads states in order until the count reaches `count`, and returns how many it read.
func consume(_ states: StateSequence<Counter.State>, until count: Int) async -> Int {
  var seen = 0
  for await state in states {
    check(state.count == seen, "an observer saw count \(state.count) where \(seen) was next")
    seen += 1
    if state.count == count { break }
  }
  return seen
}

// MARK: - 7. Composition

/// Case 7: the flat counter against the same counter embedded three levels deep (``Top`` →
/// ``Middle`` → ``Counter``, each declared with `embed(_:state:event:decision:)`), with no decisions
/// and with one quick decision per event.
func compositionCase(_ plan: Plan) async -> [Row] {
  let events = plan.events(1_000_000)
  let flat = await measure("7a", "flat, no decisions", events: events, plan: plan) { events in
    let store = Store<Counter>(state: .init(), deps: .none)
    let elapsed = await timedInBackground {
      for _ in 0..<events { await store.send(.increment) }
    }
    await expectCount(store, events)
    return elapsed
  }
  let composed = await measure("7b", "3 levels, no decisions", events: events, plan: plan) {
    events in
    let store = Store<Top>(state: .init(), deps: .init(middle: .init(counter: .none)))
    let elapsed = await timedInBackground {
      for _ in 0..<events { await store.send(.middle(.counter(.increment))) }
    }
    let count = await store.state.middle.counter.count
    check(count == events, "the store counted \(count) of \(events) events")
    return elapsed
  }
  let flatDecision = await measure("7c", "flat, one quick decision", events: events, plan: plan) {
    events in
    let total = Total()
    let store = Store<Counter>(state: .init(), deps: .init(log: { total.add($0) }))
    let elapsed = await timedInBackground {
      for _ in 0..<events { await store.send(.tap(1)) }
    }
    await expectCount(store, events)
    check(total.value == events, "the executor logged \(total.value) of \(events) decisions")
    return elapsed
  }
  let composedDecision = await measure(
    "7d", "3 levels, one quick decision", events: events, plan: plan
  ) { events in
    let total = Total()
    let deps = Top.Deps(middle: .init(counter: .init(log: { total.add($0) })))
    let store = Store<Top>(state: .init(), deps: deps)
    let elapsed = await timedInBackground {
      for _ in 0..<events { await store.send(.middle(.counter(.tap(1)))) }
    }
    let count = await store.state.middle.counter.count
    check(count == events, "the store counted \(count) of \(events) events")
    check(total.value == events, "the executor logged \(total.value) of \(events) decisions")
    return elapsed
  }
  return [flat, composed, flatDecision, composedDecision]
}

// MARK: - 8. Baseline

/// Case 8: an idiomatic `@Observable` main-actor view model doing the work of cases 2 and 5.
@MainActor
func baselineCase(_ plan: Plan) async -> [Row] {
  #if canImport(Observation)
    let taps = await measure(
      "8a", "view model: tap, mutate in place (main)", events: plan.events(1_000_000), plan: plan
    ) { events in
      let model = CounterViewModel(echo: { $0 })
      let start = ContinuousClock.now
      for _ in 0..<events { model.didTap() }
      let elapsed = ContinuousClock.now - start
      check(model.count == events, "the model counted \(model.count) of \(events) taps")
      return elapsed
    }
    let loads = await measure(
      "8b", "view model: Task per load (latency)", events: plan.events(100_000), plan: plan
    ) { rounds in
      let model = CounterViewModel(echo: { $0 })
      let start = ContinuousClock.now
      await model.loadRepeatedly(rounds: rounds)
      let elapsed = ContinuousClock.now - start
      check(model.answers == rounds, "\(model.answers) of \(rounds) loads finished")
      check(model.sum == rounds * (rounds - 1) / 2, "the loads add up to \(model.sum)")
      return elapsed
    }
    return [taps, loads]
  #else
    return []
  #endif
}

// MARK: - 9. The UI path

/// An actor that does nothing but count calls: the other end of a main-actor round trip.
actor Echo {
  /// How many times ``ping()`` was called.
  private(set) var pings = 0

  /// Counts a call.
  func ping() {
    pings += 1
  }
}

/// Case 9: a burst of events sent from the main actor through ``ObservableStore``, until the model
/// on the main actor shows the burst's last state; and a main-actor round trip for scale.
@MainActor
func uiPathCase(_ plan: Plan) async -> [Row] {
  #if canImport(Observation)
    let hop = await measure(
      "9a", "main-actor round trip (main→actor→main)", events: plan.events(20_000), plan: plan
    ) { events in
      let echo = Echo()
      let start = ContinuousClock.now
      for _ in 0..<events { await echo.ping() }
      let elapsed = ContinuousClock.now - start
      let pings = await echo.pings
      check(pings == events, "the actor saw \(pings) of \(events) calls")
      return elapsed
    }
    // NB: one burst is short, so it gets more runs than the other cases.
    var burstPlan = plan
    burstPlan.runs *= 5
    burstPlan.warmup += 2
    var mostChanges = 0
    var sendNanos: [Double] = []
    var burst = await measure(
      "9b", "ObservableStore burst from main, delivered", events: plan.eventsOverride ?? 1_000,
      plan: burstPlan
    ) { events in
      let model = ObservableStore<Counter>(state: .init(), deps: .none)
      let start = ContinuousClock.now
      for _ in 0..<events { model.send(.increment) }
      let sent = ContinuousClock.now
      let changes = await stateChanges(of: model, until: events)
      let elapsed = ContinuousClock.now - start
      check(model.state.count == events, "the model shows \(model.state.count) of \(events)")
      mostChanges = Swift.max(mostChanges, changes)
      sendNanos.append(nanoseconds(sent - start) / Double(events))
      return elapsed
    }
    let burstNanos = burst.median * Double(burst.events)
    burst.note =
      "one burst of \(grouped(burst.events)) events: \(readable(burstNanos / 1_000)) µs = "
      + "\(readable(burstNanos / hop.median)) main-actor round trips (9a); the model's state "
      + "changed (one main-actor delivery each) at most \(mostChanges) "
      + "time\(mostChanges == 1 ? "" : "s") per burst"
    burst.deliveries = mostChanges
    // NB: the same bursts, timed only until the last `send` returned: what the main thread pays.
    let sends = Row(
      id: "9c", title: "…of which the sends on the main thread", events: burst.events,
      nanos: Array(sendNanos.dropFirst(burstPlan.warmup)))
    return [hop, burst, sends]
  #else
    return []
  #endif
}

#if canImport(Observation)
  /// Waits on the main actor until the model shows `count`, and returns how many times its state
  /// changed meanwhile: one per main-actor delivery that brought a new state.
  @MainActor
  func stateChanges(of model: ObservableStore<Counter>, until count: Int) async -> Int {
    var changes = 0
    while model.state.count < count {
      await withCheckedContinuation { continuation in
        withObservationTracking {
          _ = model.state
        } onChange: {
          continuation.resume()
        }
      }
      changes += 1
    }
    return changes
  }
#endif

// MARK: - 12. A list of children

/// Case 12: an event for the last of 10, 1,000 and 100,000 rows, found by id in an `IdentifiedArray`
/// (a, b, c: the cost stays flat) and, for contrast, in a plain array of 1,000 rows (d: a linear
/// search), and (e) in an `IdentifiedArray` of 1,000 rows embedded with `embed(_:list:)`.
func rowsCase(_ plan: Plan) async -> [Row] {
  var rows: [Row] = []
  for (id, count) in [("12a", 10), ("12b", 1_000), ("12c", 100_000)] {
    rows.append(
      await measure(
        id, "one of \(grouped(count)) rows, IdentifiedArray", events: plan.events(1_000_000),
        plan: plan
      ) { events in
        await sendToLastRow(of: count, identified: true, events: events)
      })
  }
  rows.append(
    await measure(
      "12d", "one of 1,000 rows, plain array", events: plan.events(100_000), plan: plan
    ) { events in
      await sendToLastRow(of: 1_000, identified: false, events: events)
    })
  rows.append(
    await measure(
      "12e", "one of 1,000 rows, embed(_:list:)", events: plan.events(1_000_000), plan: plan
    ) { events in
      let store = Store<EmbeddedRows>(state: .init(count: 1_000), deps: ())
      let elapsed = await timedInBackground {
        for _ in 0..<events { await store.send(.row(id: 999, .increment)) }
      }
      let counted = await store.state.rows[id: 999]?.counter.count
      check(counted == events, "the last row counted \(counted ?? -1) of \(events) events")
      return elapsed
    })
  return rows
}

/// Sends `events` increments to the last of `count` rows and checks that it counted them all.
func sendToLastRow(of count: Int, identified: Bool, events: Int) async -> Duration {
  let store = Store<Rows>(state: .init(count: count, identified: identified), deps: ())
  let last = count - 1
  let event: Rows.Event =
    identified ? .identified(id: last, .increment) : .array(id: last, .increment)
  let elapsed = await timedInBackground {
    for _ in 0..<events { await store.send(event) }
  }
  let state = await store.state
  let counted =
    identified ? state.identified[id: last]?.counter.count : state.array.last?.counter.count
  check(counted == events, "the last row counted \(counted ?? -1) of \(events) events")
  return elapsed
}
