import Decisions
import DecisionsTesting
import Synchronization
import TestSupport
import Testing

/// `effects.timer(id:every:on:send:)`: a repeating timer, keyed work that ticks on deadlines
/// counted from its start (issue 35, part 4).
@Suite struct EffectsTimerTests {
  enum Metronome: Feature {
    struct State: Equatable, Sendable {
      var beats = 0
    }

    enum Event: Equatable, Sendable {
      case start(Duration)
      case stop
      case stopAll
      case beat
    }

    enum Decision: Equatable, Sendable {
      case tick(Duration)
      case stop
      case stopAll
    }

    struct Deps: Sendable {
      var clock: any Clock<Duration>
    }

    static func makeDecisions(event: Event, state: inout State) -> [Decision] {
      switch event {
      case .start(let period): return [.tick(period)]
      case .stop: return [.stop]
      case .stopAll: return [.stopAll]
      case .beat:
        state.beats += 1
        return []
      }
    }

    static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
      switch decision {
      case .tick(let period):
        effects.timer(id: "beat", every: period, on: deps.clock, send: .beat)
      case .stop:
        effects.cancel(id: "beat")
      case .stopAll:
        effects.cancelAll()
      }
    }
  }

  /// A parent that presents a metronome, whose timer runs in the metronome's scope.
  enum Band: Feature {
    struct State: Equatable, Sendable {
      @Presented var metronome: Metronome.State?
    }

    enum Event: Equatable, Sendable {
      case show
      case dismiss
      case metronome(Metronome.Event)
    }

    enum Decision: Equatable, Sendable {
      case metronome(Metronome.Decision)
    }

    typealias Deps = Metronome.Deps

    static let metronome = embed(
      Metronome.self, presented: \.$metronome, event: Event.metronome,
      decision: Decision.metronome)
    static let childWork = [metronome.work]

    static func makeDecisions(event: Event, state: inout State) -> [Decision] {
      switch event {
      case .show:
        state.metronome = .init()
        return []
      case .dismiss:
        state.metronome = nil
        return []
      case .metronome(let event):
        return metronome.makeDecisions(event: event, in: &state)
      }
    }

    static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
      switch decision {
      case .metronome(let decision):
        metronome.execute(decision, deps: deps, effects: effects)
      }
    }
  }

  @Test func ticksFallOnTheDeadlinesAndNotBefore() async {
    let clock = TestClock()
    let test = StoreTest<Metronome>(state: .init(), deps: .init(clock: clock))
    await test.send(.start(.seconds(1)), decisions: [.tick(.seconds(1))])
    await clock.advance(by: .milliseconds(999))
    await test.expectNoNewEvents()
    await clock.advance(by: .milliseconds(1))
    await test.receive(.beat) { $0.beats = 1 }
    // Three periods at once: three ticks, one per deadline.
    await clock.advance(by: .seconds(3))
    await test.receive(.beat) { $0.beats = 2 }
    await test.receive(.beat) { $0.beats = 3 }
    await test.receive(.beat) { $0.beats = 4 }
    #expect(clock.now == TestClock.Instant(offset: .seconds(4)))
    await test.send(.stop, decisions: [.stop])
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(10))
    await test.finish()
  }

  // NB: a timer that slept `for: period` after each tick would read `now` at every tick, and
  // drift by what each tick costs on a real clock.
  @Test func theDeadlinesAreCountedFromTheStartAlone() async {
    let test = TestClock()
    let clock = CountingClock(test)
    let store = StoreTest<Metronome>(state: .init(), deps: .init(clock: clock), clocks: [test])
    await store.send(.start(.seconds(1)), decisions: [.tick(.seconds(1))])
    await store.settle()
    await test.advance(by: .seconds(3))
    await store.receive(.beat) { $0.beats = 1 }
    await store.receive(.beat) { $0.beats = 2 }
    await store.receive(.beat) { $0.beats = 3 }
    #expect(clock.nowReads == 1)
    #expect(clock.deadlines == [1, 2, 3, 4].map { TestClock.Instant(offset: .seconds($0)) })
    await store.send(.stop, decisions: [.stop])
    await store.finish()
  }

  @Test func aTimerWithTheSameIDReplacesTheFirst() async {
    let clock = TestClock()
    let test = StoreTest<Metronome>(state: .init(), deps: .init(clock: clock))
    await test.send(.start(.seconds(1)), decisions: [.tick(.seconds(1))])
    await clock.advance(by: .milliseconds(500))
    await test.send(.start(.seconds(2)), decisions: [.tick(.seconds(2))])
    await test.settle()
    #expect(clock.sleeperCount == 1)
    // The first would have ticked at 1 s; the second ticks at 2.5 s.
    await clock.advance(by: .milliseconds(1_999))
    await test.expectNoNewEvents()
    await clock.advance(by: .milliseconds(1))
    await test.receive(.beat) { $0.beats = 1 }
    await test.send(.stop, decisions: [.stop])
    await test.finish()
  }

  @Test(arguments: [Duration.zero, .seconds(-1)])
  func aPeriodOfZeroOrLessFailsWithoutTicking(period: Duration) async {
    let clock = TestClock()
    // NB: a timer that spun on a past deadline would hang this test: the clock ends it instead.
    let limited = SleepLimitedClock(clock, limit: 10)
    let test = StoreTest<Metronome>(state: .init(), deps: .init(clock: limited), clocks: [clock])
    await test.send(.start(period), decisions: [.tick(period)])
    await test.settle()
    let errors = test.takeUnhandledErrors()
    #expect(errors.count == 1)
    #expect(errors.first?.id == WorkID("beat"))
    #expect(
      errors.first?.error as? TimerError == .periodNotPositive(String(describing: period)))
    #expect(
      (errors.first?.error).map { String(describing: $0) }
        == "A timer's period must be more than zero, not \(period).")
    #expect(limited.sleeps == 0)
    await test.finish()
  }

  /// A period no clock can count to (`.seconds(Int64.max)`, written for "never") trapped the
  /// system clock, whose sleep cannot represent the deadline: the timer sleeps in steps the clock
  /// can take, until it is cancelled.
  @Test func aPeriodTooLongForTheSystemClockSleepsUntilCancelled() async {
    let clock = SystemClockProbe()
    let store = Store<Metronome>(state: .init(), deps: .init(clock: clock))
    await store.send(.start(.seconds(Int64.max)))
    await clock.firstSleep()
    let deadlines = clock.deadlines
    #expect(deadlines.count == 1)
    #expect(deadlines.allSatisfy { ContinuousClock.now.duration(to: $0) <= .seconds(1 << 32) })
    await store.send(.stop)
    await store.settle()
    #expect(await store.state.beats == 0)
    await store.stop()
  }

  @Test func aTimerEndsWithTheWorkOfItsScope() async {
    let clock = TestClock()
    let store = Store<Metronome>(state: .init(), deps: .init(clock: clock))
    await store.send(.start(.seconds(1)))
    await store.settle()
    #expect(clock.sleeperCount == 1)
    await store.stop()
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(5))
    #expect(await store.state.beats == 0)
  }

  // NB: a clock may wake late (a busy thread, a tolerance, a slow tick before): the lateness must
  // stay with its tick. A timer that counted the next deadline from `now` after each tick would
  // carry it into every later one, here 0.3 s more each second.
  @Test func aTickThatComesLateDoesNotDelayTheLaterOnes() async {
    let test = TestClock()
    let clock = LateClock(test, lateness: .milliseconds(300))
    let store = StoreTest<Metronome>(state: .init(), deps: .init(clock: clock), clocks: [test])
    await store.send(.start(.seconds(1)), decisions: [.tick(.seconds(1))])
    await store.settle()
    await test.advance(by: .milliseconds(1_299))
    await store.expectNoNewEvents()
    await test.advance(by: .milliseconds(1))
    await store.receive(.beat) { $0.beats = 1 }  // at 1.3 s, for 1 s
    await test.advance(by: .milliseconds(999))
    await store.expectNoNewEvents()
    await test.advance(by: .milliseconds(1))
    await store.receive(.beat) { $0.beats = 2 }  // at 2.3 s, for 2 s: not 2.6 s
    await test.advance(by: .seconds(2))
    await store.receive(.beat) { $0.beats = 3 }
    await store.receive(.beat) { $0.beats = 4 }  // at 4.3 s, for 4 s: not 5.2 s
    await store.send(.stop, decisions: [.stop])
    await store.finish()
  }

  // NB: the ticks are counted, not skipped: a stopwatch whose device slept (a `ContinuousClock`
  // counts on) shows every second that passed, one event each.
  @Test func ticksWhoseDeadlinesPassedWhileTheClockWasLateComeAtOnce() async {
    let test = TestClock()
    let clock = LateClock(test, lateness: .milliseconds(2_500), sleeps: 1)
    let store = StoreTest<Metronome>(state: .init(), deps: .init(clock: clock), clocks: [test])
    await store.send(.start(.seconds(1)), decisions: [.tick(.seconds(1))])
    await store.settle()
    await test.advance(by: .milliseconds(3_499))
    await store.expectNoNewEvents()
    await test.advance(by: .milliseconds(1))  // 3.5 s: the ticks for 1, 2 and 3 s
    await store.receive(.beat) { $0.beats = 1 }
    await store.receive(.beat) { $0.beats = 2 }
    await store.receive(.beat) { $0.beats = 3 }
    await test.advance(by: .milliseconds(499))
    await store.expectNoNewEvents()
    await test.advance(by: .milliseconds(1))  // 4 s, on time again
    await store.receive(.beat) { $0.beats = 4 }
    await store.send(.stop, decisions: [.stop])
    await store.finish()
  }

  @Test(arguments: [Metronome.Event.stop, .stopAll])
  func aCancelledTimerSendsNothingMore(cancel: Metronome.Event) async {
    let clock = TestClock()
    let test = StoreTest<Metronome>(state: .init(), deps: .init(clock: clock))
    await test.send(.start(.seconds(1)), decisions: [.tick(.seconds(1))])
    await clock.advance(by: .seconds(1))
    await test.receive(.beat) { $0.beats = 1 }
    await clock.advance(by: .milliseconds(500))
    await test.send(cancel, decisions: cancel == .stop ? [.stop] : [.stopAll])
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(5))
    await test.expectNoNewEvents()
    await test.finish()
  }

  @Test func aTimerEndsWithTheChildThatStartedIt() async {
    let clock = TestClock()
    let test = StoreTest<Band>(state: .init(), deps: .init(clock: clock))
    await test.send(.show) { $0.metronome = .init() }
    await test.send(
      .metronome(.start(.seconds(1))), decisions: [.metronome(.tick(.seconds(1)))])
    await clock.advance(by: .seconds(1))
    await test.receive(.metronome(.beat)) { $0.metronome?.beats = 1 }
    await test.send(.dismiss) { $0.metronome = nil }
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(5))
    await test.expectNoNewEvents()
    await test.finish()
  }

  // NB: the ticks are awaited, not polled against a deadline: in a full parallel run on two cores
  // the timer may not run for many seconds. A timer that never ticks fails at the time limit.
  @Test(.timeLimit(.minutes(3))) func aTimerTicksOnAContinuousClock() async {
    let clock = ContinuousClock()
    let store = Store<Metronome>(state: .init(), deps: .init(clock: clock))
    let states = await store.states()
    let start = clock.now
    await store.send(.start(.milliseconds(20)))
    // NB: the beats as the states showed them: the store's own state may have ticked on since.
    var beats: [Int] = []
    for await state in states {
      if beats.last != state.beats { beats.append(state.beats) }
      if state.beats >= 3 { break }
    }
    #expect(beats == [0, 1, 2, 3])
    // A clock wakes late, never early: three ticks take at least three periods.
    #expect(start.duration(to: clock.now) >= .milliseconds(60))
    await store.stop()
  }
}

/// A clock that counts how often its time is read and records the deadlines slept until.
final class CountingClock: Clock, Sendable {
  let base: TestClock
  private let counts = Mutex<(reads: Int, deadlines: [TestClock.Instant])>((0, []))

  init(_ base: TestClock) { self.base = base }

  var now: TestClock.Instant {
    counts.withLock { $0.reads += 1 }
    return base.now
  }

  var minimumResolution: Duration { base.minimumResolution }

  func sleep(until deadline: TestClock.Instant, tolerance: Duration?) async throws {
    counts.withLock { $0.deadlines.append(deadline) }
    try await base.sleep(until: deadline, tolerance: tolerance)
  }

  var nowReads: Int { counts.withLock { $0.reads } }
  var deadlines: [TestClock.Instant] { counts.withLock { $0.deadlines } }
}

/// A clock that wakes its first `sleeps` sleepers `lateness` after their deadlines, as a busy
/// clock may, or a device that slept; later sleepers wake on time.
final class LateClock: Clock, Sendable {
  let base: TestClock
  let lateness: Duration
  private let lateSleepsLeft: Mutex<Int>

  init(_ base: TestClock, lateness: Duration, sleeps: Int = .max) {
    self.base = base
    self.lateness = lateness
    self.lateSleepsLeft = Mutex(sleeps)
  }

  var now: TestClock.Instant { base.now }

  var minimumResolution: Duration { base.minimumResolution }

  func sleep(until deadline: TestClock.Instant, tolerance: Duration?) async throws {
    let isLate = lateSleepsLeft.withLock { left in
      guard left > 0 else { return false }
      left -= 1
      return true
    }
    try await base.sleep(
      until: isLate ? deadline.advanced(by: lateness) : deadline, tolerance: tolerance)
  }
}

/// A clock that fails each sleep after its first `limit`: a timer that would sleep without end
/// fails instead of hanging its test.
final class SleepLimitedClock: Clock, Sendable {
  /// The error of a sleep past the limit.
  struct LimitReached: Error {}

  let base: TestClock
  let limit: Int
  private let count = Mutex(0)

  init(_ base: TestClock, limit: Int) {
    self.base = base
    self.limit = limit
  }

  var now: TestClock.Instant { base.now }

  var minimumResolution: Duration { base.minimumResolution }

  /// How many times a task went to sleep on the clock.
  var sleeps: Int { count.withLock { $0 } }

  func sleep(until deadline: TestClock.Instant, tolerance: Duration?) async throws {
    let sleeps = count.withLock { count in
      count += 1
      return count
    }
    guard sleeps <= limit else { throw LimitReached() }
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}
