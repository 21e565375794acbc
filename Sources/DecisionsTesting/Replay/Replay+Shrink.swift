// Shrinking a run to a regression test: the fewest events that still show the symptom, printed as
// a `CoreTest`. The search itself is in Internal/ShrinkSearch.swift.

// NB: synchronous, on the caller's isolation, and asking no `Sendable` of the core's types: so a
// main-actor feature's replay shrinks on the main actor with its own `Equatable`.
extension Replay where C.State: Equatable, C.Decision: Equatable {
  /// Reduces the run to a 1-minimal list of events that still shows `symptom`, and prints it as a
  /// ``CoreTest`` to paste as the regression test.
  ///
  /// The search replays ever smaller sublists of the events, keeping one whenever it still shows
  /// the symptom: a binary search first finds the events that matter one by one, then delta
  /// debugging (ddmin) removes what it can until removing any single event makes the symptom go.
  /// A run that shows a step-wise symptom after *k* events is cut there, so a long recording
  /// shrinks in few replays. With `simplify`, it then tries simpler payloads for each
  /// kept event, and shrinks again whenever one keeps the symptom.
  ///
  /// ```swift
  /// let shrunk = try replay.shrink(keeping: .invariantBroken("at most one load") { ... })
  /// print(shrunk)  // 1,000 events shrunk to 4 in 44 replays, and the CoreTest
  /// ```
  /// - Parameters:
  ///   - symptom: What counts as the failure.
  ///   - simplify: Simpler versions of an event to try in its place, simplest first (an empty
  ///     text for a long one, 0 for a number). Return `[]` for an event with nothing simpler.
  ///     Offer only simpler values: the shrinker accepts any that keeps the symptom.
  ///   - replayLimit: The most replays to spend; past it, the run shrunk so far is returned and
  ///     ``ShrunkRun/isOneMinimal`` is false.
  ///   - timeLimit: The most time to spend, on a monotonic clock (`ContinuousClock`); past it, the
  ///     run shrunk so far, which shows the symptom, is returned and ``ShrunkRun/isOneMinimal`` is
  ///     false. The limit is checked before each replay, so the search can pass it by the time of
  ///     one replay, and the two replays of the final check come after it.
  /// - Returns: The shrunk run.
  /// - Throws: ``ShrinkError`` when there is nothing to shrink: no events, a symptom the whole run
  ///   does not show, or a disagreement with a recording that recorded no steps; and
  ///   ``ShrinkError/flakySymptom(symptom:events:)`` when the shrunk run, replayed twice more,
  ///   does not show the symptom both times: a symptom that shows only sometimes misleads the
  ///   search, whose every step trusts one replay.
  /// - Complexity: O(*k* log *n* + *k*²) replays for *k* events that matter among *n*, when
  ///   removing events that do not matter never makes the symptom go; O(*n*²) at worst. Each
  ///   replay runs the core once per event. A run of more than 1,024 events is shrunk by removing
  ///   chunks, largest first, replaying only the events after each: O(*k* log *n*) replays for few
  ///   events that matter, O(*n*) when most do.
  public func shrink(
    keeping symptom: Symptom<C>,
    simplify: ((C.Event) -> [C.Event])? = nil,
    replayLimit: Int = 100_000,
    timeLimit: Duration = .seconds(60)
  ) throws(ShrinkError) -> ShrunkRun<C> {
    let clock = ContinuousClock()
    let start = clock.now
    return try shrink(
      keeping: symptom, simplify: simplify, replayLimit: replayLimit, timeLimit: timeLimit,
      elapsed: { start.duration(to: clock.now) })
  }

  /// ``shrink(keeping:simplify:replayLimit:timeLimit:)`` with the time spent measured by
  /// `elapsed`: a monotonic clock's, or a test's, which advances as the test says.
  func shrink(
    keeping symptom: Symptom<C>,
    simplify: ((C.Event) -> [C.Event])?,
    replayLimit: Int,
    timeLimit: Duration,
    elapsed: @escaping () -> Duration
  ) throws(ShrinkError) -> ShrunkRun<C> {
    guard replayLimit >= 1 else { throw .invalidReplayLimit(replayLimit) }
    guard timeLimit > .zero else { throw .invalidTimeLimit(timeLimit) }
    guard !events.isEmpty else { throw .emptyRecording }
    guard let check = symptom.prepare(self) else { throw .nothingRecorded(symptom: symptom.name) }
    var search = ShrinkSearch(
      initialState: initialState, check: check, cutsFailingRuns: symptom.showsInPrefix,
      replayLimit: replayLimit, timeLimit: timeLimit, elapsed: elapsed)
    guard let whole = search.run(events) else {
      throw .symptomNotShown(symptom: symptom.name, events: count)
    }
    var current = symptom.showsInPrefix ? Array(events.prefix(whole.steps)) : events
    // Shrink; simplify; shrink again while simplifying changes something (at most 32 times), so
    // that the last pass is always a shrink, which leaves the run 1-minimal.
    var simplifications = 0
    while true {
      current = search.minimize(current)
      guard let simplify, simplifications < 32, !search.stoppedByLimit,
        let simpler = search.simplify(current, with: simplify)
      else { break }
      current = simpler
      simplifications += 1
    }
    // The search trusted each answer once. A symptom that shows only sometimes (a check or a core
    // that is not pure) can lead it to a run that does not show the symptom: so the result is
    // replayed again, twice, and must show it both times.
    let steps = DecisionsTesting.replay(C.self, from: initialState, events: current)
    let again = DecisionsTesting.replay(C.self, from: initialState, events: current)
    guard let showing = check(initialState, steps), check(initialState, again) != nil else {
      throw .flakySymptom(symptom: symptom.name, events: current.count)
    }
    return ShrunkRun(
      initialState: initialState, events: current, steps: steps, symptom: symptom.name,
      detail: showing.detail, originalCount: count,
      replays: search.replays, stoppedBy: search.stoppedBy)
  }

  /// Asserts that the run does not show `symptom`; when it does, shrinks the run and fails the test
  /// with the shrunk story, a ``CoreTest`` to paste as the regression test.
  ///
  /// Use it to keep bug reports' recordings as tests: a recording that breaks a rule fails with the
  /// few events that matter, not the thousand that were recorded.
  /// - Parameters:
  ///   - symptom: What must not happen.
  ///   - simplify: Simpler versions of an event, as for ``shrink(keeping:simplify:replayLimit:timeLimit:)``.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  public func expectNoSymptom(
    _ symptom: Symptom<C>,
    simplify: ((C.Event) -> [C.Event])? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    do {
      reportFailure(try shrink(keeping: symptom, simplify: simplify).description, at: location)
    } catch .nothingRecorded(let name) {
      reportFailure(ShrinkError.nothingRecorded(symptom: name).description, at: location)
    } catch .flakySymptom(let name, let events) {
      // NB: the whole run showed the symptom once: that fails the test, flaky or not.
      let error = ShrinkError.flakySymptom(symptom: name, events: events)
      reportFailure(error.description, at: location)
    } catch {
      return  // no events, or the run does not show the symptom: it passes
    }
  }
}

/// A run shrunk by ``Replay/shrink(keeping:simplify:replayLimit:timeLimit:)``: the fewest events that still
/// show the symptom, and the ``CoreTest`` that tells their story.
public struct ShrunkRun<C: Core> where C.State: Equatable, C.Decision: Equatable {
  /// The state the run starts from: the recording's.
  public let initialState: C.State
  /// The events that still show the symptom: removing any one of them makes it go (when
  /// ``isOneMinimal``).
  public let events: [C.Event]
  /// Each event with the state after it and its decisions, as today's core gives them.
  public let steps: [TraceStep<C>]
  /// The symptom kept, in words: `the invariant "at most one load" is broken`.
  public let symptom: String
  /// What the run shows at its end: the state or step that shows the symptom, when there is one.
  public let detail: String
  /// How many events the recording had.
  public let originalCount: Int
  /// How many runs the shrinker replayed, the whole recording's first one included.
  public let replays: Int
  /// The limit that stopped the search before it could make the run 1-minimal, or nil when it
  /// finished.
  public let stoppedBy: ShrinkLimit?

  /// Whether removing any single event makes the symptom go.
  ///
  /// It is false only when a limit (``stoppedBy``) stopped the search early; the run shows the
  /// symptom either way.
  public var isOneMinimal: Bool { stoppedBy == nil }

  /// The shrunk run as the Swift code of a ``CoreTest``, in the format ``Exploration`` prints its
  /// counterexamples: paste it into a test, where it compiles and passes as it is, then change the
  /// last step to what should happen.
  public var coreTest: String {
    coreTestStory(C.self, from: initialState, events: events)
  }
}

extension ShrunkRun: CustomStringConvertible {
  /// A report of the shrink, with the regression test.
  ///
  /// It says how far the run shrank and in how many replays, what it shows, and gives the
  /// ``coreTest``:
  ///
  /// ```
  /// Shrunk 1,000 events to 4 in 44 replays; the invariant "…" is broken.
  /// The last step leads to a state that breaks it:
  ///   …
  /// As a CoreTest (without any one of its events, the symptom goes):
  ///
  /// var test = CoreTest<Keypad>(state: …)
  /// …
  /// ```
  public var description: String {
    var lines = [
      "Shrunk \(counted(originalCount, "event")) to \(grouped(events.count)) in "
        + "\(counted(replays, "replay")); \(symptom)."
    ]
    if !detail.isEmpty { lines.append(detail) }
    let note =
      switch stoppedBy {
      case nil: "without any one of its events, the symptom goes"
      case .replays: "the replay limit stopped the search: it may not be minimal"
      case .time(let limit): "the time limit (\(limit)) stopped the search: it may not be minimal"
      }
    lines.append("As a CoreTest (\(note)):\n\n" + coreTest)
    return lines.joined(separator: "\n")
  }
}

/// What stopped a shrink before its run was 1-minimal: see ``ShrunkRun/stoppedBy``.
public enum ShrinkLimit: Equatable, Sendable {
  /// The replay limit, this many replays, was spent.
  case replays(Int)
  /// The time limit, this long, was spent.
  case time(Duration)
}

/// Why a run could not be shrunk.
public enum ShrinkError: Error, Equatable, Sendable {
  /// The recording has no events: there is nothing to shrink.
  case emptyRecording
  /// The whole recording, replayed through today's core, does not show the symptom.
  case symptomNotShown(symptom: String, events: Int)
  /// The symptom is a disagreement with the recording, and the recording kept no states or
  /// decisions to disagree with.
  case nothingRecorded(symptom: String)
  /// The replay limit is less than 1.
  case invalidReplayLimit(Int)
  /// The time limit is not positive.
  case invalidTimeLimit(Duration)
  /// The symptom showed only sometimes: the shrunk run, of `events` events, did not show it when
  /// replayed again, so no shrunk run can be trusted. The symptom's check or the core is not
  /// pure (it reads a clock, a random number or shared state).
  case flakySymptom(symptom: String, events: Int)
}

extension ShrinkError: CustomStringConvertible {
  /// What went wrong, and what to do about it.
  public var description: String {
    switch self {
    case .emptyRecording:
      "The recording has no events: there is nothing to shrink."
    case .symptomNotShown(let symptom, let events):
      "The whole recording (\(counted(events, "event"))), replayed through today's core, does not "
        + "show that \(symptom): there is nothing to shrink. The feature may have changed since "
        + "the recording was made, or the symptom may be stated wrongly."
    case .nothingRecorded(let symptom):
      "The recording kept no states or decisions, so it cannot show that \(symptom). Replay a "
        + "Journal, which records them, rather than its Recording."
    case .invalidReplayLimit(let limit):
      "The replay limit must be at least 1, not \(limit)."
    case .invalidTimeLimit(let limit):
      "The time limit must be more than zero, not \(limit)."
    case .flakySymptom(let symptom, let events):
      "The shrunk run (\(counted(events, "event"))) showed that \(symptom) during the search, "
        + "and not when it was replayed again: the symptom shows only sometimes, so no shrunk run "
        + "can be trusted. Make the symptom's check and the core pure: they must not read a "
        + "clock, a random number or shared state."
    }
  }
}

extension ShrunkRun: Sendable where C.State: Sendable, C.Event: Sendable, C.Decision: Sendable {}
