/// How events of one type reach the store's root event type: the plumbing behind ``Effects``.
///
/// The root route is built once per store, from two closures; each embedding of a child feature
/// wraps the parent's route in a ``MappedRoute``.
// NB: a class hierarchy rather than closures composed per level: an embedded child's executor maps
// its effects once per decision, and composed closures cost a route and two closure contexts per
// level, where a `MappedRoute` is one object. Sendable because work captures it to deliver events;
// `enqueue` is only ever called on the store's executor.
@usableFromInline
package class EventRoute<Event: Sendable>: @unchecked Sendable {
  private let enqueueHandler: ((Event) -> Void)?
  private let deliverHandler: (@Sendable (Event, UInt64) async -> Void)?

  /// Creates a root route from its two ways of passing an event on.
  package convenience init(
    enqueue: @escaping (Event) -> Void, deliver: @escaping @Sendable (Event, UInt64) async -> Void
  ) {
    self.init(handlers: enqueue, deliver)
  }

  /// Creates a route that passes events to the handlers, or, without them, one whose subclass
  /// passes events on itself.
  // NB: the convenience initializer above keeps the compiler from synthesizing an initializer stub
  // in `MappedRoute`, which it then reports as infinite recursion.
  @usableFromInline
  init(
    handlers enqueue: ((Event) -> Void)?, _ deliver: (@Sendable (Event, UInt64) async -> Void)?
  ) {
    self.enqueueHandler = enqueue
    self.deliverHandler = deliver
  }

  /// Queues an event behind the one being processed.
  ///
  /// Only valid on the store's executor.
  @usableFromInline
  func enqueue(_ event: Event) {
    enqueueHandler?(event)
  }

  /// Delivers an event from the work with the given token, hopping to the store's executor.
  @usableFromInline
  func deliver(_ event: Event, from token: UInt64) async {
    await deliverHandler?(event, token)
  }

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
    super.init(handlers: nil, nil)
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
