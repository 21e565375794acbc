/// The observers of a store's state, in two kinds:
/// - **every-state observers** (``Store/states(bufferingPolicy:)``) receive each state as it is
///   stored;
/// - **latest-state observers** (``ObservableStore``) receive only the latest state, once the store
///   has processed every posted event, so that a burst reaches them once.
///
/// Used only on the store's executor.
// NB: a final class rather than arrays in the store: the store's code is not specialized, and each
// use of `[Observer]` there would look up its metadata (hot-path rule 1 in Store.swift). The store
// keeps its own flags for "any observer?" (rule 2): even reading a field of this class costs it an
// associated-type lookup per event. Unchecked
// `Sendable` only so that the store's `deinit`, which no other code can overlap, can finish them.
final class StateObservers<State: Sendable>: @unchecked Sendable {
  /// Something that receives states on the store's executor.
  struct Observer: Sendable {
    /// Identifies the observer for removal.
    let id: UInt64
    /// Receives a state; returns `false` when the observer is gone and can be dropped.
    let receive: @Sendable (State) -> Bool
    /// Called when the store stops or goes away.
    let finish: @Sendable () -> Void
  }

  // NB: unchecked exclusivity: used only on the store's executor.
  @exclusivity(unchecked) private var everyState: [Observer] = []
  @exclusivity(unchecked) private var latestState: [Observer] = []

  /// How many observers are attached.
  var count: Int { everyState.count + latestState.count }

  /// Whether any every-state observer is attached.
  var wantEveryState: Bool { !everyState.isEmpty }

  /// Whether any latest-state observer is attached.
  var wantLatestState: Bool { !latestState.isEmpty }

  /// Attaches an observer.
  func add(_ observer: Observer, latestOnly: Bool) {
    if latestOnly {
      latestState.append(observer)
    } else {
      everyState.append(observer)
    }
  }

  /// Detaches the observer with `id`, if attached.
  func remove(id: UInt64) {
    everyState.removeAll { $0.id == id }
    latestState.removeAll { $0.id == id }
  }

  /// Gives `state` to every every-state observer, dropping those that are gone.
  func publish(_ state: State) {
    everyState.removeAll { !$0.receive(state) }
  }

  /// Gives `state` to every latest-state observer, dropping those that are gone.
  func publishLatest(_ state: State) {
    latestState.removeAll { !$0.receive(state) }
  }

  /// Finishes and detaches every observer.
  func finishAll() {
    let finished = everyState + latestState
    everyState = []
    latestState = []
    for observer in finished { observer.finish() }
  }
}
