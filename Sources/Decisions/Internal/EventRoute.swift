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
  /// Creates a route; only its subclasses pass events on.
  @usableFromInline
  init() {}

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
    super.init()
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
final class RootRoute<Event: Sendable>: EventRoute<Event>, @unchecked Sendable {
  private let queued: QueuedEvents<Event>
  private let link: WorkHostLink<Event>

  /// Creates the route of a host whose queue is `queued` and whose owner `link` reaches.
  init(queued: QueuedEvents<Event>, link: WorkHostLink<Event>) {
    self.queued = queued
    self.link = link
    super.init()
  }

  override func enqueue(_ event: Event) {
    queued.events.append(event)
  }

  override func deliver(_ event: Event, from token: UInt64) async {
    await link.deliver(event, from: token)
  }
}
