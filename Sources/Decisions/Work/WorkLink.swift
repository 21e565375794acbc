/// How work reports back to whoever runs it: the one link type that a ``WorkRegistry``, its
/// ``WorkRegistry.TestWaits`` and work's tasks talk to.
///
/// Abstract: a store's ``LoopLink`` hops to the store's isolation and calls its ``EventLoop``;
/// a ``RecordingLink`` records what the work of `DecisionsTesting`'s `perform` does. The link holds
/// its owner weakly, so work never keeps its owner alive, and a report that finds the owner gone is
/// dropped.
// NB: a class rather than a protocol: the registry and work's tasks call it without knowing the
// owner's type, and a call costs one dynamic dispatch, no existential. Not generic: the registry,
// which is not either, holds it; the report that carries an event goes through the route, which
// knows the link's concrete type.
@usableFromInline
package class WorkLink: @unchecked Sendable {
  /// Creates a link.
  init() {}

  // MARK: - From work's tasks

  /// Reports on the owner's isolation that the work with `token` ended, on `error` if it threw one
  /// that no handler took.
  func finish(_ token: UInt64, error: (any Error)?) async {}

  /// Work began to wait for the test: the owner may have settled.
  ///
  /// Called on the waiting task, when the registry listens (see
  /// ``WorkRegistry/setListening(_:)``).
  func waitBegan() {}

  /// Returns once the owner has settled: for a test clock that woke the owner's work.
  func settle() async {}

  /// Whether the owner still exists.
  var isAlive: Bool { false }

  /// Resumes the owner's settle waiter with `id`, whose task was cancelled.
  func resumeSettleWaiter(_ id: UInt64) async {}

  /// Resumes the owner's settle waiters if it has settled.
  func resumeSettleWaitersIfSettled() async {}

  // MARK: - On the owner's isolation, inside the executor's call

  /// Work started, keyed `id` (`nil` for unkeyed work), when the registry reports requests.
  func started(_ id: WorkID?) {}

  /// An executor asked for a cancellation, when the registry reports requests.
  func cancelRequested(_ request: CancelRequest) {}

  /// Which child, in the owner's state now, the work in child scope `scope` belongs to; called as
  /// the work starts.
  func lifetime(ofWorkIn scope: ArraySlice<WorkID>) -> WorkLifetime { .alive(identity: 0) }
}

/// How a store's work reaches its ``EventLoop``, whatever the store's isolation: each report hops
/// to that isolation (the store's actor, or the main actor) and calls the loop there.
///
/// Work holds the link, never the store: the link holds the store weakly, so work never keeps its
/// store alive, and a report that finds the store gone is dropped.
// NB: one link for both stores. The isolation is passed as an `isolated` parameter, so the hop is
// the same code for an actor and for the main actor.
final class LoopLink<F: Feature>: WorkLink, @unchecked Sendable {
  // NB: written once, in the store's init, before any work can read them. A report loads the
  // isolation strongly first: for a `Store` it is the store, which keeps the loop alive. A
  // `MainStore` runs on the main actor, so its report loads the store too, as `keeper`.
  /// The store's actor, for a `Store`.
  private weak var isolation: (any Actor)?
  // NB: the main actor lives as long as the process, so it is held strongly: a weak reference
  // gave it a side table that only its own reference count pointed to, which LeakSanitizer
  // reported as a leak at exit.
  /// The global actor a store runs on, for a `MainStore`.
  private var globalIsolation: (any Actor)?
  private weak var keeper: AnyObject?
  private var needsKeeper = false
  private unowned(unsafe) var loop: EventLoop<F>?

  /// Creates a link; ``connect(owner:isolation:loop:)`` it once the store is initialized.
  override init() {}

  /// Connects the store that owns `loop`, and the isolation both run on.
  func connect(owner: AnyObject & Sendable, isolation: any Actor, loop: EventLoop<F>) {
    self.needsKeeper = owner !== isolation
    if needsKeeper {
      self.globalIsolation = isolation
      self.keeper = owner
    } else {
      self.isolation = isolation
    }
    self.loop = loop
  }

  // NB: for a `Store` the isolation is the store, which keeps the loop alive: returning it twice
  // cost a retain and a release more per report, through the side table that its weak references
  // give the store.
  /// The isolation, and the store that keeps the loop alive while a report runs when that is not
  /// the isolation itself, strongly; `nil` once the store is gone.
  @inline(__always)
  private func target() -> (isolation: any Actor, keeper: AnyObject?)? {
    guard needsKeeper else {
      guard let isolation else { return nil }
      return (isolation, nil)
    }
    guard let keeper, let globalIsolation else { return nil }
    return (globalIsolation, keeper)
  }

  // MARK: - Reports, from work's tasks

  /// Delivers an event from the work with `token` to the loop, which processes it if the work
  /// may still send.
  // NB: inlined into the root route's `deliver`: one async frame less per event from work.
  @inline(__always)
  func deliver(_ event: F.Event, from token: UInt64) async {
    guard let target = target() else { return }
    await receive(event, from: token, on: target.isolation)
    extendLifetime(target.keeper)
  }

  override func finish(_ token: UInt64, error: (any Error)?) async {
    guard let target = target() else { return }
    await finish(token, error: error, on: target.isolation)
    extendLifetime(target.keeper)
  }

  override func waitBegan() {
    guard isAlive else { return }
    // NB: the task holds the link as a `WorkLink`: a task that captured `LoopLink<F>` would carry
    // `F`'s metatype off the loop's isolation, which a main-actor feature's is not allowed to be.
    let link: WorkLink = self
    Task { await link.resumeSettleWaitersIfSettled() }
  }

  override func settle() async {
    guard let target = target() else { return }
    await settle(on: target.isolation)
    extendLifetime(target.keeper)
  }

  override var isAlive: Bool { target() != nil }

  // NB: called inside `execute`, which the loop calls on its isolation.
  override func lifetime(ofWorkIn scope: ArraySlice<WorkID>) -> WorkLifetime {
    F.lifetime(ofWorkIn: scope, state: loop.unsafelyUnwrapped.state)
  }

  // NB: called inside `execute`, which the loop calls on its isolation.
  override func started(_ id: WorkID?) {
    loop.unsafelyUnwrapped.workStarted(id: id)
  }

  override func resumeSettleWaiter(_ id: UInt64) async {
    guard let target = target() else { return }
    await resumeSettleWaiter(id, on: target.isolation)
    extendLifetime(target.keeper)
  }

  override func resumeSettleWaitersIfSettled() async {
    guard let target = target() else { return }
    await resumeSettleWaitersIfSettled(on: target.isolation)
    extendLifetime(target.keeper)
  }

  // MARK: - On the loop's isolation

  private func receive(_ event: F.Event, from token: UInt64, on isolation: isolated any Actor) {
    loop.unsafelyUnwrapped.receive(event, fromWork: token)
  }

  private func finish(_ token: UInt64, error: (any Error)?, on isolation: isolated any Actor) {
    loop.unsafelyUnwrapped.finish(token, error: error)
  }

  private func settle(on isolation: isolated any Actor) async {
    await loop.unsafelyUnwrapped.settle()
  }

  private func resumeSettleWaiter(_ id: UInt64, on isolation: isolated any Actor) {
    loop.unsafelyUnwrapped.resumeSettleWaiter(id)
  }

  private func resumeSettleWaitersIfSettled(on isolation: isolated any Actor) {
    loop.unsafelyUnwrapped.resumeSettleWaitersIfSettled()
  }
}

/// The link of `DecisionsTesting`'s `perform`, which runs a feature's executor for one decision
/// outside a store: it records what the work reports instead of processing events.
///
/// Used only on the isolation it is connected to (the actor or the main actor that `perform` runs
/// on, which owns the registry); work's reports hop there, as a store's go through its
/// ``LoopLink``. It holds the isolation and the registry weakly, so work never keeps it alive.
package final class RecordingLink<Event: Sendable>: WorkLink, @unchecked Sendable {
  /// The events sent, in order: queued with ``Effects/send(_:)``, then sent by work as they arrived.
  package private(set) var events: [Event] = []
  /// The ids of the work started, in order; `nil` for unkeyed work.
  package private(set) var startedWork: [WorkID?] = []
  /// The cancellations an executor asked for, in order.
  package private(set) var cancellations: [CancelRequest] = []
  /// The errors of work that no `catch:` handler took.
  package private(set) var errors: [any Error] = []

  // NB: written once, in `connect(isolation:registry:)`, before any work can read them.
  private weak var isolation: (any Actor)?
  private weak var registry: WorkRegistry?
  /// The caller of ``run(_:isolation:)`` waiting for the work, and whether it waits for all of it
  /// to end or only until all of it waits for the test.
  private var waiter: (untilEmpty: Bool, continuation: CheckedContinuation<Void, Never>)?

  /// Creates a recorder; ``connect(isolation:registry:)`` it before work starts.
  override package init() {}

  /// Connects the isolation that reports hop to, and the registry that runs the work; the registry
  /// is made with this recorder as its link, and its owner runs on `isolation`.
  package func connect(isolation: any Actor, registry: WorkRegistry) {
    self.isolation = isolation
    self.registry = registry
  }

  /// Runs `execute` with effects at the top scope, waits until all the work it started has finished
  /// or waits for the test, then cancels what still waits and waits for it to end.
  ///
  /// If the waiting task is cancelled (a test's time limit), it stops waiting at once.
  /// - Returns: The ids of the work that still waited, in the order it started.
  package func run(
    _ execute: (Effects<Event>) -> Void, isolation: isolated any Actor
  ) async -> [WorkID?] {
    guard let registry else { return [] }
    execute(Effects(registry: registry, route: RecordingRoute(recorder: self), scope: []))
    await wait(untilEmpty: false, isolation: isolation)
    let unfinished = registry.entries.all.sorted { $0.token < $1.token }.map(\.entry.id)
    registry.cancelEverything()
    await wait(untilEmpty: true, isolation: isolation)
    return unfinished
  }

  // MARK: - Waiting for the work

  private func isDone(untilEmpty: Bool) -> Bool {
    guard let registry else { return true }
    return untilEmpty ? registry.isEmpty : registry.isWaitingForTest
  }

  private func wait(untilEmpty: Bool, isolation: isolated any Actor) async {
    guard !isDone(untilEmpty: untilEmpty) else { return }
    await SettleWaiters.wait(
      isolation: isolation, keep: { waiter = (untilEmpty, $0) },
      onCancel: { Task { await self.resumeWaiter(whenDone: false, on: isolation) } })
  }

  /// Resumes the waiter if the work it waits for is done, or at once unless `whenDone`.
  private func resumeWaiter(whenDone: Bool, on isolation: isolated any Actor) {
    guard let (untilEmpty, continuation) = waiter else { return }
    guard !whenDone || isDone(untilEmpty: untilEmpty) else { return }
    waiter = nil
    continuation.resume()
  }

  // MARK: - Reports

  override func started(_ id: WorkID?) {
    startedWork.append(id)
  }

  override func cancelRequested(_ request: CancelRequest) {
    cancellations.append(request)
  }

  /// Records an event queued with ``Effects/send(_:)``, inside the executor's call.
  fileprivate func enqueue(_ event: Event) {
    events.append(event)
  }

  /// Records an event from the work with `token`, on the isolation, if the work may still send.
  fileprivate func deliver(_ event: Event, from token: UInt64) async {
    guard let isolation else { return }
    await receive(event, from: token, on: isolation)
  }

  private func receive(_ event: Event, from token: UInt64, on isolation: isolated any Actor) {
    guard let registry, registry.reasonToDrop(token) == nil else { return }
    events.append(event)
  }

  override func finish(_ token: UInt64, error: (any Error)?) async {
    guard let isolation else { return }
    await finish(token, error: error, on: isolation)
  }

  private func finish(_ token: UInt64, error: (any Error)?, on isolation: isolated any Actor) {
    guard let entry = registry?.finished(token) else { return }
    if !entry.isCancelled, let error { errors.append(error) }
    resumeWaiter(whenDone: true, on: isolation)
  }

  override func waitBegan() {
    guard let isolation else { return }
    Task { await self.resumeWaiter(whenDone: true, on: isolation) }
  }

  override var isAlive: Bool { isolation != nil }
}

/// The route of the recorder's events: records them, queued or sent by work.
private final class RecordingRoute<Event: Sendable>: EventRoute<Event>, @unchecked Sendable {
  private let recorder: RecordingLink<Event>

  init(recorder: RecordingLink<Event>) {
    self.recorder = recorder
    super.init()
  }

  override func enqueue(_ event: Event) {
    recorder.enqueue(event)
  }

  override func deliver(_ event: Event, from token: UInt64) async {
    await recorder.deliver(event, from: token)
  }
}
