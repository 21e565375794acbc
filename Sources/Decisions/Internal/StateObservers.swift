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
@usableFromInline
final class StateObservers<State: Sendable>: @unchecked Sendable {
  /// Something that receives states on the store's executor.
  @usableFromInline typealias Observer = StateObserver

  // NB: unchecked exclusivity: used only on the store's executor. Arrays of a non-generic class,
  // so that the loops over them are specialized here rather than looking up metadata per state.
  @exclusivity(unchecked) private var everyState: ContiguousArray<StateObserver> = []
  @exclusivity(unchecked) private var latestState: ContiguousArray<StateObserver> = []

  /// How many observers are attached.
  var count: Int { everyState.count + latestState.count }

  /// Whether any every-state observer is attached.
  var wantEveryState: Bool { !everyState.isEmpty }

  /// Whether any latest-state observer is attached.
  var wantLatestState: Bool { !latestState.isEmpty }

  /// Attaches an observer.
  func add(_ observer: StateObserver, latestOnly: Bool) {
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
    withUnsafePointer(to: state) { Self.offer(UnsafeRawPointer($0), to: &everyState) }
  }

  /// Gives `state` to every latest-state observer, dropping those that are gone.
  func publishLatest(_ state: State) {
    withUnsafePointer(to: state) { Self.offer(UnsafeRawPointer($0), to: &latestState) }
  }

  /// Offers the state at `state` to each observer, in order, and keeps those that still want
  /// states.
  private static func offer(
    _ state: UnsafeRawPointer, to observers: inout ContiguousArray<StateObserver>
  ) {
    var kept = 0
    var index = 0  // rule 3 in Store.swift
    while index < observers.count {
      let observer = observers[index]
      if observer.receive(state) {
        if kept != index { observers[kept] = observer }
        kept += 1
      }
      index += 1
    }
    if kept < observers.count { observers.removeLast(observers.count - kept) }
  }

  /// Finishes and detaches every observer.
  func finishAll() {
    let finished = everyState + latestState
    everyState = []
    latestState = []
    for observer in finished { observer.finish() }
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
