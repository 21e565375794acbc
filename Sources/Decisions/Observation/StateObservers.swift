/// The observers of a store's state, in two kinds:
/// - **every-state observers** (``Store/states(bufferingPolicy:)``) receive each state as it is
///   stored;
/// - **latest-state observers** (``ObservableStore``) receive only the latest state, once the store
///   has processed every posted event, so that a burst reaches them once.
///
/// Used only on the store's executor.
// NB: a final class rather than arrays in the store: the store's code is not specialized, and each
// use of `[Observer]` there would look up its metadata (hot-path rule 1 in Store/EventLoop.swift). The store
// keeps its own flags for "any observer?" (rule 2): even reading a field of this class costs it an
// associated-type lookup per event. Unchecked
// `Sendable` only so that the store's `deinit`, which no other code can overlap, can finish them.
@usableFromInline
final class StateObservers<State: Sendable>: @unchecked Sendable {
  /// Something that receives states on the store's executor.
  @usableFromInline typealias Observer = StateObserver

  // NB: unchecked exclusivity: used only on the store's executor. Lists of a non-generic class,
  // so that the loops over them are specialized here rather than looking up metadata per state.
  @exclusivity(unchecked) private var everyState = ObserverList()
  @exclusivity(unchecked) private var latestState = ObserverList()

  /// How many observers are attached.
  var count: Int { everyState.count + latestState.count }

  /// Whether any every-state observer is attached.
  var wantEveryState: Bool { !everyState.isEmpty }

  /// Whether any latest-state observer is attached.
  var wantLatestState: Bool { !latestState.isEmpty }

  /// How many places in the lists detaching observers looked at, for tests of what it costs.
  var removalWork: Int { everyState.removalWork + latestState.removalWork }

  /// Attaches an observer; its id must differ from every attached observer's.
  func add(_ observer: StateObserver, latestOnly: Bool) {
    if latestOnly {
      latestState.add(observer)
    } else {
      everyState.add(observer)
    }
  }

  /// Detaches the observer with `id`, if attached; O(1), amortised.
  func remove(id: UInt64) {
    if !everyState.remove(id: id) { _ = latestState.remove(id: id) }
  }

  /// Gives `state` to every every-state observer, dropping those that are gone.
  func publish(_ state: State) {
    withUnsafePointer(to: state) { everyState.offer(UnsafeRawPointer($0)) }
  }

  /// Gives `state` to every latest-state observer, dropping those that are gone.
  func publishLatest(_ state: State) {
    withUnsafePointer(to: state) { latestState.offer(UnsafeRawPointer($0)) }
  }

  /// Finishes and detaches every observer.
  func finishAll() {
    let finished = everyState.removeAll() + latestState.removeAll()
    for observer in finished { observer.finish() }
  }
}

/// Observers of one kind, in the order they were attached, each found by its id in O(1).
// NB: detaching an observer puts a placeholder in its place rather than closing the gap, which
// would cost a search and a shift per observer: n readers that left one by one cost O(n²)
// (issue 24). The next state closes the gaps as it passes, or, with no state coming, the list
// closes them all at once when they are half of it, which costs O(1) per detaching, amortised.
struct ObserverList {
  /// The observers, with ``StateObserver/detached`` where one was detached.
  private var observers: ContiguousArray<StateObserver> = []
  /// Where each attached observer is in `observers`.
  private var indices: [UInt64: Int] = [:]
  /// How many places of `observers` hold ``StateObserver/detached``.
  private var detachedCount = 0
  /// How many places detaching observers looked at, for tests of what it costs.
  private(set) var removalWork = 0

  /// How many observers are attached.
  var count: Int { observers.count - detachedCount }

  /// Whether no observer is attached.
  var isEmpty: Bool { count == 0 }

  /// Attaches an observer after the others.
  mutating func add(_ observer: StateObserver) {
    indices[observer.id] = observers.count
    observers.append(observer)
  }

  /// Detaches the observer with `id`, and returns whether it was attached.
  mutating func remove(id: UInt64) -> Bool {
    guard let index = indices.removeValue(forKey: id) else { return false }
    removalWork += 1
    observers[index] = .detached
    detachedCount += 1
    if detachedCount * 2 > observers.count { closeGaps() }
    return true
  }

  /// Offers the state at `state` to each observer, in order, and keeps those that still want
  /// states.
  mutating func offer(_ state: UnsafeRawPointer) {
    var kept = 0
    var index = 0  // rule 3 in Store/EventLoop.swift
    while index < observers.count {
      let observer = observers[index]
      if observer.receive(state) {
        if kept != index {
          observers[kept] = observer
          indices[observer.id] = kept
        }
        kept += 1
      } else if observer === StateObserver.detached {
        detachedCount -= 1
      } else {
        indices[observer.id] = nil
      }
      index += 1
    }
    if kept < observers.count { observers.removeLast(observers.count - kept) }
  }

  /// Drops the placeholders of detached observers, keeping the others in order.
  private mutating func closeGaps() {
    var kept = 0
    for index in observers.indices {
      removalWork += 1
      let observer = observers[index]
      guard observer !== StateObserver.detached else { continue }
      if kept != index {
        observers[kept] = observer
        indices[observer.id] = kept
      }
      kept += 1
    }
    observers.removeLast(observers.count - kept)
    detachedCount = 0
  }

  /// Detaches every observer and returns them, in order.
  mutating func removeAll() -> [StateObserver] {
    let attached = observers.filter { $0 !== StateObserver.detached }
    observers = []
    indices = [:]
    detachedCount = 0
    return attached
  }
}

/// Something that receives a store's states on the store's executor.
// NB: a non-generic class that takes the state by address: the store's code is not specialized,
// and a generic observer cost a metadata lookup per state and observer. The closures are made where
// the state's type is known (in `states()`, inlined into the caller's module, or in
// `StateMailbox`), and read the state there.
@usableFromInline
final class StateObserver: Sendable {
  /// Identifies the observer for removal.
  let id: UInt64
  /// Receives the state at an address, valid only during the call; returns `false` when the
  /// observer is gone and can be dropped.
  let receive: @Sendable (UnsafeRawPointer) -> Bool
  /// Called when the store stops or goes away.
  let finish: @Sendable () -> Void

  /// The placeholder of a detached observer in an ``ObserverList``: it wants no state.
  static let detached = StateObserver(id: 0, receive: { _ in false }, finish: {})

  /// Creates an observer of states of type `State`.
  @inlinable
  convenience init<State>(
    id: UInt64, of state: State.Type, receive: @escaping @Sendable (State) -> Bool,
    finish: @escaping @Sendable () -> Void
  ) {
    self.init(
      id: id, receive: { receive($0.assumingMemoryBound(to: State.self).pointee) }, finish: finish)
  }

  /// Creates an observer that reads the state at an address.
  @usableFromInline
  init(
    id: UInt64, receive: @escaping @Sendable (UnsafeRawPointer) -> Bool,
    finish: @escaping @Sendable () -> Void
  ) {
    self.id = id
    self.receive = receive
    self.finish = finish
  }
}

/// How a ``Store`` hands its states to its observers: the loop's hook, made when the first
/// observer attaches, and the owner of what only observers need (their ids, and the log of states
/// that the store's `.unbounded` readers share).
// NB: `Sendable` only so that the store's `deinit`, which no other code can overlap, can finish its
// observers; otherwise used only on the store's executor.
final class StorePublisher<F: Feature>: StateHook<F.State>, @unchecked Sendable {
  private let observers = StateObservers<F.State>()
  private let posted: PostedEvents<F.Event>
  /// Whether any every-state observer is attached.
  private var wantEveryState = false
  /// Whether any latest-state observer is attached.
  private var wantLatestState = false
  /// Whether the latest-state observers have not yet received the current state.
  private var latestIsStale = false
  /// The states the store's `.unbounded` readers share, while any reads them.
  private var stateLog: StateLog<F.State>?
  /// The id of the last observer attached.
  private var lastObserverID: UInt64 = 0

  /// Creates the publisher of a store whose inbox of posted events is `posted`.
  init(posted: PostedEvents<F.Event>) {
    self.posted = posted
    super.init(wantsWillChange: false)
  }

  // MARK: - Observers

  /// How many observers are attached.
  var count: Int { observers.count }

  /// How many states the log of `.unbounded` readers keeps.
  var stateLogKeptCount: Int { stateLog?.keptCount ?? 0 }

  /// Returns an id for a new observer.
  func makeObserverID() -> UInt64 {
    lastObserverID += 1
    return lastObserverID
  }

  /// Attaches an observer that wants every state, or only the latest (see ``Store``'s
  /// `addObserver(_:latestOnly:)`).
  func add(_ observer: StateObserver, latestOnly: Bool) {
    observers.add(observer, latestOnly: latestOnly)
    updateFlags()
  }

  /// Detaches the observer with `id`.
  func remove(id: UInt64) {
    observers.remove(id: id)
    updateFlags()
  }

  /// Ends every observer's sequence: the store stopped or was released.
  func finishAll() {
    observers.finishAll()
    updateFlags()
  }

  /// Adds a reader, whose first state is `state`, to the log of states for `.unbounded` readers,
  /// making the log with `makeLog` (from an observer id) and attaching its observer if none is
  /// open.
  func stateLogReader(
    first state: F.State, makeLog: (_ id: UInt64) -> (StateLog<F.State>, StateObserver)
  ) -> StateLogReader<F.State>? {
    if let stateLog, let reader = stateLog.addReader(first: state) { return reader }
    let (log, observer) = makeLog(makeObserverID())
    stateLog = log
    add(observer, latestOnly: false)
    return log.addReader(first: state)
  }

  /// Lets the log of states with observer `id` go if it still has no reader: its last reader left.
  func releaseStateLog(id: UInt64) {
    guard let stateLog, stateLog.id == id else {
      // NB: a log the publisher already dropped, because a state found it empty.
      remove(id: id)
      return
    }
    guard stateLog.closeIfUnused() else { return }
    self.stateLog = nil
    remove(id: id)
  }

  private func updateFlags() {
    wantEveryState = observers.wantEveryState
    wantLatestState = observers.wantLatestState
    // NB: only latest-state observers hear of the end of a send: a store with none saves the call.
    wantsCatchUp = wantLatestState
  }

  // MARK: - The loop's hook

  override func didChange(to state: borrowing F.State) {
    if wantEveryState {
      observers.publish(state)
      if !observers.wantEveryState { wantEveryState = false }
    }
    if wantLatestState { latestIsStale = true }
  }

  // NB: not while posted events wait: a burst of events then reaches latest-state observers once,
  // at its end.
  override func didCatchUp(with state: F.State) {
    guard posted.isEmpty else { return }
    publishLatestNow(state)
  }

  /// Hands `state`, the current state, to the latest-state observers, unless they have it already.
  // NB: no sequence numbers needed to keep a model from going back to an older state: observers
  // receive states only here, on the store's executor, in the order the store stored them, and a
  // model shows only what its mailbox received last.
  func publishLatestNow(_ state: F.State) {
    guard latestIsStale else { return }
    latestIsStale = false
    observers.publishLatest(state)
    if !observers.wantLatestState {
      wantLatestState = false
      wantsCatchUp = false
    }
  }
}
