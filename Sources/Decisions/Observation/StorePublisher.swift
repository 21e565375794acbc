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
