import Decisions

/// What performing one decision did: the events it sent back and the work it started.
public struct Execution<Event: Sendable>: Sendable {
  /// The events the decision sent, in order: first those queued in place with
  /// ``Decisions/Effects/send(_:)``, then those its work sent back as they arrived.
  public var events: [Event]
  /// The ids of the long work the decision started, in order; `nil` for unkeyed work.
  public var startedWork: [WorkID?]
  /// The cancellations the decision asked for, in order, whether or not such work was running.
  public var cancellations: [WorkCancellation]
  /// The errors thrown by work that had no `catch:` handler.
  public var unhandledErrors: [any Error]
  /// The ids of the work still waiting for the test when all other work had finished.
  ///
  /// In the order it started; `nil` for unkeyed work. `perform` cancelled it.
  public var unfinishedWork: [WorkID?]
}

/// A cancellation a decision asked for, as ``Execution/cancellations`` reports it.
///
/// A scope lists the scopes of the embedding features, outermost first: empty at the top, `[7]`
/// inside the child embedded with `scope: 7`.
public enum WorkCancellation: Sendable, Hashable {
  /// ``Decisions/Effects/cancel(id:)``: the work keyed `id` in `scope`.
  case work(id: WorkID, scope: [WorkID])
  /// ``Decisions/Effects/cancelAll()``: all work in `scope`, keyed or not, including that of
  /// embedded children.
  case all(scope: [WorkID])
}

/// Performs one decision with literal deps, without a store, and returns what it did.
///
/// The decision's quick work runs at once. Its long work runs until every piece has finished or
/// waits for the test — asleep on a ``TestClock``, or in a call of a ``ControlledDependency`` that
/// no one answers — so the result is the same on every run, with no waiting on the clock. Work still
/// waiting then is cancelled, and listed in ``Execution/unfinishedWork``: that is how a test checks
/// work that never ends, such as a subscription, by collecting what it sends until it asks for the
/// next value:
///
/// ```swift
/// let next = ControlledDependency<Void, Int>(answers: [1, 2])
/// let execution = await perform(
///   Ticks.Decision.subscribe, of: Ticks.self, deps: .init(next: { try await next() }))
/// #expect(execution.events == [.got(1), .got(2)])
/// #expect(execution.unfinishedWork == [WorkID("subscription")])
/// ```
///
/// Work that waits for anything else, such as a stream the test does not control, keeps `perform`
/// waiting until the task that called it is cancelled (a test's time limit, say); `perform` then
/// returns what it has.
///
/// Work that sleeps again every time on an ``ImmediateClock``, such as a repeating timer, would
/// never end: the clock lets at most ``ImmediateClock/maximumSleeps`` sleeps pass (10,000 unless
/// the test gives it more or fewer), then fails the test and stops, and `perform` cancels the work
/// and lists it in ``Execution/unfinishedWork``. Test a repeating timer with a ``TestClock``.
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
public func perform<F: Feature & SendableMetatype>(
  _ decision: F.Decision, of feature: F.Type, deps: F.Deps
) async -> Execution<F.Event> {
  // NB: `SendableMetatype`, as `Store` asks: the executor runs on an actor of its own, off the main
  // actor, where a main-actor feature's executor may not run; the overload below runs those.
  await runExecutor(decision, of: feature, deps: deps, isolation: ExecutionActor())
}

/// Performs one decision of a main-actor feature with literal deps, without a store, and returns
/// what it did.
///
/// The same as the other `perform(_:of:deps:)`, for a feature written in a module with
/// default main-actor isolation: its executor runs on the main actor, as a
/// ``Decisions/MainStore`` runs it, and so does the work's bookkeeping. A feature that can run
/// anywhere gets the other overload.
/// - Parameters:
///   - decision: The decision to perform.
///   - feature: The feature whose executor performs it.
///   - deps: The deps to perform it with.
/// - Returns: The events sent, the work started and the unhandled errors.
@MainActor
@_disfavoredOverload
public func perform<F: Feature>(
  _ decision: F.Decision, of feature: F.Type, deps: F.Deps
) async -> Execution<F.Event> {
  await runExecutor(decision, of: feature, deps: deps, isolation: MainActor.shared)
}

/// Runs a feature's executor for one decision outside a store, on `isolation`, recording what its
/// work does instead of processing events; waits until all the work has finished or waits for the
/// test, then cancels what still waits and waits for it to end.
///
/// `isolation` is where the executor and the work's bookkeeping run, as a store's loop runs on its
/// own: the main actor for a main-actor feature, an ``ExecutionActor`` for the others.
private func runExecutor<F: Feature>(
  _ decision: F.Decision, of feature: F.Type, deps: F.Deps, isolation: isolated any Actor
) async -> Execution<F.Event> {
  // NB: before the registry, so that it tracks which work waits for the test.
  WorkRegistry.TestWaits.startTracking()
  let recorder = RecordingLink<F.Event>()
  // NB: owned here, not by the recorder, which work holds: once this call returns, the registry's
  // `deinit` cancels whatever work is left.
  let registry = WorkRegistry(link: recorder, reportsRequests: true)
  recorder.connect(isolation: isolation, registry: registry)
  let unfinished = await recorder.run(
    { F.execute(decision, deps: deps, effects: $0) }, isolation: isolation)
  return withExtendedLifetime(registry) { Execution(recorder, unfinishedWork: unfinished) }
}

/// The isolation `perform` runs a feature's executor on off the main actor: the owner of the
/// recorder's bookkeeping, as a ``Decisions/Store`` is of its loop's.
private actor ExecutionActor {}

extension Execution {
  /// What `recorder` recorded, with the work left unfinished.
  init(_ recorder: RecordingLink<Event>, unfinishedWork: [WorkID?]) {
    self.init(
      events: recorder.events, startedWork: recorder.startedWork,
      cancellations: recorder.cancellations.map { request in
        switch request {
        case .work(let id, let scope): .work(id: id, scope: scope)
        case .all(let scope): .all(scope: scope)
        }
      },
      unhandledErrors: recorder.errors, unfinishedWork: unfinishedWork)
  }
}
