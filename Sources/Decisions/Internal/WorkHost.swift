/// The work plumbing of the harness behind `DecisionsTesting`'s `perform`, an actor that runs a
/// feature's executor outside a store. (The stores run their work through their ``EventLoop``
/// and its ``LoopLink``; moving the harness onto the loop is the next step of issue 23.)
///
/// It owns the registry of running work, the root route that work sends events along, and the queue
/// of events that decisions queue with ``Effects/send(_:)``. It reports to its owner through
/// ``WorkHostOwner``: work started, a cancellation asked for, an event from work, work finished. A
/// new work-lifecycle feature is a change here and in the owners' hooks.
///
/// Used only on the owner's executor, like everything it owns; work reaches the owner by hopping to
/// it through a weak link, so work never keeps its owner alive.
// NB: a struct: the harness keeps it in a field of its own, and nothing allocates for it.
package struct WorkHost<Event: Sendable> {
  /// The running work.
  package let registry: WorkRegistry
  /// Events queued with ``Effects/send(_:)`` behind the event being processed.
  package let queued: QueuedEvents<Event>
  /// The route that work sends events along, to the owner.
  package let root: EventRoute<Event>

  /// Creates a host whose work reports to its owner through `link`; connect the link once the owner
  /// is initialized.
  /// - Parameters:
  ///   - link: The owner's link, such as an ``ActorOwnerLink``.
  ///   - reportsRequests: Whether to tell the owner about each start and each cancellation an
  ///     executor asks for. A store that does not need them saves a weak load per start.
  package init(link: WorkHostLink<Event>, reportsRequests: Bool) {
    let queued = QueuedEvents<Event>()
    self.queued = queued
    // NB: the closures call methods of the link, a class, rather than the owner's generic protocol
    // methods: those would make each closure capture the owner's type too, which costs each store an
    // allocation per closure.
    self.registry = WorkRegistry(
      started: reportsRequests ? { id in link.started(id) } : nil,
      cancelled: reportsRequests ? { request in link.cancelRequested(request) } : nil,
      link: link)
    self.root = RootRoute(queued: queued, link: link)
  }

  /// The handle an executor starts work with, at the top scope.
  package var effects: Effects<Event> {
    Effects(registry: registry, route: root, scope: [])
  }
}

/// The actor a ``WorkHost`` reports to, through an ``ActorOwnerLink``.
package protocol WorkHostOwner: Actor {
  /// The events work sends back.
  associatedtype Event: Sendable

  /// The registry of the host that runs this owner's work.
  var workRegistry: WorkRegistry { get }

  /// Work started, keyed `id` (`nil` for unkeyed work).
  ///
  /// Called on the owner's executor, inside the `execute` call that started the work, when the host
  /// was created with `reportsRequests`.
  nonisolated func workStarted(id: WorkID?)

  /// An executor asked to cancel work.
  ///
  /// Called on the owner's executor, inside the `execute` call that asked, when the host was
  /// created with `reportsRequests`.
  nonisolated func cancelRequested(_ request: CancelRequest)

  /// Work that may still send sent `event`.
  func workSent(_ event: Event)

  /// Work that may no longer send tried to send `event`; the event is dropped.
  func workSendDropped(_ event: Event, reason: IgnoredReason)

  /// Work began to wait for the test (asleep on a test clock, or in a call the test answers): the
  /// owner may have settled.
  ///
  /// Called on the owner's executor, some time after the wait began.
  func workBeganWaiting()

  /// Returns once the owner has settled: for a test clock that woke the owner's work.
  func settle() async

  /// Work keyed `id` finished.
  /// - Parameters:
  ///   - id: The key the work was started with; `nil` for unkeyed work.
  ///   - error: The error it ended on that no `catch:` handler took; `nil` when it succeeded, or
  ///     when the owner had cancelled it.
  func workFinished(id: WorkID?, error: (any Error)?)
}

extension WorkHostOwner {
  /// An event from the work with `token` arrived on the owner's executor: passes it on if the work
  /// may still send.
  fileprivate func receive(_ event: Event, fromWork token: UInt64) {
    if let reason = workRegistry.reasonToDrop(token) {
      workSendDropped(event, reason: reason)
    } else {
      workSent(event)
    }
  }

  /// The work with `token` ended, on `error` if it threw one that no handler took.
  fileprivate func finish(_ token: UInt64, error: (any Error)?) {
    guard let entry = workRegistry.finished(token) else { return }
    workFinished(id: entry.id, error: entry.isCancelled ? nil : error)
  }
}

/// How work reaches its host's owner: the owner's executor, through a weak reference, so work never
/// keeps its owner alive.
///
/// Abstract: ``ActorOwnerLink`` implements it for an actor, and `MainStore` has its own.
// NB: a class rather than a protocol, so the host's closures call it without capturing a type.
// Written once, right after the owner's init, before any work can read it.
package class WorkHostLink<Event: Sendable>: WorkEndLink, WorkActivityListener, @unchecked Sendable
{
  /// Work began to wait for the test; called on the waiting task.
  package func waitBegan() {}
  /// Returns once the owner has settled.
  package func settle() async {}
  /// Whether the owner still exists.
  package var isAlive: Bool { false }
  /// Work started; called on the owner's executor.
  func started(_ id: WorkID?) {}
  /// An executor asked for a cancellation; called on the owner's executor.
  func cancelRequested(_ request: CancelRequest) {}
  /// Delivers an event from the work with `token` on the owner's executor.
  func deliver(_ event: Event, from token: UInt64) async {}
}

/// How a piece of work reports its end to its owner: the part of a ``WorkHostLink`` that does not
/// depend on the event type, so that the registry, which is not generic, can call it directly.
package class WorkEndLink: @unchecked Sendable {
  /// Creates a link.
  package init() {}

  /// Reports on the owner's executor that the work with `token` ended, on `error` if it threw one
  /// that no handler took.
  func finish(_ token: UInt64, error: (any Error)?) async {}

  /// Which child, in the owner's state now, the work in child scope `scope` belongs to; called on
  /// the owner's executor as the work starts.
  func lifetime(ofWorkIn scope: ArraySlice<WorkID>) -> WorkLifetime { .alive(identity: 0) }
}

/// The link to an actor that owns work.
package final class ActorOwnerLink<Owner: WorkHostOwner>: WorkHostLink<Owner.Event>,
  @unchecked Sendable
{
  private weak var owner: Owner?

  /// Creates a link; ``connect(to:)`` it once the owner is initialized.
  package override init() {}

  /// Connects the owner that work reports to.
  package func connect(to owner: Owner) {
    self.owner = owner
  }

  package override func waitBegan() {
    guard let owner else { return }
    Task { await owner.workBeganWaiting() }
  }

  package override func settle() async {
    await owner?.settle()
  }

  package override var isAlive: Bool { owner != nil }

  override func started(_ id: WorkID?) {
    owner?.workStarted(id: id)
  }

  override func cancelRequested(_ request: CancelRequest) {
    owner?.cancelRequested(request)
  }

  override func deliver(_ event: Owner.Event, from token: UInt64) async {
    await owner?.receive(event, fromWork: token)
  }

  override func finish(_ token: UInt64, error: (any Error)?) async {
    await owner?.finish(token, error: error)
  }
}

/// Events queued behind the current one with ``Effects/send(_:)``, on the owner's executor.
package final class QueuedEvents<Event> {
  // NB: unchecked exclusivity: used only on one executor, where a dynamic check would cost more
  // than reading the array.
  /// The events, oldest first.
  @exclusivity(unchecked) package var events: [Event] = []

  /// Creates an empty queue.
  package init() {}

  /// How many events of room a quiet queue keeps.
  private static var retainedCapacity: Int { 1_024 }

  /// Empties the queue, keeping its room unless a burst made it large.
  package func removeAll() {
    // NB: after a burst, give the room back rather than keep it for the owner's life.
    events.removeAll(keepingCapacity: events.capacity <= Self.retainedCapacity)
  }

  /// Whether the queue keeps far more room than a quiet owner needs, for tests of memory after a
  /// burst.
  package var isOversized: Bool { events.capacity > Self.retainedCapacity }
}
