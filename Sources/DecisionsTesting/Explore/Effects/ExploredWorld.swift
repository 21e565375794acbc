import Decisions

/// What the explored work waits for at one moment: the calls of explored dependencies that wait
/// for an answer, and the sleeps on the explored clock, with the clock's time.
///
/// Used only on the explorer's thread (see `ExplorePump`).
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
  var now: Duration
  /// The calls waiting, oldest first.
  var calls: [Call] = []
  /// The sleeps waiting, oldest first.
  var sleepers: [Sleeper] = []
  private var lastID: UInt64 = 0

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
    calls.remove(at: index).continuation.resume(returning: sample)
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
    for sleeper in woken { sleeper.continuation.resume() }
  }
}
