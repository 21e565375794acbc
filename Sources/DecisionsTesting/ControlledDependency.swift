import Decisions

/// A dependency that a test answers by hand: each call waits until the test answers it, fails it, or
/// never does.
///
/// Use it for a `Deps` closure whose timing a store test must control — to hold a load open while
/// more events arrive, to answer two loads in the opposite order, to check what happens when the
/// answer never comes — with no sleeps and no expectations:
///
/// ```swift
/// let load = ControlledDependency<Int, String>()
/// let test = StoreTest<Facts>(state: .init(), deps: .init(loadFact: { try await load($0) }))
/// await test.send(.tapped(7))
/// let call = try await load.nextCall()  // returns once the store's work has called the dep
/// #expect(call.arguments == 7)
/// call.answer("7 is prime.")
/// await test.settle()
/// ```
///
/// A call that is never answered waits until its task is cancelled (the store cancels or replaces
/// the work, or stops), and then throws `CancellationError`.
public final class ControlledDependency<Arguments: Sendable, Value: Sendable>: Sendable {
  private struct State {
    /// Calls that no `nextCall()` has returned yet, oldest first.
    var unclaimed: [Call] = []
    /// Tests waiting in `nextCall()` for a call, oldest first.
    var claimants: [(id: UInt64, continuation: CheckedContinuation<Call, any Error>)] = []
    var lastClaimantID: UInt64 = 0
    var callCount = 0
    /// The answers for the next calls, given in advance, oldest first.
    var answers: [Value] = []
  }

  private let state = Protected(State())

  /// Creates a dependency that no one has called yet.
  /// - Parameter answers: Answers for the first calls, in order: each of these calls returns at
  ///   once, and only the calls after them wait for the test. For work that asks for one value after
  ///   another, such as a subscription, so that ``perform(_:of:deps:)`` can collect what it sends.
  public init(answers: [Value] = []) {
    WorkRegistry.TestWaits.startTracking()
    state.withLock { $0.answers = answers }
  }

  /// How many times the dependency was called.
  public var callCount: Int {
    state.withLock { $0.callCount }
  }

  /// Calls the dependency: records `arguments` and waits until the test answers the call.
  ///
  /// Use it as the dependency's closure: `loadFact: { try await load($0) }`.
  /// - Parameter arguments: The arguments of the call, for the test to check.
  /// - Throws: The error the test fails the call with, or `CancellationError` if the calling task
  ///   is cancelled first.
  /// - Returns: The value the test answers the call with.
  public func callAsFunction(_ arguments: Arguments) async throws -> Value {
    let answer = state.withLock { state -> Value? in
      guard !state.answers.isEmpty else { return nil }
      state.callCount += 1
      return state.answers.removeFirst()
    }
    if let answer { return answer }
    let call = Call(arguments: arguments)
    // NB: the cancellation handler is in place before the call is recorded, so once `nextCall()`
    // has handed the call out, cancelling the calling task ends the call at once. Installed after,
    // it left a moment in which the task was cancelled and the call still waited.
    return try await withTaskCancellationHandler {
      // NB: the wait begins under the lock, with the call recorded: once the store counts its work
      // as waiting, `callCount` and `nextCall()` see the call.
      let claimant = state.withLock { state -> CheckedContinuation<Call, any Error>? in
        call.beginWait()
        state.callCount += 1
        guard !state.claimants.isEmpty else {
          state.unclaimed.append(call)
          return nil
        }
        return state.claimants.removeFirst().continuation
      }
      claimant?.resume(returning: call)
      return try await call.result()
    } onCancel: {
      call.cancel()
    }
  }

  /// Returns the oldest call that no earlier `nextCall()` returned, waiting for one if there is none.
  /// - Throws: `CancellationError` if the waiting task is cancelled (a test's time limit, say).
  /// - Returns: The call, for the test to check its arguments and answer it.
  public func nextCall() async throws -> Call {
    let id = state.withLock { state -> UInt64 in
      state.lastClaimantID += 1
      return state.lastClaimantID
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        // NB: decided under the lock, so that this and the cancellation handler never both resume.
        let decision = state.withLock { state -> Claim in
          if !state.unclaimed.isEmpty { return .call(state.unclaimed.removeFirst()) }
          if Task.isCancelled { return .cancelled }
          state.claimants.append((id, continuation))
          return .waiting
        }
        switch decision {
        case .call(let call): continuation.resume(returning: call)
        case .cancelled: continuation.resume(throwing: CancellationError())
        case .waiting: break
        }
      }
    } onCancel: {
      let continuation = state.withLock { state in
        state.claimants.firstIndex { $0.id == id }.map {
          state.claimants.remove(at: $0).continuation
        }
      }
      continuation?.resume(throwing: CancellationError())
    }
  }

  /// What `nextCall()` found.
  private enum Claim {
    case call(Call)
    case cancelled
    case waiting
  }

  /// One call of a ``ControlledDependency``, waiting for the test to answer it.
  public final class Call: Sendable {
    private enum Outcome {
      case waiting(CheckedContinuation<Value, any Error>?)
      case answered(Result<Value, any Error>)
      case cancelled
    }

    /// Where the call is, and the wait of the store's work that made it, if it did: the wait ends
    /// when the call stops waiting.
    private struct Status {
      var outcome = Outcome.waiting(nil)
      var wait: WorkRegistry.TestWaits.Wait?
    }

    /// The arguments the dependency was called with.
    public let arguments: Arguments
    private let status = Protected(Status())

    init(arguments: Arguments) {
      self.arguments = arguments
    }

    /// Answers the call: the dependency returns `value`.
    ///
    /// Answering a call twice, or one whose task was cancelled, does nothing.
    public func answer(_ value: Value) {
      finish(.success(value))
    }

    /// Fails the call: the dependency throws `error`.
    ///
    /// Failing a call that was answered, or whose task was cancelled, does nothing.
    public func fail(_ error: any Error) {
      finish(.failure(error))
    }

    /// Whether the call is still waiting for an answer.
    public var isWaiting: Bool {
      status.withLock { status in
        if case .waiting = status.outcome { return true }
        return false
      }
    }

    /// Counts the calling work as waiting for the test, unless the call has already ended.
    ///
    /// A call ends before it waits when its task was cancelled before it called. Call this on the
    /// calling task.
    func beginWait() {
      status.withLock { status in
        guard case .waiting = status.outcome else { return }
        status.wait = WorkRegistry.TestWaits.beginWait()
      }
    }

    private func finish(_ result: Result<Value, any Error>) {
      end(with: .answered(result))?.resume(with: result)
    }

    /// Ends the call because its task was cancelled.
    func cancel() {
      end(with: .cancelled)?.resume(throwing: CancellationError())
    }

    /// Ends a waiting call with `outcome`, and returns the continuation to resume, if the caller
    /// already waits.
    private func end(with outcome: Outcome) -> CheckedContinuation<Value, any Error>? {
      status.withLock { status in
        guard case .waiting(let continuation) = status.outcome else { return nil }
        status.outcome = outcome
        status.wait?.end()
        status.wait = nil
        return continuation
      }
    }

    /// Waits for the test's answer, or for the calling task to be cancelled (through the handler
    /// that ``ControlledDependency/callAsFunction(_:)`` installs).
    func result() async throws -> Value {
      try await withCheckedThrowingContinuation { continuation in
        let ready = status.withLock { status -> Result<Value, any Error>? in
          switch status.outcome {
          case .answered(let result): return result
          case .cancelled: return .failure(CancellationError())
          case .waiting:
            status.outcome = .waiting(continuation)
            return nil
          }
        }
        if let ready { continuation.resume(with: ready) }
      }
    }
  }
}

extension ControlledDependency where Arguments == Void {
  /// Calls a dependency without arguments and waits until the test answers the call.
  ///
  /// Use it as the dependency's closure: `loadFact: { try await load() }`.
  /// - Throws: The error the test fails the call with, or `CancellationError` if the calling task
  ///   is cancelled first.
  /// - Returns: The value the test answers the call with.
  public func callAsFunction() async throws -> Value {
    try await self(())
  }
}
