import Decisions

// Delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating Failure-Inducing Input",
// 2002), after a binary search that finds the events that matter one by one, with two changes that
// a core's runs allow:
//
// - A run that shows a symptom after *k* events shows it whatever follows (for invariants and
//   disagreements: the run is cut there). So each failing candidate is cut to the prefix that
//   fails, which skips most of ddmin's rounds on a long recording.
// - Each candidate's answer is kept, by the indices of the events it keeps, so no candidate is
//   replayed twice within one minimization.
//
// The result is 1-minimal: ddmin ends only when the granularity is one event per chunk and
// removing any one event makes the symptom go (or when the replay limit stops it, which the
// result says).

/// The state of one shrink: the symptom's check, and the replays spent.
struct ShrinkSearch<C: Core> {
  /// The state every candidate run starts from.
  let initialState: C.State
  /// Where a run shows the symptom.
  let check: Symptom<C>.Check
  /// Whether a failing run may be cut after the step that shows the symptom.
  let cutsFailingRuns: Bool
  /// The most replays to spend.
  let replayLimit: Int
  /// The most time to spend, as `elapsed` measures it.
  let timeLimit: Duration
  /// The time spent since the search began: a monotonic clock's, or a test's.
  let elapsed: () -> Duration
  /// The replays spent so far.
  private(set) var replays = 0
  /// The limit that refused a replay, if one did.
  private(set) var stoppedBy: ShrinkLimit?

  /// Runs longer than this many events are first shrunk by removing chunks (see
  /// `removeChunks(_:)`), which needs no memory per candidate and replays only what follows each
  /// chunk.
  static var longRun: Int { 1_024 }

  init(
    initialState: C.State, check: @escaping Symptom<C>.Check, cutsFailingRuns: Bool,
    replayLimit: Int, timeLimit: Duration = .seconds(60),
    elapsed: @escaping () -> Duration = { .zero }
  ) {
    self.initialState = initialState
    self.check = check
    self.cutsFailingRuns = cutsFailingRuns
    self.replayLimit = replayLimit
    self.timeLimit = timeLimit
    self.elapsed = elapsed
  }

  /// Whether a limit stopped the search.
  var stoppedByLimit: Bool { stoppedBy != nil }

  /// Counts a replay, or returns false when a limit refuses it.
  private mutating func mayReplay() -> Bool {
    if stoppedBy != nil { return false }
    if replays >= replayLimit {
      stoppedBy = .replays(replayLimit)
      return false
    }
    if elapsed() >= timeLimit {
      stoppedBy = .time(timeLimit)
      return false
    }
    replays += 1
    return true
  }

  /// Replays `events` and returns what the run shows, or nil when it does not show the symptom
  /// (or a limit is reached).
  mutating func run(_ events: [C.Event]) -> Symptom<C>.Showing? {
    guard mayReplay() else { return nil }
    return check(initialState, replay(C.self, from: initialState, events: events))
  }

  /// Replays `tail` after the run whose steps are `head`, and returns what the whole run shows
  /// and the tail's steps; nil when a limit is reached.
  ///
  /// For a symptom that shows in a prefix, only the tail is checked, from the state the head ends
  /// in: the caller knows that the head does not show the symptom, and each such check gives the
  /// same answer for a run's tail, counted from there, as for the whole run.
  private mutating func runTail(
    after head: ArraySlice<TraceStep<C>>, _ tail: ArraySlice<C.Event>
  ) -> (showing: Symptom<C>.Showing?, steps: [TraceStep<C>])? {
    guard mayReplay() else { return nil }
    let start = head.last?.state ?? initialState
    let steps = replay(C.self, from: start, events: tail)
    guard cutsFailingRuns else { return (check(initialState, Array(head) + steps), steps) }
    let showing = check(start, steps).map {
      Symptom<C>.Showing(steps: head.count + $0.steps, detail: $0.detail)
    }
    return (showing, steps)
  }

  /// Shrinks a long run by removing chunks of events, halving their size from half the run down
  /// to one event, and then single events until none can go: a 1-minimal run unless a limit stops
  /// it, when it returns the shortest run found that shows the symptom.
  ///
  /// Each level goes from the run's end to its start, so a chunk's removal leaves the steps
  /// before it as they were: only the events after the chunk are replayed, from the state the
  /// kept steps end in. Nothing is kept per candidate, so memory stays that of one run. For *k*
  /// events that matter among *n*, a level tries at most 2*k* chunks once the levels above have
  /// removed the rest: O(*k* log *n*) replays when *k* is small, O(*n*) when most events matter.
  /// - Parameter events: A run that shows the symptom (at its last step, when failing runs are
  ///   cut).
  /// - Returns: The shrunk run, which shows the symptom.
  mutating func removeChunks(_ events: [C.Event]) -> [C.Event] {
    var current = events
    guard let (first, firstSteps) = runTail(after: [], current[...]), first != nil else {
      return current
    }
    var steps = firstSteps
    // NB: a run cut at the step that shows the symptom needs its last event.
    let needed = cutsFailingRuns ? 1 : 0
    var size = max(1, (current.count - needed) / 2)
    while !stoppedByLimit {
      var tries = 0
      var removed = 0
      var end = current.count - needed
      while end > 0 && !stoppedByLimit {
        let start = max(0, end - size)
        guard let (showing, tailSteps) = runTail(after: steps[..<start], current[end...]) else {
          break
        }
        tries += 1
        if let showing {
          removed += 1
          current.removeSubrange(start..<end)
          steps.replaceSubrange(start..., with: tailSteps)
          let kept = min(showing.steps, current.count)
          if cutsFailingRuns && kept < current.count {
            current.removeSubrange(kept...)
            steps.removeSubrange(kept...)
          }
        }
        end = min(start, current.count - needed)
      }
      // Single events again until a pass removes none: each was then tried on the final run.
      if size == 1 {
        if removed == 0 { break }
        continue
      }
      // Halve the chunks, as ddmin does, when at least a quarter of them could go. Fewer say that
      // the events that matter are denser than one a chunk, and a level of chunks too large to go
      // costs a replay each and removes nothing. A chunk of size s goes with probability
      // r = (1 − d)^s for a density d, and one of half the size with probability √r: so the size
      // is halved until the rate, r taken to the root, is at least a half. No chunk that could
      // go counts as half of one, so that an empty level does not end the halving.
      var rate = (Double(max(removed * 2, 1)) / Double(max(tries * 2, 1))).squareRoot()
      size /= 2
      while rate < 0.5 && size > 1 {
        size /= 2
        rate = rate.squareRoot()
      }
    }
    return current
  }

  /// How many of `events` a failing run keeps: the prefix that shows the symptom, or all of them.
  private func kept(_ showing: Symptom<C>.Showing, of count: Int) -> Int {
    cutsFailingRuns ? min(showing.steps, count) : count
  }

  /// Reduces `events`, which show the symptom, to a 1-minimal sublist that still shows it.
  ///
  /// A long run is shrunk by `removeChunks(_:)`; a short one by pinning and ddmin, which keep each
  /// candidate's answer.
  mutating func minimize(_ events: [C.Event]) -> [C.Event] {
    if events.count > Self.longRun { return removeChunks(events) }
    var answers: [[Int]: Int?] = [:]
    /// The candidate, cut to the prefix that fails, if it fails.
    func failing(_ candidate: [Int]) -> [Int]? {
      let length: Int?
      if let known = answers[candidate] {
        length = known
      } else {
        let showing = run(candidate.map { events[$0] })
        if stoppedByLimit { return nil }
        length = showing.map { kept($0, of: candidate.count) }
        answers[candidate] = length
      }
      return length.map { Array(candidate.prefix($0)) }
    }

    /// Finds the events a failing run needs, one after another, each by a binary search, and returns
    /// them: O(*k* log *n*) replays for *k* events that matter among *n*.
    ///
    /// The first event needed is at the largest *i* such that the run without its first *i* events
    /// still fails; it is kept (pinned), and the search goes on among the events after it, with the
    /// pinned ones in front, until the pinned events fail on their own. When removing events that do
    /// not matter never makes the failure go (as for "these four events, in order, with anything in
    /// between"), each pinned event is needed; when it does, the result still fails (each list it
    /// keeps was replayed and failed) and ddmin, which runs next, makes it 1-minimal.
    /// - Parameter run: A failing run, as indices, that the empty run does not fail.
    func pinByBinarySearch(_ run: [Int]) -> [Int] {
      var pinned: [Int] = []
      var rest = run[...]
      while !rest.isEmpty && !stoppedByLimit {
        // `pinned + rest[lower...]` fails; `pinned + rest[upper...]` does not.
        var lower = rest.startIndex
        var upper = rest.endIndex
        while upper - lower > 1 {
          let middle = lower + (upper - lower) / 2
          guard let cut = failing(pinned + rest[middle...]) else {
            if stoppedByLimit { return pinned + rest }
            upper = middle
            continue
          }
          lower = middle
          // A run cut short needs none of the events after its cut.
          let keptOfRest = cut.count - pinned.count
          if keptOfRest <= 0 { return cut }
          rest = rest[..<(middle + keptOfRest)]
          upper = min(upper, rest.endIndex)
        }
        pinned.append(rest[lower])
        rest = rest[(lower + 1)...]
        if let done = failing(pinned) { return done }
      }
      return pinned + rest
    }

    if let none = failing([]) { return none.map { events[$0] } }
    var current = pinByBinarySearch(Array(events.indices))
    var granularity = 2
    while current.count >= 2 && !stoppedByLimit {
      granularity = min(granularity, current.count)
      let chunks = chunked(current, into: granularity)
      var reduced: [Int]?
      // Reduce to a chunk, then to a complement; the complements of two chunks are the chunks.
      for chunk in chunks {
        if let smaller = failing(chunk) {
          reduced = smaller
          granularity = 2
          break
        }
      }
      if reduced == nil && granularity > 2 {
        for skipped in chunks.indices {
          let complement = chunks.indices.filter { $0 != skipped }.flatMap { chunks[$0] }
          if let smaller = failing(complement) {
            reduced = smaller
            granularity = max(granularity - 1, 2)
            break
          }
        }
      }
      if let reduced {
        current = reduced
      } else if granularity >= current.count {
        break  // one event per chunk, and removing any one of them makes the symptom go
      } else {
        granularity = min(granularity * 2, current.count)
      }
    }
    return current.map { events[$0] }
  }

  /// Replaces events by simpler ones that keep the symptom, one position at a time, trying the
  /// candidates `simplify` offers in order; returns nil when none could be replaced.
  ///
  /// An event that was replaced is simplified again, up to `limit` times per position, so a long
  /// text loses one character after another in one pass. A candidate that prints as the event is
  /// skipped, and the limit stops a `simplify` that leads back to an event it replaced.
  mutating func simplify(
    _ events: [C.Event], with simplify: (C.Event) -> [C.Event], limit: Int = 256
  ) -> [C.Event]? {
    var current = events
    var changed = false
    var position = 0
    var replaced = 0
    while position < current.count && !stoppedByLimit {
      var simpler = false
      // NB: events need not be Equatable; their printed form tells a candidate that is the event
      // itself, which would otherwise be accepted for ever.
      let printed = describe(current[position])
      for candidate in simplify(current[position])
      where replaced < limit && describe(candidate) != printed {
        var trial = current
        trial[position] = candidate
        if let showing = run(trial) {
          current = Array(trial.prefix(kept(showing, of: trial.count)))
          changed = true
          simpler = true
          replaced += 1
          break
        }
      }
      if !simpler {
        position += 1
        replaced = 0
      }
    }
    return changed ? current : nil
  }
}

/// Splits `items` into `count` chunks of nearly equal size, in order.
func chunked(_ items: [Int], into count: Int) -> [[Int]] {
  (0..<count).map { chunk in
    Array(items[(items.count * chunk / count)..<(items.count * (chunk + 1) / count)])
  }
}
