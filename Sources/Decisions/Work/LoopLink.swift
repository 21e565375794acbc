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
