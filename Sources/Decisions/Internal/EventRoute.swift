/// How events of one type reach the store's root event type: the plumbing behind ``Effects``.
///
/// The root route is built once per store; each embedding of a child feature composes a new one.
package final class EventRoute<Event: Sendable> {
  /// Queues an event behind the one being processed.
  ///
  /// Only valid on the store's executor.
  let enqueue: (Event) -> Void
  /// Delivers an event from the work with the given token, hopping to the store's executor.
  let deliver: @Sendable (Event, UInt64) async -> Void

  /// Creates a route from its two ways of passing an event on.
  package init(
    enqueue: @escaping (Event) -> Void, deliver: @escaping @Sendable (Event, UInt64) async -> Void
  ) {
    self.enqueue = enqueue
    self.deliver = deliver
  }

  /// A route for child events that wraps them with `embed` and sends them along this one.
  func map<Child: Sendable>(_ embed: @escaping @Sendable (Child) -> Event) -> EventRoute<Child> {
    let enqueue = self.enqueue
    let deliver = self.deliver
    return EventRoute<Child>(
      enqueue: { enqueue(embed($0)) },
      deliver: { event, token in await deliver(embed(event), token) }
    )
  }
}
