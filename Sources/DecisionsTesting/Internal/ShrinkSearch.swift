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
struct ShrinkSearch<C: Core & SendableMetatype>
where C.State: Sendable, C.Event: Sendable, C.Decision: Sendable {
  /// The state every candidate run starts from.
  let initialState: C.State
  /// Where a run shows the symptom.
  let check: Symptom<C>.Check
  /// Whether a failing run may be cut after the step that shows the symptom.
  let cutsFailingRuns: Bool
  /// The most replays to spend.
  let replayLimit: Int
  /// The replays spent so far.
  private(set) var replays = 0
  /// Whether a replay was refused because the limit was reached.
  private(set) var stoppedByLimit = false

  init(
    initialState: C.State, check: @escaping Symptom<C>.Check, cutsFailingRuns: Bool,
    replayLimit: Int
  ) {
    self.initialState = initialState
    self.check = check
    self.cutsFailingRuns = cutsFailingRuns
    self.replayLimit = replayLimit
  }

  /// Replays `events` and returns what the run shows, or nil when it does not show the symptom
  /// (or the replay limit is reached).
  mutating func run(_ events: [C.Event]) -> Symptom<C>.Showing? {
    guard replays < replayLimit else {
      stoppedByLimit = true
      return nil
    }
    replays += 1
    return check(initialState, replay(C.self, from: initialState, events: events))
  }

  /// How many of `events` a failing run keeps: the prefix that shows the symptom, or all of them.
  private func kept(_ showing: Symptom<C>.Showing, of count: Int) -> Int {
    cutsFailingRuns ? min(showing.steps, count) : count
  }

  /// Reduces `events`, which show the symptom, to a 1-minimal sublist that still shows it.
  mutating func minimize(_ events: [C.Event]) -> [C.Event] {
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
