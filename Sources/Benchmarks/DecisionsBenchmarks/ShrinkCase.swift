import Decisions
import DecisionsTesting

// MARK: - 19. Shrinking a long recording

/// A tally of marks among idle events: the core of case 19's recordings, where the marks are the
/// events that matter.
enum Tally: Core {
  struct State: Equatable, Sendable {
    var marks = 0
    var idle = 0
  }

  enum Event: Equatable, Sendable {
    case mark, idle
  }

  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    switch event {
    case .mark: state.marks += 1
    case .idle: state.idle += 1
    }
    return []
  }
}

/// The tally of case 19 with its conformances isolated to the main actor, as a feature written
/// with no annotation in a module with default main-actor isolation has them (case 19c).
@MainActor enum MainActorTally: @MainActor Core {
  struct State: @MainActor Equatable, Sendable {
    var marks = 0
    var idle = 0
  }

  enum Event: @MainActor Hashable, Sendable {
    case mark, idle
  }

  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    switch event {
    case .mark: state.marks += 1
    case .idle: state.idle += 1
    }
    return []
  }
}

/// Case 19: `shrink` of a recording where every mark matters.
///
/// The recording has 50,000 events (2,000 with `--quick`) and the symptom, "the marks reach *m*",
/// needs every one of its *m* marks: half the events (a), and 8 (b, and c for the same tally with
/// its conformances isolated to the main actor, shrunk on the main actor). Each row is one timed
/// run, the whole shrink, within its default time limit of 60 s; its note says how far it shrank,
/// in how many replays, and whether the result is 1-minimal.
func shrinkCase(_ plan: Plan) async -> [Row] {
  // NB: a shrink where most events matter costs the square of the recording's length: `--quick`
  // shrinks 2,000 events, about a six-hundredth of the work of 50,000.
  let events = plan.eventsOverride ?? (plan.quick ? 2_000 : 50_000)
  let mainActorRow = await MainThread.run {
    shrinkRow(
      "19c", "shrink: 8 events matter, main-actor conformances", MainActorTally.self,
      from: .init(), mark: .mark, idle: .idle, marksIn: { $0.marks }, events: events, marks: 8, plan
    )
  }
  return [
    shrinkRow(
      "19a", "shrink: half the events matter", Tally.self, from: .init(), mark: .mark, idle: .idle,
      marksIn: { $0.marks }, events: events, marks: events / 2, plan),
    shrinkRow(
      "19b", "shrink: 8 events matter", Tally.self, from: .init(), mark: .mark, idle: .idle,
      marksIn: { $0.marks }, events: events, marks: 8, plan),
    mainActorRow,
  ]
}

/// Shrinks `events` events, `marks` of them marks in places a seeded generator picks, to the
/// marks, and returns the row: nanoseconds per recorded event, and the shrink's outcome.
func shrinkRow<C: Core>(
  _ id: String, _ title: String, _ core: C.Type, from start: C.State, mark: C.Event,
  idle: C.Event, marksIn: @escaping (C.State) -> Int, events: Int, marks: Int, _ plan: Plan
) -> Row where C.State: Equatable, C.Event: Equatable, C.Decision: Equatable {
  var generator = SplitMix(seed: UInt64(events + marks))
  let recording =
    (Array(repeating: mark, count: marks)
    + Array(repeating: idle, count: events - marks)).shuffled(using: &generator)
  let replay = Replay(C.self, from: start, events: recording)
  let symptom = Symptom<C>.invariantBroken("fewer than \(marks) marks") { marksIn($0) < marks }
  // NB: one run, no warm-up: a full run may take the whole time limit.
  var once = plan
  once.warmup = 0
  once.runs = 1
  var outcome = ""
  var row = measureOnThisThread(id, title, events: events, plan: once) { _ in
    let clock = ContinuousClock()
    let began = clock.now
    let shrunk: ShrunkRun<C>
    do {
      shrunk = try replay.shrink(keeping: symptom)
    } catch {
      check(false, "the shrink failed: \(error)")
      return clock.now - began
    }
    let elapsed = clock.now - began
    check(
      shrunk.steps.last.map { marksIn($0.state) >= marks } == true,
      "the shrunk run of \(shrunk.events.count) events does not reach \(marks) marks")
    check(
      !shrunk.isOneMinimal || shrunk.events == Array(repeating: mark, count: marks),
      "the 1-minimal run is not the \(marks) marks: \(shrunk.events.count) events")
    let seconds = Double(Int(nanoseconds(elapsed) / 1e7)) / 100
    outcome =
      "\(seconds) s: to \(grouped(shrunk.events.count)) events in \(grouped(shrunk.replays)) "
      + "replays, "
      + (shrunk.isOneMinimal ? "1-minimal" : "stopped by the time or replay limit, not minimal")
    return elapsed
  }
  if !row.nanos.isEmpty { row.note = outcome }
  return row
}

/// A seeded generator (SplitMix64), so that each run shrinks the same recording.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
