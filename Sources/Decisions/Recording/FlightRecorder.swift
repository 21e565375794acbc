/// What a store's flight recorder keeps and when it saves: give one to
/// ``Store/init(state:deps:diagnostics:recorder:)`` or ``MainStore/init(state:deps:diagnostics:recorder:)``
/// and the store keeps its last events, cheaply enough to leave on in a release build.
///
/// ```swift
/// let recorder = FlightRecorder<Keypad>(
///   capacity: 500,
///   invariant: .init("not opened by the factory code") {
///     !$0.isOpen || $0.lastDigits != Keypad.factoryCode
///   },
///   save: { recording in reports.keep(recording) })
/// let store = Store<Keypad>(state: .init(), deps: .init(), recorder: recorder)
/// ```
///
/// The store records each event it applies in a ring, and a copy of the state every
/// ``checkpointInterval`` events, so a recording always starts from a known state and replays to
/// the store's state. It holds at most `capacity + checkpointInterval - 1` events and
/// `(capacity + checkpointInterval - 1) / checkpointInterval + 2` states, allocated when the store
/// is made: memory is bounded by the capacity whatever the app does, and recording an event
/// allocates nothing.
///
/// A ``FlightRecording`` of the last events is made:
/// - on demand, with ``Store/flightRecording(note:)`` (a "report a problem" button);
/// - when long work fails with an error that no `catch:` handler turns into an event, passed to
///   ``save``;
/// - when the state after an event breaks the ``invariant``, passed to ``save``.
///
/// - Complexity: Recording costs O(1) per event, with no allocation. A checkpoint copies the state:
///   for a state that holds collections, the next change to each collection copies it (copy on
///   write), so a large state costs about its size every ``checkpointInterval`` events. An
///   invariant costs one call per event. Making a recording costs O(`capacity`), plus the
///   redaction closures.
public struct FlightRecorder<F: Feature>: Sendable {
  /// How many of the store's last events a recording always has, once the store has processed that
  /// many: a recording has from `capacity` to `capacity + checkpointInterval - 1` events.
  public let capacity: Int
  /// How many events apart the state is copied: a recording starts at one of these copies.
  public let checkpointInterval: Int
  /// The feature's name in recordings, checked when one is decoded.
  public let feature: String
  /// How private data is kept out of recordings.
  public let redaction: Redaction
  /// A rule about the store's states, checked after each event: when the state breaks it, the store
  /// saves a recording.
  public let invariant: Invariant?
  /// What to do with each recording the store makes by itself.
  ///
  /// The store calls it on its isolation, while it processes the event or the report of work that
  /// made the recording: when work fails without a `catch:` handler, or the invariant breaks. Keep
  /// it quick: hand the recording to a task that encodes and writes it.
  public let save: (@Sendable (FlightRecording<F>) -> Void)?
  /// Whether `save` must run on the main actor, as the `@MainActor` initializer's does.
  ///
  /// An actor `Store` then hands each recording to the main actor rather than call `save` itself.
  let savesOnTheMainActor: Bool

  /// The one initializer behind the public ones, which differ only in where `save` runs.
  private init(
    capacity: Int,
    checkpointInterval: Int,
    feature: String,
    redaction: Redaction,
    invariant: Invariant?,
    saving save: (@Sendable (FlightRecording<F>) -> Void)?,
    onTheMainActor: Bool = false
  ) {
    precondition(capacity >= 1, "FlightRecorder: the capacity must be at least 1, not \(capacity)")
    precondition(
      checkpointInterval >= 1,
      "FlightRecorder: the checkpoint interval must be at least 1, not \(checkpointInterval)")
    self.capacity = capacity
    self.checkpointInterval = checkpointInterval
    self.feature = feature
    self.redaction = redaction
    self.invariant = invariant
    self.save = save
    self.savesOnTheMainActor = onTheMainActor
  }

  /// These settings with `save` handing each recording to the main actor, if it must run there:
  /// for an actor `Store`, which calls `save` on its own executor.
  func savingFromAnActor() -> Self {
    guard savesOnTheMainActor, let save else { return self }
    return Self(
      capacity: capacity, checkpointInterval: checkpointInterval, feature: feature,
      redaction: redaction, invariant: invariant,
      saving: handedToTheMainActor(save))
  }

  /// Creates the settings of a main-actor feature's recorder, for its ``MainStore``, whose `save`
  /// runs on the main actor.
  ///
  /// A feature written with no annotation in a module with default main-actor isolation has its
  /// conformance to ``Feature`` isolated to the main actor, so a `@Sendable` closure, which may run
  /// anywhere, cannot even hold one of its recordings (SE-0470). A `MainStore` calls `save` on the
  /// main actor, so here it is a main-actor function, which keeps the recording as it is:
  ///
  /// ```swift
  /// let recorder = FlightRecorder<Basket>(
  ///   capacity: 500, invariant: Basket.holdsAtMostThree,
  ///   save: { recording in reports.keep(recording) })
  /// let store = MainStore<Basket>(state: .init(), deps: deps, recorder: recorder)
  /// ```
  ///
  /// A capacity or interval below 1 is a programming error, and traps with a message that says so.
  /// Given to an actor `Store` (for a feature that is not main-actor), the recorder's `save`
  /// still runs on the main actor: the store hands each recording over, a main-actor turn later.
  /// - Parameters:
  ///   - capacity: How many of the last events a recording always has; at least 1.
  ///   - checkpointInterval: How many events apart the state is copied; at least 1. Smaller costs
  ///     more copies of the state, larger keeps more events.
  ///   - feature: The feature's name in recordings; the type's full name unless given.
  ///   - redaction: How private data is kept out of recordings; none unless given.
  ///   - invariant: A rule about states to check after each event, if any.
  ///   - save: What to do with the recordings the store makes by itself, if anything: called on
  ///     the main actor.
  @MainActor
  public init(
    capacity: Int,
    checkpointInterval: Int = 100,
    feature: String = String(reflecting: F.self),
    redaction: Redaction = .none,
    invariant: Invariant? = nil,
    save: (@MainActor @Sendable (FlightRecording<F>) -> Void)? = nil
  ) {
    self.init(
      capacity: capacity, checkpointInterval: checkpointInterval, feature: feature,
      redaction: redaction, invariant: invariant, saving: save.map(onTheMainActor),
      onTheMainActor: save != nil)
  }

  /// How a recorder keeps private data out of its recordings: each event and state in a recording,
  /// each error's description and each failed work's id go through these closures when the
  /// recording is made.
  ///
  /// ```swift
  /// let redaction = FlightRecorder<Login>.Redaction(
  ///   event: { event in
  ///     guard case .passwordChanged = event else { return event }
  ///     return .passwordChanged("•••")
  ///   },
  ///   state: { state in
  ///     var state = state
  ///     state.password = ""
  ///     return state
  ///   })
  /// ```
  ///
  /// Work ids are often made from private input (`effects.run(id: "search \(query)")`), so a
  /// redaction hides them unless told otherwise: a failed work's id is recorded as its type, and
  /// for an enum its case, with `(…)` for any value it holds (`Search.Work.query(…)`,
  /// `Swift.String(…)`). Pass `workID:` to say more, `{ "\($0)" }` to keep ids whole.
  ///
  /// Redaction runs when a recording is made, not when an event is recorded, so that recording
  /// stays cheap: the ring in memory holds the events as they were, as the store's state does.
  /// Return a value the core accepts: a redacted recording replays the redacted events, and a
  /// replay can only be as faithful as what redaction keeps.
  public struct Redaction: Sendable {
    /// The event to put in a recording in place of an event.
    public let event: @Sendable (F.Event) -> F.Event
    /// The state to put in a recording in place of a state.
    public let state: @Sendable (F.State) -> F.State
    /// What a recording says of an error of failed work.
    public let error: @Sendable (any Error) -> String
    /// What a recording says of the id of failed work.
    public let workID: @Sendable (WorkID) -> String
    /// Whether this redaction changes anything: false only for ``none``.
    public let isRedacting: Bool

    /// Creates a redaction; an event, state or error closure not given keeps its values as they
    /// are, and work ids are hidden down to their type and case unless `workID` is given.
    /// - Parameters:
    ///   - event: The event to record in place of an event.
    ///   - state: The state to record in place of a state.
    ///   - error: What to record of an error; its description unless given.
    ///   - workID: What to record of a failed work's id; its type, and an enum's case, unless
    ///     given.
    public init(
      event: @escaping @Sendable (F.Event) -> F.Event = { $0 },
      state: @escaping @Sendable (F.State) -> F.State = { $0 },
      error: @escaping @Sendable (any Error) -> String = { String(describing: $0) },
      workID: (@Sendable (WorkID) -> String)? = nil
    ) {
      self.event = event
      self.state = state
      self.error = error
      self.workID = workID ?? { $0.kindDescription }
      self.isRedacting = true
    }

    private init(none: Void) {
      self.event = { $0 }
      self.state = { $0 }
      self.error = { String(describing: $0) }
      self.workID = { $0.description }
      self.isRedacting = false
    }

    /// No redaction: recordings keep events, states, errors and work ids as they were.
    public static var none: Redaction { Redaction(none: ()) }
  }

  /// A rule the app states about its states: a store with a recorder checks it after each event,
  /// and saves a recording when it breaks.
  ///
  /// A recording is saved when the rule breaks, not again while it stays broken: once it holds
  /// again, the next break saves again.
  public struct Invariant: Sendable {
    /// What the rule says, for the recording's ``FlightRecording/Trigger``.
    public let name: String
    /// Whether a state keeps the rule.
    ///
    /// Keep it quick and pure: it runs after every event, on the store's isolation.
    public let holds: @Sendable (F.State) -> Bool

    /// Creates a rule about states.
    /// - Parameters:
    ///   - name: What the rule says: "at most one load in flight".
    ///   - holds: Whether a state keeps the rule.
    public init(_ name: String, _ holds: @escaping @Sendable (F.State) -> Bool) {
      self.name = name
      self.holds = holds
    }
  }
}

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

extension FlightRecorder where F: SendableMetatype {
  /// Creates a recorder's settings.
  ///
  /// A capacity or interval below 1 is a programming error, and traps with a message that says so.
  /// - Parameters:
  ///   - capacity: How many of the last events a recording always has; at least 1.
  ///   - checkpointInterval: How many events apart the state is copied; at least 1. Smaller costs
  ///     more copies of the state, larger keeps more events.
  ///   - feature: The feature's name in recordings; the type's full name unless given.
  ///   - redaction: How private data is kept out of recordings; none unless given.
  ///   - invariant: A rule about states to check after each event, if any.
  ///   - save: What to do with the recordings the store makes by itself, if anything.
  public init(
    capacity: Int,
    checkpointInterval: Int = 100,
    feature: String = String(reflecting: F.self),
    redaction: Redaction = .none,
    invariant: Invariant? = nil,
    save: (@Sendable (FlightRecording<F>) -> Void)? = nil
  ) {
    self.init(
      capacity: capacity, checkpointInterval: checkpointInterval, feature: feature,
      redaction: redaction, invariant: invariant, saving: save)
  }
}

/// `save`, called on the main actor in a task of its own, wherever the recording is made.
///
/// NB: generic over the recording for the reason given below.
private func handedToTheMainActor<Recording: Sendable>(
  _ save: @escaping @Sendable (Recording) -> Void
) -> @Sendable (Recording) -> Void {
  { recording in Task { @MainActor in save(recording) } }
}

/// `save`, called where a `MainStore` calls it: on the main actor.
///
/// NB: generic over the recording, which is `Sendable`, and not over the feature, whose metatype
/// a `@Sendable` closure could not capture when its conformance is isolated.
private func onTheMainActor<Recording: Sendable>(
  _ save: @escaping @MainActor @Sendable (Recording) -> Void
) -> @Sendable (Recording) -> Void {
  { recording in
    MainActor.assumeIsolated { save(recording) }
  }
}
