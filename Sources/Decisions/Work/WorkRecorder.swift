/// The link of `DecisionsTesting`'s `perform`, which runs a feature's executor for one decision
/// outside a store: it records what the work reports instead of processing events.
///
/// Used only on the isolation it is connected to (the actor or the main actor that `perform` runs
/// on, which owns the registry); work's reports hop there, as a store's go through its
/// ``LoopLink``. It holds the isolation and the registry weakly, so work never keeps it alive.
package final class WorkRecorder<Event: Sendable>: WorkLink, @unchecked Sendable {
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
  private let recorder: WorkRecorder<Event>

  init(recorder: WorkRecorder<Event>) {
    self.recorder = recorder
    super.init(link: recorder)
  }

  override func enqueue(_ event: Event) {
    recorder.enqueue(event)
  }

  override func deliver(_ event: Event, from token: UInt64) async {
    await recorder.deliver(event, from: token)
  }
}
