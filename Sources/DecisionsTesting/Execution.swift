import Decisions

/// What performing one decision did: the events it sent back and the work it started.
public struct Execution<Event: Sendable>: Sendable {
  /// The events the decision sent, in order: first those queued in place with
  /// ``Decisions/Effects/send(_:)``, then those its work sent back as they arrived.
  public var events: [Event]
  /// The ids of the long work the decision started, in order; `nil` for unkeyed work.
  public var startedWork: [WorkID?]
  /// The errors thrown by work that had no `catch:` handler.
  public var unhandledErrors: [any Error]
}

/// Performs one decision with literal deps, without a store, and returns what it did.
///
/// The decision's quick work runs at once. Its long work runs to completion: this function returns
/// when every piece of work it started has finished, so the result is the same on every run, with
/// no waiting on the clock.
///
/// ```swift
/// let execution = await perform(
///   FactFeature.Decision.load, of: FactFeature.self,
///   deps: .init(loadFact: { Fact(text: "hi") }, track: unimplemented("track"), /* … */))
/// #expect(execution.events == [.model(.finishLoading(Fact(text: "hi")))])
/// ```
/// - Parameters:
///   - decision: The decision to perform.
///   - feature: The feature whose executor performs it. Required: a decision type does not say which
///     feature it belongs to.
///   - deps: The deps to perform it with.
/// - Returns: The events sent, the work started and the unhandled errors.
public func perform<F: Feature>(
  _ decision: F.Decision, of feature: F.Type, deps: F.Deps
) async -> Execution<F.Event> {
  await ExecutionHarness<F>().perform(decision, deps: deps)
}

/// Runs a feature's executor outside a store, recording events instead of processing them.
actor ExecutionHarness<F: Feature> {
  private let runtime: WorkRuntime
  private let route: EventRoute<F.Event>
  private let sent: PendingEvents<F.Event>
  private var errors: [any Error] = []
  private var idleWaiter: CheckedContinuation<Void, Never>?

  init() {
    let sent = PendingEvents<F.Event>()
    let link = HarnessLink<F>()
    self.sent = sent
    self.runtime = WorkRuntime { token, error in await link.harness?.finished(token, error) }
    self.route = EventRoute(
      enqueue: { sent.events.append($0) },
      deliver: { event, token in await link.harness?.deliver(event, from: token) })
    link.harness = self
  }

  /// Performs the decision and waits for all the work it started.
  func perform(_ decision: F.Decision, deps: F.Deps) async -> Execution<F.Event> {
    F.execute(decision, deps: deps, effects: Effects(runtime: runtime, route: route, scope: []))
    let started = runtime.runningIDs
    if !runtime.isEmpty {
      await withCheckedContinuation { idleWaiter = $0 }
    }
    return Execution(events: sent.events, startedWork: started, unhandledErrors: errors)
  }

  private func deliver(_ event: F.Event, from token: UInt64) {
    guard runtime.isLive(token) else { return }
    sent.events.append(event)
  }

  private func finished(_ token: UInt64, _ error: (any Error)?) {
    if let entry = runtime.finished(token), let error, !entry.isCancelled {
      errors.append(error)
    }
    if runtime.isEmpty {
      idleWaiter?.resume()
      idleWaiter = nil
    }
  }
}

/// A weak reference to a harness, for work that must not keep it alive.
// NB: written once, in the harness's init, before any work can read it.
private final class HarnessLink<F: Feature>: @unchecked Sendable {
  weak var harness: ExecutionHarness<F>?
}
