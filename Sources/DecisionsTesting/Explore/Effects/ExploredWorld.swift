import Decisions

/// What the explored work waits for at one moment: the calls of explored dependencies that wait
/// for an answer, and the sleeps on the explored clock, with the clock's time.
///
/// Used only on the explorer's thread (see `ExplorePump`).
// NB: unchecked exclusivity here, and on the explorer's other classes (`ExploredEffects`,
// `Runner`, `SteppedLoop`): used on one thread, one access at a time, where the dynamic checks
// cost a thirtieth of bench row 13e.
final class ExploredWorld: @unchecked Sendable {
  /// A call of an explored dependency, waiting for the explorer's answer.
  struct Call {
    var id: UInt64
    /// The dependency's index in `ExploredEffects.dependencies`.
    var dependency: Int
    /// The token of the work that called, if a piece of work did.
    var token: UInt64?
    /// The arguments' number: equal arguments of one dependency have one (for telling states
    /// apart).
    var arguments: Int
    /// Describes the arguments as the paths print them: called when the explorer takes a
    /// snapshot or lists the choices, not on each call of the steps it runs again.
    var describe: @Sendable () -> String
    /// The arguments, as the paths print them.
    var text: String { describe() }
    var continuation: UnsafeContinuation<Int, any Error>
  }

  /// A sleep on the explored clock, waiting for its deadline.
  struct Sleeper {
    var id: UInt64
    var token: UInt64?
    var deadline: Duration
    var continuation: UnsafeContinuation<Void, any Error>
  }

  /// The clock's time.
  @exclusivity(unchecked) var now: Duration
  /// The calls waiting, oldest first.
  @exclusivity(unchecked) var calls: [Call] = []
  /// An answer a piece of work got: the call's dependency, arguments' number and the sample, and
  /// the id the answer was given at (ids come in order: a call or sleep made later has a larger
  /// one).
  struct Answer: Hashable {
    var dependency: Int
    var arguments: Int
    var sample: Int
    var at: UInt64
  }
  /// The answers each piece of work got, by its token, oldest first.
  @exclusivity(unchecked) var answers: [UInt64: [Answer]] = [:]
  /// The sleeps waiting, oldest first.
  @exclusivity(unchecked) var sleepers: [Sleeper] = []
  /// When each piece of work first waited, by its token: the time it started at.
  @exclusivity(unchecked) var began: [UInt64: Duration] = [:]
  /// The pieces of work that an answer or a deadline moved on, by token.
  @exclusivity(unchecked) var resumed: Set<UInt64> = []
  @exclusivity(unchecked) private var lastID: UInt64 = 0

  init(now: Duration) {
    self.now = now
  }

  func makeID() -> UInt64 {
    lastID += 1
    return lastID
  }

  /// Ends the call or sleep with `id`, if it still waits, with `CancellationError`.
  func cancel(_ id: UInt64) {
    if let index = calls.firstIndex(where: { $0.id == id }) {
      calls.remove(at: index).continuation.resume(throwing: CancellationError())
    } else if let index = sleepers.firstIndex(where: { $0.id == id }) {
      sleepers.remove(at: index).continuation.resume(throwing: CancellationError())
    }
  }

  /// Answers call number `index` with sample `sample`.
  func answer(_ index: Int, sample: Int) {
    let call = calls.remove(at: index)
    if let token = call.token {
      resumed.insert(token)
      answers[token, default: []].append(
        Answer(
          dependency: call.dependency, arguments: call.arguments, sample: sample, at: makeID()))
    }
    call.continuation.resume(returning: sample)
  }

  // NB: a piece of work that waits for two calls at once (`async let`) keeps the answer of the
  // first until the second comes: the moments after answers 1 and 2 of the first call differ,
  // though the state and the waits do not show it. An answer given before the work's oldest
  // wait began was followed by a new wait, which is where a work shows what it got (a send, a
  // new call): it is not kept.
  /// The answers the work with `token` got since the oldest of the waits it has now began, which
  /// it may still keep to itself; it forgets the older ones.
  func keptAnswers(of token: UInt64, since began: UInt64) -> [Answer] {
    guard var list = answers[token] else { return [] }
    list.removeAll { $0.at < began }
    answers[token] = list.isEmpty ? nil : list
    return list
  }

  /// The calls and sleeps waiting, by id and the token of the work that waits, and the clock's
  /// time: what a step taken back must leave as it found it.
  struct Mark: Equatable {
    struct Wait: Equatable {
      var id: UInt64
      var token: UInt64?
    }
    var now: Duration
    var calls: [Wait]
    var sleepers: [Wait]
  }

  /// Whether the clock and the waits now are those of `mark`, both leaving out the waits of the
  /// work with `tokens`.
  // NB: compared in place: the marks left out as arrays cost four arrays per step taken back.
  func matches(_ mark: Mark, leavingOut tokens: [UInt64]) -> Bool {
    now == mark.now
      && Self.matches(calls.lazy.map { Mark.Wait(id: $0.id, token: $0.token) }, mark.calls, tokens)
      && Self.matches(
        sleepers.lazy.map { Mark.Wait(id: $0.id, token: $0.token) }, mark.sleepers, tokens)
  }

  private static func matches(
    _ waits: some Sequence<Mark.Wait>, _ marked: [Mark.Wait], _ tokens: [UInt64]
  ) -> Bool {
    func isLeftOut(_ wait: Mark.Wait) -> Bool { wait.token.map(tokens.contains) ?? false }
    var index = 0
    for wait in waits where !isLeftOut(wait) {
      while index < marked.count, isLeftOut(marked[index]) { index += 1 }
      guard index < marked.count, marked[index] == wait else { return false }
      index += 1
    }
    while index < marked.count, isLeftOut(marked[index]) { index += 1 }
    return index == marked.count
  }

  /// The world's mark now.
  var mark: Mark {
    Mark(
      now: now, calls: calls.map { Mark.Wait(id: $0.id, token: $0.token) },
      sleepers: sleepers.map { Mark.Wait(id: $0.id, token: $0.token) })
  }

  // NB: the order of the waits is the order the explorer lists the calls' answers in, and wakes
  // sleeps with one deadline in: work started again makes its waits last.
  /// Puts the waits of the work with `tokens`, made again, where that work's waits were in `mark`.
  func restoreOrder(as mark: Mark, of tokens: [UInt64]) {
    calls = Self.reordered(calls, as: mark.calls, of: tokens) {
      Mark.Wait(id: $0.id, token: $0.token)
    }
    sleepers = Self.reordered(sleepers, as: mark.sleepers, of: tokens) {
      Mark.Wait(id: $0.id, token: $0.token)
    }
  }

  private static func reordered<Waiting>(
    _ waits: [Waiting], as marked: [Mark.Wait], of tokens: [UInt64],
    _ wait: (Waiting) -> Mark.Wait
  ) -> [Waiting] {
    guard waits.contains(where: { wait($0).token.map(tokens.contains) ?? false }) else {
      return waits
    }
    var result: [Waiting] = []
    result.reserveCapacity(waits.count)
    var placed = Set<UInt64>()
    for old in marked {
      let isMadeAgain = old.token.map(tokens.contains) ?? false
      let match = waits.first { candidate in
        let new = wait(candidate)
        guard !placed.contains(new.id) else { return false }
        return isMadeAgain ? new.token == old.token : new.id == old.id
      }
      if let match {
        result.append(match)
        placed.insert(wait(match).id)
      }
    }
    for candidate in waits where !placed.contains(wait(candidate).id) { result.append(candidate) }
    return result
  }

  /// Whether the work with `token` waits for a call or a deadline.
  func waits(_ token: UInt64) -> Bool {
    calls.contains { $0.token == token } || sleepers.contains { $0.token == token }
  }

  /// Records that the work with `token` waits, if it had not waited before.
  func noteWait(of token: UInt64?) {
    if let token, began[token] == nil { began[token] = now }
  }

  /// Whether no call and no sleep waits.
  var isEmpty: Bool { calls.isEmpty && sleepers.isEmpty }

  /// The earliest deadline a sleep waits for, if any.
  var nextDeadline: Duration? {
    sleepers.lazy.map(\.deadline).min()
  }

  /// Moves the clock to the earliest deadline and wakes the sleeps that wait for it.
  func advance() {
    guard let deadline = nextDeadline else { return }
    now = deadline
    var woken: [Sleeper] = []
    sleepers.removeAll { sleeper in
      guard sleeper.deadline <= deadline else { return false }
      woken.append(sleeper)
      return true
    }
    for sleeper in woken {
      if let token = sleeper.token { resumed.insert(token) }
      sleeper.continuation.resume()
    }
  }
}
