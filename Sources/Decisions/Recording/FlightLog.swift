// NB: a final class generic over the event and state types, not over the feature, with the events
// and checkpoints in raw typed memory: the loop is not specialized for its feature, and there a
// copy into an `[F.Event]` looks up the array's metadata on every event (hot-path rule 1 in
// EventLoop.swift). Inside this class, `Event` and `State` come from the class's own metadata, one
// load away, so recording an event is a value-witness copy and a few integer operations.
/// The memory of a ``FlightRecorder``: the last events a store processed, in a ring, and a
/// checkpoint (a copy of the state) before every `interval`-th event, enough to replay at least the
/// last `capacity` events.
///
/// It holds at most `capacity + interval - 1` events and `(capacity + interval - 1) / interval + 2`
/// states, whatever the store does: the memory is allocated once, when it is made, and recording
/// allocates nothing. Used only on its store's isolation.
final class FlightLog<Event, State> {
  /// How many of the last events a window always has, once that many were recorded.
  let capacity: Int
  /// How many events apart the checkpoints are.
  let interval: Int
  /// How many events the ring holds: `capacity + interval - 1`.
  let eventRoom: Int
  /// How many checkpoints the ring holds.
  let checkpointRoom: Int

  // NB: `eventRoom` slots; the first `min(recorded, eventRoom)` are initialized.
  private let events: UnsafeMutablePointer<Event>
  // NB: `checkpointRoom` slots; the first `min(checkpointsTaken, checkpointRoom)` are initialized.
  private let checkpoints: UnsafeMutablePointer<State>
  /// How many events were recorded since the store started.
  private(set) var recorded = 0
  /// The slot the next event goes in.
  private var nextEvent = 0
  /// Whether every event slot is initialized: the next event replaces the oldest.
  private var isFull = false
  /// How many events until the next checkpoint: 0 when the next event needs one before it.
  private var untilCheckpoint = 0
  /// How many checkpoints were taken since the store started; checkpoint `i` is the state before
  /// event `i * interval` (counting from 0).
  private(set) var checkpointsTaken = 0

  /// The rule the app states about its states, if any.
  // NB: not optional: calling an optional closure loaded from a field retained and released its
  // context on every event.
  private let invariant: (State) -> Bool
  /// Whether the invariant was broken after the last event checked: a save is due only when it
  /// breaks, not after each event while it stays broken.
  private var isInvariantBroken = false

  /// Creates an empty log.
  /// - Parameters:
  ///   - capacity: How many of the last events a window always has; at least 1.
  ///   - interval: How many events apart the checkpoints are; at least 1.
  ///   - invariant: A rule about states to check after each event, if any.
  init(capacity: Int, interval: Int, invariant: ((State) -> Bool)? = nil) {
    self.capacity = capacity
    self.interval = interval
    self.eventRoom = capacity + interval - 1
    self.checkpointRoom = (capacity + interval - 1) / interval + 2
    self.events = .allocate(capacity: eventRoom)
    self.checkpoints = .allocate(capacity: checkpointRoom)
    self.invariant = invariant ?? { _ in true }
    self.checksInvariant = invariant != nil
  }

  deinit {
    events.deinitialize(count: isFull ? eventRoom : nextEvent)
    events.deallocate()
    checkpoints.deinitialize(count: min(checkpointsTaken, checkpointRoom))
    checkpoints.deallocate()
  }

  // MARK: - Recording

  // NB: the state is not an argument: the caller would copy it on every event (a class's stored
  // property is copied before it is passed), for a checkpoint due once every `interval` events.
  /// Records an event the store is about to apply, and returns whether a checkpoint is due: then
  /// the caller passes the state the event is applied in to ``keepCheckpoint(_:)``, before it
  /// applies the event.
  ///
  /// - Complexity: O(1), with no allocation.
  func record(_ event: Event) -> Bool {
    let isCheckpointDue = untilCheckpoint == 0
    untilCheckpoint = isCheckpointDue ? interval &- 1 : untilCheckpoint &- 1
    let slot = events + nextEvent
    if isFull { slot.pointee = event } else { slot.initialize(to: event) }
    nextEvent &+= 1
    if nextEvent == eventRoom {
      nextEvent = 0
      isFull = true
    }
    recorded &+= 1
    return isCheckpointDue
  }

  // NB: `inout` only so that the caller passes its stored state in place, without a copy.
  /// Keeps a copy of the state before the event just recorded, when ``record(_:)`` says one is due.
  ///
  /// - Complexity: O(1), with no allocation: for a state with collections, a retain, and a copy of
  ///   each collection the next change to it makes.
  func keepCheckpoint(_ state: inout State) {
    let slot = checkpoints + checkpointsTaken % checkpointRoom
    if checkpointsTaken < checkpointRoom {
      slot.initialize(to: state)
    } else {
      slot.pointee = state
    }
    checkpointsTaken += 1
  }

  /// Whether the log checks an invariant after each event.
  let checksInvariant: Bool

  // NB: `inout` only so that the caller passes its stored state in place, without a copy.
  /// Checks the invariant on the state after an event, and returns whether it just broke: it holds
  /// no longer, and held after the event before (or no event was checked before).
  func invariantJustBroke(in state: inout State) -> Bool {
    let holds = invariant(state)
    defer { isInvariantBroken = !holds }
    return !holds && !isInvariantBroken
  }

  // MARK: - Reading

  /// How many events the log holds now, for tests of its memory.
  var heldEvents: Int { isFull ? eventRoom : nextEvent }
  /// How many checkpoints the log holds now, for tests of its memory.
  var heldCheckpoints: Int { min(checkpointsTaken, checkpointRoom) }

  /// The window to replay: the oldest checkpoint whose events the ring still holds, and every event
  /// from it on; nil when no event was recorded.
  ///
  /// Once `capacity` events were recorded, the window has from `capacity` to `eventRoom` events.
  /// - Returns: How many events came before the window's first, the state before it, and its
  ///   events, oldest first.
  /// - Complexity: O(`eventRoom`).
  func window() -> (eventsBefore: Int, start: State, events: [Event])? {
    guard recorded > 0 else { return nil }
    let oldestEvent = recorded - heldEvents
    let oldestCheckpoint = checkpointsTaken - heldCheckpoints
    // NB: the first checkpoint at or after the oldest event held; it is held, since the ring of
    // checkpoints covers more than the ring of events.
    let checkpoint = max(oldestCheckpoint, (oldestEvent + interval - 1) / interval)
    let first = checkpoint * interval
    precondition(
      checkpoint < checkpointsTaken && first >= oldestEvent,
      "FlightLog: no checkpoint covers the events held (internal error)")
    let start = checkpoints[checkpoint % checkpointRoom]
    var window: [Event] = []
    window.reserveCapacity(recorded - first)
    var number = first
    while number < recorded {
      window.append(events[number % eventRoom])
      number += 1
    }
    return (first, start, window)
  }
}
