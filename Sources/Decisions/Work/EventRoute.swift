/// How events of one type reach the store's root event type: the plumbing behind ``Effects``.
///
/// The root route, a ``RootRoute``, is built once per store; each embedding of a child feature wraps
/// the parent's route in a ``MappedRoute``.
// NB: a class hierarchy rather than closures composed per level: an embedded child's executor maps
// its effects once per decision, and composed closures cost a route and two closure contexts per
// level, where a `MappedRoute` is one object. The root calls its owner's link directly rather than
// through a closure: one async call less for each event that work sends. Sendable because work
// captures it to deliver events; `enqueue` is only ever called on the store's executor.
@usableFromInline
package class EventRoute<Event: Sendable>: @unchecked Sendable {
  // NB: here, so that work's task reaches the link through the route it holds anyway: a link of
  // its own in the task's context cost a retain as the work starts and a release as it ends, on
  // another thread.
  /// Where the work that sends along this route reports its end.
  @usableFromInline let link: WorkLink

  /// Creates a route whose work reports its end to `link`; only its subclasses pass events on.
  @usableFromInline
  init(link: WorkLink) {
    self.link = link
  }

  /// Queues an event behind the one being processed.
  ///
  /// Only valid on the store's executor.
  @usableFromInline
  func enqueue(_ event: Event) {}

  /// Delivers an event from the work with the given token, hopping to the store's executor.
  @usableFromInline
  func deliver(_ event: Event, from token: UInt64) async {}

  /// A route for child events that wraps them with `embed` and sends them along this one.
  @inlinable
  final func map<Child: Sendable>(
    _ embed: @escaping @Sendable (Child) -> Event
  ) -> EventRoute<Child> {
    MappedRoute(parent: self, embed: embed)
  }
}

/// A route for a child's events: wraps each with `embed` and passes it to the parent's route.
@usableFromInline
final class MappedRoute<Parent: Sendable, Event: Sendable>: EventRoute<Event>, @unchecked Sendable {
  @usableFromInline let parent: EventRoute<Parent>
  @usableFromInline let embed: @Sendable (Event) -> Parent

  @inlinable
  init(parent: EventRoute<Parent>, embed: @escaping @Sendable (Event) -> Parent) {
    self.parent = parent
    self.embed = embed
    super.init(link: parent.link)
  }

  @inlinable
  override func enqueue(_ event: Event) {
    parent.enqueue(embed(event))
  }

  @inlinable
  override func deliver(_ event: Event, from token: UInt64) async {
    await parent.deliver(embed(event), from: token)
  }
}

/// The route of the store's own events: queues them on the store's executor, and delivers events
/// from work through the store's link.
final class RootRoute<F: Feature>: EventRoute<F.Event>, @unchecked Sendable {
  private let queued: QueuedEvents<F.Event>
  private let loopLink: LoopLink<F>

  /// Creates the route of a loop whose queue is `queued` and whose store `link` reaches.
  init(queued: QueuedEvents<F.Event>, link: LoopLink<F>) {
    self.queued = queued
    self.loopLink = link
    super.init(link: link)
  }

  override func enqueue(_ event: F.Event) {
    queued.events.append(event)
    queued.isEmpty = false
  }

  override func deliver(_ event: F.Event, from token: UInt64) async {
    await loopLink.deliver(event, from: token)
  }
}

/// Events queued behind the current one with ``Effects/send(_:)``, on the owner's executor.
final class QueuedEvents<Event> {
  // NB: unchecked exclusivity: used only on one executor, where a dynamic check would cost more
  // than reading the array.
  /// The events, oldest first.
  @exclusivity(unchecked) package var events: [Event] = []
  // NB: a flag for the loop's check after each event that decided something: reading
  // `events.count` retained and released the array.
  /// Whether `events` is empty; kept by whoever appends and by ``removeAll()``.
  @exclusivity(unchecked) package var isEmpty = true

  /// Creates an empty queue.
  init() {}

  /// How many events of room a quiet queue keeps.
  private static var retainedCapacity: Int { 1_024 }

  /// Empties the queue, keeping its room unless a burst made it large.
  func removeAll() {
    // NB: after a burst, give the room back rather than keep it for the owner's life.
    events.removeAll(keepingCapacity: events.capacity <= Self.retainedCapacity)
    isEmpty = true
  }

  /// Whether the queue keeps far more room than a quiet owner needs, for tests of memory after a
  /// burst.
  var isOversized: Bool { events.capacity > Self.retainedCapacity }
}
