import Decisions

/// The calls and sleeps of explored doubles in a ``StoreTest`` that takes a printed path again:
/// the store's work runs on its own tasks, and the test answers each call and moves the clock.
///
/// Each call and sleep counts as a wait for the test while it waits (see
/// `WorkRegistry.TestWaits`), as a `ControlledDependency` call does, so `settle()` returns.
final class ScriptedWorld: Sendable {
  /// A call that waits for the test's answer.
  struct Call: Sendable {
    var id: UInt64
    var dependency: Int
    var text: String
    var continuation: CheckedContinuation<Int, any Error>
    var wait: WorkRegistry.TestWaits.Wait?
  }

  private struct Sleeper {
    var id: UInt64
    var deadline: Duration
    var continuation: CheckedContinuation<Void, any Error>
    var wait: WorkRegistry.TestWaits.Wait?
  }

  private struct Claimant {
    var id: UInt64
    var dependencies: Set<Int>
    var arguments: String?
    /// The id of the work whose call it wants, if it names one.
    var work: WorkID?
    var continuation: CheckedContinuation<Call, any Error>

    func wants(_ call: Call) -> Bool {
      dependencies.contains(call.dependency) && (arguments.map { $0 == call.text } ?? true)
        && (work.map { $0 == call.wait?.member.id } ?? true)
    }
  }

  private struct State {
    var now: Duration = .zero
    var calls: [Call] = []
    var sleepers: [Sleeper] = []
    var claimants: [Claimant] = []
    var lastID: UInt64 = 0

    mutating func makeID() -> UInt64 {
      lastID += 1
      return lastID
    }
  }

  private let state = Protected(State())

  /// The clock's time.
  var now: Duration { state.withLock { $0.now } }

  /// What the work of the owner of `testWaits` waits for now, by its token: the calls (the
  /// dependency's index and the arguments as text) and the sleeps (the time left).
  func waits(of testWaits: WorkRegistry.TestWaits) -> [UInt64: Waiting] {
    state.withLock { state in
      var waits: [UInt64: Waiting] = [:]
      // NB: the oldest call first, then the oldest sleep, as the explorer tells a piece of work
      // that waits for several (in child tasks).
      for call in state.calls {
        guard let member = call.wait?.member, member.testWaits === testWaits,
          waits[member.token] == nil
        else { continue }
        waits[member.token] = .call(dependency: call.dependency, text: call.text)
      }
      for sleeper in state.sleepers {
        guard let member = sleeper.wait?.member, member.testWaits === testWaits,
          waits[member.token] == nil
        else { continue }
        waits[member.token] = .deadline(sleeper.deadline - state.now)
      }
      return waits
    }
  }

  /// What a piece of work waits for in a store test.
  enum Waiting {
    case call(dependency: Int, text: String)
    case deadline(Duration)
  }

  /// Waits until the test answers the call, and returns the sample it chose.
  func call(_ dependency: Int, text: String) async throws -> Int {
    let id = state.withLock { $0.makeID() }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let call = Call(
          id: id, dependency: dependency, text: text, continuation: continuation,
          wait: WorkRegistry.TestWaits.beginWait())
        let claimant = state.withLock { state -> Claimant? in
          if let index = state.claimants.firstIndex(where: { $0.wants(call) }) {
            return state.claimants.remove(at: index)
          }
          state.calls.append(call)
          return nil
        }
        claimant?.continuation.resume(returning: call)
        if Task.isCancelled { cancel(id) }
      }
    } onCancel: {
      cancel(id)
    }
  }

  /// Waits until the clock reaches `deadline`.
  func sleep(until deadline: Duration) async throws {
    let id = state.withLock { $0.makeID() }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let ready = state.withLock { state -> Bool in
          guard deadline > state.now else { return true }
          state.sleepers.append(
            Sleeper(
              id: id, deadline: deadline, continuation: continuation,
              wait: WorkRegistry.TestWaits.beginWait()))
          return false
        }
        if ready { continuation.resume() }
        if Task.isCancelled { cancel(id) }
      }
    } onCancel: {
      cancel(id)
    }
  }

  /// Ends the call or sleep `id` with `CancellationError`, if it waits.
  private func cancel(_ id: UInt64) {
    let ended = state.withLock { state -> (Call?, Sleeper?) in
      if let index = state.calls.firstIndex(where: { $0.id == id }) {
        return (state.calls.remove(at: index), nil)
      }
      if let index = state.sleepers.firstIndex(where: { $0.id == id }) {
        return (nil, state.sleepers.remove(at: index))
      }
      return (nil, nil)
    }
    if let call = ended.0 {
      call.wait?.end()
      call.continuation.resume(throwing: CancellationError())
    }
    if let sleeper = ended.1 {
      sleeper.wait?.end()
      sleeper.continuation.resume(throwing: CancellationError())
    }
  }

  /// Takes the oldest waiting call of one of `dependencies` (with `arguments`, and made by the
  /// work with id `work`, if given), waiting for one if none waits yet.
  func claim(dependencies: Set<Int>, arguments: String?, work: WorkID?) async throws -> Call {
    let id = state.withLock { $0.makeID() }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let claimant = Claimant(
          id: id, dependencies: dependencies, arguments: arguments, work: work,
          continuation: continuation)
        let found = state.withLock { state -> Call? in
          if let index = state.calls.firstIndex(where: { claimant.wants($0) }) {
            return state.calls.remove(at: index)
          }
          state.claimants.append(claimant)
          return nil
        }
        if let found { continuation.resume(returning: found) }
      }
    } onCancel: {
      let claimant = state.withLock { state -> Claimant? in
        state.claimants.firstIndex { $0.id == id }.map { state.claimants.remove(at: $0) }
      }
      claimant?.continuation.resume(throwing: CancellationError())
    }
  }

  // NB: one at a time, each after its store has settled what the one before woke, as
  // `TestClock.advance` does: resumed together, two pieces of work that wake at one instant raced
  // to the store, and a printed test received their events in either order.
  /// Moves the clock and wakes the sleeps whose deadlines it reached, earliest first (in the order
  /// their work started, for one deadline), including those that begin while it advances.
  func advance(by duration: Duration) async {
    let target = state.withLock { $0.now + duration }
    // NB: for one deadline, in the order the work started (its token in the store), then in the
    // order the sleeps began: pieces of work started by one event run at once in a store, and
    // which sleeps first is a race; the explorer runs them in the order they started.
    func precedes(_ one: Sleeper, _ other: Sleeper) -> Bool {
      (one.deadline, one.wait?.member.token ?? .max, one.id)
        < (other.deadline, other.wait?.member.token ?? .max, other.id)
    }
    while let sleeper = state.withLock({ state -> Sleeper? in
      var next: Int?
      for (index, sleeper) in state.sleepers.enumerated() where sleeper.deadline <= target {
        if next.map({ precedes(sleeper, state.sleepers[$0]) }) ?? true { next = index }
      }
      guard let next else {
        state.now = max(state.now, target)
        return nil
      }
      let sleeper = state.sleepers.remove(at: next)
      state.now = max(state.now, sleeper.deadline)
      return sleeper
    }) {
      let testWaits = sleeper.wait?.testWaits
      sleeper.wait?.end()
      sleeper.continuation.resume()
      if let testWaits { await testWaits.settleOwner() }
    }
  }
}
