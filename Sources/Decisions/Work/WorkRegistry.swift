/// The registry of an owner's long work: one entry per task that has started and not yet finished.
///
/// Owned by a store's ``EventLoop`` (or the harness of `DecisionsTesting`'s `perform`) and used
/// only on its owner's isolation. Tasks never reference it, so it
/// ends with its owner, and its `deinit` cancels whatever work is still running.
@usableFromInline
package final class WorkRegistry {
  /// One started task.
  package struct Entry {
    /// Where the work sits: the scopes of its embedding features, outermost first.
    package var scope: [WorkID]
    /// The key it was started with, if any.
    package var id: WorkID?
    /// The running task.
    package var task: Task<Void, Never>?
    /// Whether it was cancelled or replaced: its sends are dropped from then on.
    package var isCancelled = false
    /// Whether no child lifetime covers its scope, and that was reported: it is not checked again.
    package var isWithoutLifetime = false
    /// Which child, in its scope, the work belongs to: a child that later takes that child's place
    /// has another identity (see ``WorkLifetime``).
    package var identity: UInt64 = 0
  }

  /// The tokens of the work in one child scope.
  enum ScopeTokens {
    case one(UInt64)
    case many(Set<UInt64>)

    /// Calls `body` with each token.
    func visitEach(_ body: (UInt64) -> Void) {
      switch self {
      case .one(let token): body(token)
      case .many(let tokens): for token in tokens { body(token) }
      }
    }
  }

  /// The key that makes keyed work unique within its scope.
  struct Key: Hashable {
    var scope: [WorkID]
    var id: WorkID
  }

  // NB: unchecked exclusivity: used only on the owner's executor, where the dynamic check costs
  // about 80 instructions per access, three times per round trip.
  @exclusivity(unchecked) package private(set) var entries = WorkTable()
  @exclusivity(unchecked) private var active: [Key: UInt64] = [:]
  @exclusivity(unchecked) private var nextToken: UInt64 = 0
  /// How many entries have a non-empty scope: the work of children, whose lifetimes the owner
  /// checks after each event while there is any.
  @exclusivity(unchecked) package private(set) var childWorkCount = 0
  /// The children's work, by its whole scope: after an event that added or removed a few children,
  /// the owner looks only at the work in their scopes.
  @exclusivity(unchecked) private var childScopes: [[WorkID]: ScopeTokens] = [:]
  /// Child work registered in a scope that no child lifetime covers, not yet reported: the owner's
  /// next check reports it, whether or not a child came or went.
  @exclusivity(unchecked) private var unreported: [UInt64] = []
  /// The lifetime of the child work being reserved, from ``reserve(scope:id:)`` to
  /// ``register(_:scope:id:task:)``.
  @exclusivity(unchecked) private var reserved = WorkLifetime.alive(identity: 0)
  /// Whether the link hears of each start and of each cancellation an executor asks for.
  private let reportsRequests: Bool
  /// Where work reports back: its end, on its own task, and its waits for the test.
  let link: WorkLink
  /// Which work waits for the test: made with the registry if a test double exists in the process
  /// (see ``WorkActivity/startTracking()``), or else with the first work started once one does;
  /// `nil` until then, and so always in an app.
  @exclusivity(unchecked) package private(set) var activity: WorkActivity?
  /// Whether the activity tells the owner of each wait that begins: kept for an activity created
  /// later (see ``setListening(_:)``).
  @exclusivity(unchecked) private var isListening = true

  /// Creates a registry whose work reports its end and its waits for the test to `link`.
  /// - Parameters:
  ///   - link: Where work reports back.
  ///   - reportsRequests: Whether to tell `link` of each start and of each cancellation an
  ///     executor asks for, inside the executor's call.
  package init(link: WorkLink, reportsRequests: Bool) {
    self.reportsRequests = reportsRequests
    self.link = link
    if WorkActivity.isTracking { self.activity = WorkActivity(link: link) }
  }

  /// Makes the activity tell the owner of each wait that begins, or not (see
  /// ``WorkActivity/setListening(_:)``), now or once it is created.
  package func setListening(_ isListening: Bool) {
    self.isListening = isListening
    activity?.setListening(isListening)
  }

  // NB: created with the first work started once a test double exists, not with the registry: an
  // owner made before the first test double tracks its work like any other. Work it started before
  // then has no task-local member, so its waits are not counted: it counts as running until it ends.
  /// Creates the activity, in which the work already running counts as running and not waiting.
  @inline(never)
  private func startTracking() -> WorkActivity {
    let activity = WorkActivity(link: link)
    activity.setListening(isListening)
    for (token, _) in entries.all { activity.workStarted(token) }
    self.activity = activity
    return activity
  }

  /// Whether no work has started and not yet finished (cancelled work counts until it ends).
  package var isEmpty: Bool { entries.isEmpty }

  /// Whether every piece of running work waits for the test (asleep on a test clock, or in a call
  /// the test answers): true when none runs.
  package var isWaitingForTest: Bool {
    if entries.isEmpty { return true }
    guard let activity else { return false }
    return activity.isAllRunningWorkWaiting
  }

  /// Why an event from the work for a token must be dropped, or `nil` when the work may still send.
  package func reasonToDrop(_ token: UInt64) -> IgnoredReason? {
    guard let isCancelled = entries.isCancelled(token) else { return .finishedWork }
    return isCancelled ? .cancelledWork : nil
  }

  /// Reserves the token of new work, first cancelling keyed work with the same scope and id; then
  /// start the work's task and ``register(_:scope:id:task:)`` it, in the same call on the owner's
  /// executor.
  // NB: the caller starts the task, so that one closure holds the work, its error handling and its
  // end: a closure around the work, called from the task's closure, cost an allocation and an async
  // frame per piece of work.
  func reserve(scope: [WorkID], id: WorkID?) -> UInt64 {
    nextToken &+= 1
    let token = nextToken
    // NB: one atomic load per piece of work where no test double exists, as in an app.
    if let activity {
      activity.workStarted(token)
    } else if WorkActivity.isTracking {
      startTracking().workStarted(token)
    }
    if !scope.isEmpty {
      childWorkCount += 1
      reserved = link.lifetime(ofWorkIn: scope[...])
    }
    // NB: a switch rather than `if let`, which copied the optional id (two existentials) through
    // its value witnesses, even when it was `nil`.
    switch id {
    case .none:
      break
    case .some(let id):
      let key = Key(scope: scope, id: id)
      if let previous = active[key] { cancel(token: previous) }
      active[key] = token
    }
    return token
  }

  /// Records the task of the work reserved as `token`.
  // NB: the task is registered before it can finish: its end hops back to the owner's executor,
  // which is busy with this call until it returns. The entry is stored whole, with its task: a
  // write through an optional chain, `entries[token]?.task`, went through the dictionary's
  // `_modify` accessors, whose coroutine frames cost three heap allocations per piece of work.
  func register(
    _ token: UInt64, scope: [WorkID], id: consuming WorkID?, task: consuming Task<Void, Never>
  ) {
    if reportsRequests { link.started(id) }
    guard !scope.isEmpty else {
      entries.insert(Entry(scope: scope, id: id, task: task), forNew: token)
      return
    }
    var entry = Entry(scope: scope, id: id, task: task)
    if case .alive(let identity) = reserved { entry.identity = identity }
    entries.insert(entry, forNew: token)
    switch childScopes[scope] {
    case nil: childScopes[scope] = .one(token)
    case .one(let other)?: childScopes[scope] = .many([other, token])
    case .many(var tokens)?:
      childScopes[scope] = nil  // NB: so that the set is uniquely referenced, and not copied
      tokens.insert(token)
      childScopes[scope] = .many(tokens)
    }
    if reserved == .undeclared { unreported.append(token) }
    // NB: started by a decision for a child that the event removed: it never belonged to a child.
    if reserved == .gone { cancel(token: token) }
    reserved = .alive(identity: 0)
  }

  /// Cancels the keyed work with this scope and id, if it is running.
  func cancel(scope: [WorkID], id: WorkID) {
    if reportsRequests { link.cancelRequested(.work(id: id, scope: scope)) }
    if let token = active[Key(scope: scope, id: id)] { cancel(token: token) }
  }

  /// Whether child work started in a scope that no child lifetime covers, and was not yet reported
  /// by ``endWorkOfGoneChildren(in:_:)``.
  package var hasUnreported: Bool { !unreported.isEmpty }

  /// Cancels the children's work whose child is gone, by `lifetime`, and returns the scopes of
  /// work that no lifetime covers, each once.
  ///
  /// Call it only when ``childWorkCount`` is not zero.
  /// - Parameters:
  ///   - scopes: The scopes of the only children that may be gone: the work in them is looked at,
  ///     and the work started in a scope that no lifetime covers since the last call. `nil` looks
  ///     at all the children's work.
  ///   - lifetime: The lifetime of the work in a scope that recorded an identity, in the owner's
  ///     state now.
  /// - Returns: The scopes of the work that no lifetime covers, not reported before.
  /// - Complexity: O(*w*) for the *w* pieces of work looked at.
  package func endWorkOfGoneChildren(
    in scopes: [[WorkID]]?,
    _ lifetime: (_ scope: ArraySlice<WorkID>, _ identity: UInt64) -> WorkLifetime
  ) -> [[WorkID]] {
    var gone: [UInt64] = []
    var withoutLifetime: [UInt64] = []
    func look(_ token: UInt64, _ entry: Entry) {
      guard !entry.scope.isEmpty, !entry.isCancelled, !entry.isWithoutLifetime else { return }
      switch lifetime(entry.scope[...], entry.identity) {
      case .alive(let identity): if identity != entry.identity { gone.append(token) }
      case .gone: gone.append(token)
      case .undeclared: withoutLifetime.append(token)
      }
    }
    if let scopes {
      // NB: a scope may be named twice (a row removed and added back): its work is looked at
      // twice, which changes nothing.
      for scope in scopes {
        childScopes[scope]?.visitEach { token in
          if let entry = entries[token] { look(token, entry) }
        }
      }
      for token in unreported {
        if let entry = entries[token] { look(token, entry) }
      }
    } else {
      entries.visitEach(look)
    }
    unreported.removeAll()
    for token in gone { cancel(token: token) }
    var scopes: [[WorkID]] = []
    for token in withoutLifetime {
      entries.update(token) { $0.isWithoutLifetime = true }
      if let scope = entries[token]?.scope, !scopes.contains(scope) { scopes.append(scope) }
    }
    return scopes
  }

  /// Cancels all work whose scope starts with `prefix` (all work, for an empty prefix), as an
  /// executor asked.
  func cancelAll(in prefix: [WorkID]) {
    if reportsRequests { link.cancelRequested(.all(scope: prefix)) }
    cancelEverything(in: prefix)
  }

  /// Whether the owner stopped: no work starts any more.
  @exclusivity(unchecked) package private(set) var isClosed = false

  /// Cancels all work, and refuses work started from now on: for a store that stops.
  package func close() {
    isClosed = true
    cancelEverything()
  }

  /// Cancels all work whose scope starts with `prefix`, for the owner itself (a store that stops).
  package func cancelEverything(in prefix: [WorkID] = []) {
    var matching: [UInt64] = []
    entries.visitEach { token, entry in
      if !entry.isCancelled, entry.scope.starts(with: prefix) { matching.append(token) }
    }
    for token in matching { cancel(token: token) }
  }

  /// Removes finished work and returns its entry.
  @discardableResult
  package func finished(_ token: UInt64) -> Entry? {
    guard let entry = entries.remove(token) else { return nil }
    activity?.workEnded(token)
    if !entry.scope.isEmpty {
      childWorkCount -= 1
      forgetChildScope(of: token, in: entry.scope)
    }
    if let id = entry.id, active[Key(scope: entry.scope, id: id)] == token {
      active[Key(scope: entry.scope, id: id)] = nil
    }
    if entries.capacity > Self.retainedCapacity, entries.count < entries.capacity / 8 {
      giveBackMemory()
    }
    return entry
  }

  /// How many entries the registry keeps room for after a burst of work has ended.
  static let retainedCapacity = 64

  /// Whether the registry holds far more room than it uses: for tests of memory after a burst.
  var isOversized: Bool {
    entries.capacity > Self.retainedCapacity && entries.count < entries.capacity / 8
      || entries.storageCapacity > Self.retainedCapacity
        && entries.count < entries.storageCapacity / 8
      || active.capacity > Self.retainedCapacity && active.count < active.capacity / 8
      || childScopes.capacity > Self.retainedCapacity
        && childScopes.count < childScopes.capacity / 8
  }

  // NB: neither table shrinks by itself: after a storm of 100,000 replacements they would keep
  // room for all of them (18 MB) for the store's life. Rebuilding once the registry is an eighth
  // full costs O(count), paid for by the removals that emptied it.
  @inline(never)
  private func giveBackMemory() {
    entries.shrink(keeping: Self.retainedCapacity)
    active = Dictionary(uniqueKeysWithValues: active.map { ($0.key, $0.value) })
    childScopes = Dictionary(uniqueKeysWithValues: childScopes.map { ($0.key, $0.value) })
  }

  /// Removes finished child work from ``childScopes``.
  private func forgetChildScope(of token: UInt64, in scope: [WorkID]) {
    switch childScopes[scope] {
    case .one?: childScopes[scope] = nil
    case .many(var tokens)?:
      childScopes[scope] = nil  // NB: so that the set is uniquely referenced, and not copied
      tokens.remove(token)
      childScopes[scope] = tokens.count == 1 ? .one(tokens.first!) : .many(tokens)
    case nil: break
    }
  }

  private func cancel(token: UInt64) {
    guard entries.isCancelled(token) == false, let entry = entries[token] else { return }
    entries.update(token) { $0.isCancelled = true }
    entry.task?.cancel()
    if let id = entry.id, active[Key(scope: entry.scope, id: id)] == token {
      active[Key(scope: entry.scope, id: id)] = nil
    }
  }

  deinit {
    for (_, entry) in entries.all { entry.task?.cancel() }
  }
}

/// A cancellation an executor asked for with ``Effects/cancel(id:)``, ``Effects/cancelAll()`` or
/// ``Effects/cancelAll(in:)``.
package enum CancelRequest: Sendable, Hashable {
  /// The work keyed `id` in `scope` (the scopes of its embedding features, outermost first).
  case work(id: WorkID, scope: [WorkID])
  /// All work in `scope`, keyed or not, including that of embedded children.
  case all(scope: [WorkID])
}
