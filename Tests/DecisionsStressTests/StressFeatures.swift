import Foundation
import Synchronization
import TestSupport

@testable import Decisions

/// How much harder than the default to push the stress tests.
///
/// `DECISIONS_STRESS_SCALE=10 swift test --filter Stress` soaks for longer. CI runs the default,
/// under ThreadSanitizer too.
let stressScale = max(
  1, ProcessInfo.processInfo.environment["DECISIONS_STRESS_SCALE"].flatMap(Int.init) ?? 1)

/// Whether the tests run under a sanitizer: `.ci/run` sets `DECISIONS_SANITIZER` for its
/// ThreadSanitizer and AddressSanitizer runs, where the longest loops of ``StoreOrderingTests`` run
/// a fifth or a tenth as many events, with as many senders at once.
let underSanitizer = ProcessInfo.processInfo.environment["DECISIONS_SANITIZER"] != nil

/// Long work on demand: keyed, unkeyed, spawning more work, and results that add to a count.
enum Worker: Feature {
  struct State: Equatable, Sendable {
    var results = 0
    var total = 0
  }

  enum Event: Equatable, Sendable {
    /// Starts work keyed `key` (unkeyed when nil) that waits on the dep, then adds `value`.
    case start(key: Int?, value: Int)
    /// Starts work that sends `.spawn` twice with `depth - 1`, down to 0: a tree of work.
    case spawn(depth: Int)
    /// Cancels all work.
    case cancelAll
    /// The result of work.
    case add(Int)
  }

  enum Decision: Equatable, Sendable {
    case start(key: Int?, value: Int)
    case spawn(depth: Int)
    case cancelAll
  }

  struct Deps: Sendable {
    /// What work waits on before it sends its result.
    var wait: @Sendable () async -> Void = {}
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start(let key, let value): return [.start(key: key, value: value)]
    case .spawn(let depth):
      state.results += 1
      return depth > 0 ? [.spawn(depth: depth - 1)] : []
    case .cancelAll: return [.cancelAll]
    case .add(let value):
      state.results += 1
      state.total += value
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .start(let key, let value):
      let operation: @Sendable (Send<Event>) async throws -> Void = { send in
        await deps.wait()
        await send(.add(value))
      }
      if let key {
        effects.run(id: key, operation: operation)
      } else {
        effects.run(operation: operation)
      }
    case .spawn(let depth):
      effects.run { send in
        async let left: Void = send(.spawn(depth: depth))
        async let right: Void = send(.spawn(depth: depth))
        _ = await (left, right)
      }
    case .cancelAll: effects.cancelAll()
    }
  }
}

/// Counts down to zero; `wait()` returns once it has: a deterministic "all N things happened".
final class Countdown: Sendable {
  private let remaining: Protected<Int>
  private let done = Gate()

  init(_ count: Int) {
    remaining = Protected(count)
    if count <= 0 { done.open() }
  }

  /// Counts one down.
  func tick() {
    let isZero = remaining.withLock { remaining in
      remaining -= 1
      return remaining == 0
    }
    if isZero { done.open() }
  }

  /// Waits until the count reaches zero.
  func wait() async { await done.wait() }
}

/// Counts how a store's diagnostics classify events, from any thread.
final class DiagnosticCounts: Sendable {
  let received = Atomic<Int>(0)
  let ignoredStopped = Atomic<Int>(0)
  let ignoredCancelled = Atomic<Int>(0)

  func record<F: Feature>(_ diagnostic: StoreDiagnostic<F>) {
    switch diagnostic {
    case .received:
      received.add(1, ordering: .relaxed)
    case .ignored(_, .stopped): ignoredStopped.add(1, ordering: .relaxed)
    case .ignored(_, _): ignoredCancelled.add(1, ordering: .relaxed)
    default: break
    }
  }
}

/// A count that any thread can add to.
final class SharedCount: Sendable {
  private let count = Atomic<Int>(0)

  func increment() { count.add(1, ordering: .relaxed) }

  var value: Int { count.load(ordering: .relaxed) }
}
