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
  @exclusivity(unchecked) package private(set) var entries = Entries()
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
  /// (see ``TestWaits/startTracking()``), or else with the first work started once one does;
  /// `nil` until then, and so always in an app.
  @exclusivity(unchecked) package private(set) var testWaits: TestWaits?
  /// Whether the record of waits tells the owner of each wait that begins: kept for a record
  /// made later (see ``setListening(_:)``).
  @exclusivity(unchecked) private var isListening = true
  /// Starts the task of each piece of work in place of `Task(priority:)`: set by
  /// `DecisionsTesting`'s exploration of effects, which runs every task on an executor it drains
  /// itself, one step at a time; `nil` in a store.
  // NB: unchecked exclusivity, as the fields above: read once per piece of work started, where the
  // dynamic check cost 57 of the hook's 73 instructions per round trip (callgrind, case 5a).
  @exclusivity(unchecked) package var startTask: TaskStarter?

  /// Starts a piece of work's task, given its token, its priority and its body.
  package typealias TaskStarter = (
    _ token: UInt64, _ priority: TaskPriority?, _ body: sending @escaping () async -> Void
  ) -> Task<Void, Never>

  /// Creates a registry whose work reports its end and its waits for the test to `link`.
  /// - Parameters:
  ///   - link: Where work reports back.
  ///   - reportsRequests: Whether to tell `link` of each start and of each cancellation an
  ///     executor asks for, inside the executor's call.
  package init(link: WorkLink, reportsRequests: Bool) {
    self.reportsRequests = reportsRequests
    self.link = link
    if TestWaits.isTracking { self.testWaits = TestWaits(link: link) }
  }

  /// Makes the record of waits tell the owner of each wait that begins, or not (see
  /// ``TestWaits/setListening(_:)``), now or once it is created.
  package func setListening(_ isListening: Bool) {
    self.isListening = isListening
    testWaits?.setListening(isListening)
  }

  // NB: created with the first work started once a test double exists, not with the registry: an
  // owner made before the first test double tracks its work like any other. Work it started before
  // then has no task-local member, so its waits are not counted: it counts as running until it ends.
  /// Creates the record of waits, in which the work already running counts as running and not
  /// waiting.
  @inline(never)
  private func startTracking() -> TestWaits {
    let testWaits = TestWaits(link: link)
    testWaits.setListening(isListening)
    for (token, _) in entries.all { testWaits.workStarted(token) }
    self.testWaits = testWaits
    return testWaits
  }

  /// Whether no work has started and not yet finished (cancelled work counts until it ends).
  package var isEmpty: Bool { entries.isEmpty }

  /// Whether every piece of running work waits for the test (asleep on a test clock, or in a call
  /// the test answers): true when none runs.
  package var isWaitingForTest: Bool {
    if entries.isEmpty { return true }
    guard let testWaits else { return false }
    return testWaits.isAllRunningWorkWaiting
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
    if let testWaits {
      testWaits.workStarted(token)
    } else if TestWaits.isTracking {
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
      // NB: one lookup of the key, which hashes its scope and id, rather than three.
      if let previous = active.updateValue(token, forKey: Key(scope: scope, id: id)) {
        cancel(token: previous, forgettingKey: false)
      }
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
    rememberChildScope(of: token, in: scope)
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

  /// Cancels the work for each of `tokens` that runs and was not cancelled, for the owner itself
  /// (the exploration of effects taking a step back).
  package func cancel(tokens: [UInt64]) {
    for token in tokens { cancel(token: token) }
  }

  /// Makes the next token handed out the one after `token`: for a registry that starts a piece
  /// of work again with its token (see `EventLoop.replay`).
  func setNextToken(after token: UInt64) {
    nextToken = token
  }

  /// Records again the work for `token` that ended, as `entry` records it, with its new task: for
  /// the exploration of effects, which started the work again from its beginning.
  package func reinstate(_ token: UInt64, entry: Entry) {
    var entry = entry
    entry.isCancelled = false
    if let id = entry.id { active[Key(scope: entry.scope, id: id)] = token }
    if !entry.scope.isEmpty {
      childWorkCount += 1
      rememberChildScope(of: token, in: entry.scope)
    }
    entries.insert(entry, forNew: token)
  }

  /// Removes finished work and returns its entry.
  @discardableResult
  package func finished(_ token: UInt64) -> Entry? {
    guard let entry = entries.remove(token) else { return nil }
    testWaits?.workEnded(token)
    if !entry.scope.isEmpty {
      childWorkCount -= 1
      forgetChildScope(of: token, in: entry.scope)
    }
    if let id = entry.id { forget(Key(scope: entry.scope, id: id), of: token) }
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

  /// Adds child work to ``childScopes``.
  @inline(__always)
  private func rememberChildScope(of token: UInt64, in scope: [WorkID]) {
    switch childScopes[scope] {
    case nil: childScopes[scope] = .one(token)
    case .one(let other)?: childScopes[scope] = .many([other, token])
    case .many(var tokens)?:
      childScopes[scope] = nil  // NB: so that the set is uniquely referenced, and not copied
      tokens.insert(token)
      childScopes[scope] = .many(tokens)
    }
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

  /// Cancels the work for `token`, if it runs and was not cancelled, and forgets its key unless
  /// `forgettingKey` is false (its key names the work that replaces it already).
  private func cancel(token: UInt64, forgettingKey: Bool = true) {
    guard let entry = entries.markCancelled(token) else { return }
    entry.task?.cancel()
    if forgettingKey, let id = entry.id { forget(Key(scope: entry.scope, id: id), of: token) }
  }

  /// Removes `key` from the keyed work, if it names the work for `token`.
  // NB: one lookup, which hashes the key's scope and id, where reading and then removing took two.
  private func forget(_ key: Key, of token: UInt64) {
    if let index = active.index(forKey: key), active.values[index] == token {
      active.remove(at: index)
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

extension WorkRegistry {
  /// The running work of a ``WorkRegistry``, by token: a hash table keyed by the tokens the registry
  /// hands out, one after the other, from 1.
  ///
  /// Open addressing with linear probing, at most half full, kept in Robin Hood order: within a run
  /// of occupied slots, entries are in the order of their home slots, so an entry that sits in its
  /// home slot ends the part of the run that a removal has to shift back. Removing leaves no
  /// tombstone.
  // NB: without the Robin Hood order, a removal had to scan to the end of its run, and the tokens of
  // 20,000 pieces of work alive at once fill one run of 20,000 slots: a storm of replaced work took
  // quadratic time (`StoreBurstTests`, over a minute under ThreadSanitizer).
  // NB: not a `Dictionary`: hashing a token with the standard library's seeded hasher, three times per
  // piece of work (its start, each event it sends, its end), cost about 350 instructions of a round
  // trip (decisions-bench case 5). A token's home slot is its Fibonacci hash, a multiplication and a
  // shift: its low bits alone spread a window of consecutive tokens well, but not work that lives
  // long beside work that comes and goes (1,000 rows loading while other work churns): once the
  // churned tokens wrapped around the table, each landed in the long-lived tokens' run and walked it,
  // O(n) per start, lookup and end (decisions-bench case 15e, `WorkRegistryEntriesTests`).
  // NB: the slots hold only the token and the index of the entry, in a dense array beside them: a
  // slot is trivially copyable, so probing, Robin Hood swaps and resizing move 16 bytes with no value
  // witness, and reading an entry's flag copies nothing. With the entries (a scope, an optional
  // `WorkID` of two existentials, a task) in the slots, each start, event and end of a round trip
  // copied them through their value witnesses, with a retain and a release for each reference in
  // them (about 400 instructions and 8 atomic operations per trip, decisions-bench case 5a).
  package struct Entries {
    /// A slot: empty when `token` is 0; else its entry is `stored[index]`.
    private struct Slot {
      var token: UInt64
      var index: Int
    }

    /// The slots; their count is zero or a power of two.
    private var slots: [Slot] = []
    /// The entries, in no particular order; a removal moves the last one into the hole.
    private var stored: [WorkRegistry.Entry] = []
    /// The token of each entry in `stored`, at the same index.
    private var storedTokens: [UInt64] = []

    /// How many entries the table holds.
    package var count: Int { stored.count }

    /// Creates an empty table, which allocates nothing until the first entry.
    package init() {}

    /// Whether the table holds no entry.
    package var isEmpty: Bool { stored.isEmpty }

    /// How many slots the table has.
    package var capacity: Int { slots.count }

    /// The fewest slots a table that holds anything has.
    private static var minimumCapacity: Int { 8 }

    /// The entry for `token`, if the table holds one.
    package subscript(token: UInt64) -> WorkRegistry.Entry? {
      guard let slot = index(of: token) else { return nil }
      return stored[slots[slot].index]
    }

    /// Whether the work for `token` is cancelled; `nil` when the table holds no entry for it.
    // NB: reads the flag in place, without copying the entry (its scope, id and task).
    package func isCancelled(_ token: UInt64) -> Bool? {
      guard let slot = index(of: token) else { return nil }
      return stored[slots[slot].index].isCancelled
    }

    /// Stores `entry` for `token`, replacing the entry it had.
    /// - Parameters:
    ///   - entry: The entry.
    ///   - token: A token other than 0.
    package mutating func set(_ entry: consuming WorkRegistry.Entry, for token: UInt64) {
      precondition(token != 0, "work token 0 marks an empty slot")
      if let slot = index(of: token) {
        stored[slots[slot].index] = entry
        return
      }
      insert(entry, forNew: token)
    }

    /// Stores `entry` for `token`, which the table does not hold: a token just handed out.
    ///
    /// It skips the search that ``set(_:for:)`` begins with.
    /// - Parameters:
    ///   - entry: The entry.
    ///   - token: A token other than 0, not in the table.
    package mutating func insert(_ entry: consuming WorkRegistry.Entry, forNew token: UInt64) {
      precondition(token != 0, "work token 0 marks an empty slot")
      assert(index(of: token) == nil, "work token \(token) is already in the table")
      if (stored.count + 1) * 2 > slots.count {
        resize(to: Swift.max(Self.minimumCapacity, slots.count * 2))
      }
      insert(Slot(token: token, index: stored.count))
      stored.append(entry)
      storedTokens.append(token)
    }

    /// Marks the entry for `token` cancelled and returns it, if the table holds one that was not.
    package mutating func markCancelled(_ token: UInt64) -> WorkRegistry.Entry? {
      guard let slot = index(of: token) else { return nil }
      let position = slots[slot].index
      guard !stored[position].isCancelled else { return nil }
      stored[position].isCancelled = true
      return stored[position]
    }

    /// Changes the entry for `token` in place, if the table holds one.
    package mutating func update(_ token: UInt64, _ change: (inout WorkRegistry.Entry) -> Void) {
      guard let slot = index(of: token) else { return }
      change(&stored[slots[slot].index])
    }

    /// Removes and returns the entry for `token`, if the table holds one.
    @discardableResult
    package mutating func remove(_ token: UInt64) -> WorkRegistry.Entry? {
      guard var hole = index(of: token) else { return nil }
      let position = slots[hole].index
      // NB: the entries after the hole that are not in their home slot move back one slot each; the
      // first empty slot, or the first entry in its home slot, ends the shift (Robin Hood order).
      let mask = slots.count - 1
      var next = (hole + 1) & mask
      while true {
        #if DEBUG
          scanned += 1
        #endif
        guard slots[next].token != 0, distance(of: next, mask: mask) > 0 else { break }
        slots[hole] = slots[next]
        hole = next
        next = (next + 1) & mask
      }
      slots[hole] = Slot(token: 0, index: 0)
      // NB: the last entry moves into the removed one's place, and its slot learns its new index.
      let last = stored.count - 1
      if position != last {
        // NB: through the buffer, whose `swapAt` moves the entries: the array's copies them, with a
        // retain and a release of each reference in them.
        stored.withUnsafeMutableBufferPointer { $0.swapAt(position, last) }
        storedTokens[position] = storedTokens[last]
        slots[index(of: storedTokens[position]).unsafelyUnwrapped].index = position
      }
      storedTokens.removeLast()
      return stored.removeLast()
    }

    #if DEBUG
      /// How many slots removals have looked at after the removed entry, for tests of their cost.
      package private(set) var scanned = 0
      /// How many occupied slots insertions have passed, for tests of their cost.
      package private(set) var probed = 0
    #endif

    /// Gives back the room of a table far larger than what it holds: after a storm of work, a table
    /// keeps room for all of it until this is called.
    /// - Parameter retained: How many slots a table may keep however little it holds.
    package mutating func shrink(keeping retained: Int) {
      guard slots.count > retained, count < slots.count / 8 else { return }
      var capacity = Self.minimumCapacity
      while capacity < count * 2 { capacity *= 2 }
      resize(to: capacity)
      stored = Self.copy(stored)
      storedTokens = Self.copy(storedTokens)
    }

    /// A copy of `elements` with room for no more.
    private static func copy<Element>(_ elements: [Element]) -> [Element] {
      var copy: [Element] = []
      copy.reserveCapacity(elements.count)
      copy.append(contentsOf: elements)
      return copy
    }

    /// How many entries the table keeps room for without growing, for tests of its memory.
    package var storageCapacity: Int { Swift.max(stored.capacity, storedTokens.capacity) }

    /// The tokens the table holds, in no particular order.
    package var tokens: [UInt64] { storedTokens }

    /// Calls `body` with each token and entry the table holds, in no particular order, without
    /// copying the table.
    package func visitEach(_ body: (_ token: UInt64, _ entry: WorkRegistry.Entry) -> Void) {
      var index = 0
      while index < stored.count {
        body(storedTokens[index], stored[index])
        index += 1
      }
    }

    /// The tokens and entries the table holds, in no particular order.
    package var all: [(token: UInt64, entry: WorkRegistry.Entry)] {
      Array(zip(storedTokens, stored))
    }

    // MARK: - Probing

    /// The slot a token is looked for first.
    private static func home(of token: UInt64, mask: Int) -> Int {
      Int(truncatingIfNeeded: (token &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// The slot that holds `token`, if any.
    private func index(of token: UInt64) -> Int? {
      guard !slots.isEmpty, token != 0 else { return nil }
      let mask = slots.count - 1
      var index = Self.home(of: token, mask: mask)
      while true {
        let found = slots[index].token
        if found == token { return index }
        if found == 0 { return nil }
        index = (index + 1) & mask
      }
    }

    /// How far the entry in slot `index` is from its home slot.
    private func distance(of index: Int, mask: Int) -> Int {
      (index - Self.home(of: slots[index].token, mask: mask)) & mask
    }

    /// Puts `slot` in the table, which must have an empty slot, keeping the Robin Hood order: an
    /// entry nearer its home than the one being placed makes room and is placed further on.
    private mutating func insert(_ slot: Slot) {
      var slot = slot
      let mask = slots.count - 1
      var index = Self.home(of: slot.token, mask: mask)
      var travelled = 0
      while slots[index].token != 0 {
        #if DEBUG
          probed += 1
        #endif
        let resident = distance(of: index, mask: mask)
        if resident < travelled {
          swap(&slots[index], &slot)
          travelled = resident
        }
        index = (index + 1) & mask
        travelled += 1
      }
      slots[index] = slot
    }

    /// Moves every slot into a table of `capacity` slots, a power of two.
    private mutating func resize(to capacity: Int) {
      let old = slots
      slots = Array(repeating: Slot(token: 0, index: 0), count: capacity)
      for slot in old where slot.token != 0 {
        insert(slot)
      }
    }
  }
}
