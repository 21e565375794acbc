/// How events of one type reach the store's root event type: the plumbing behind ``Effects``.
///
/// The root route, a ``RootRoute``, is built once per store; an embedding of one child
/// (`EmbeddedChild`) wraps the parent's route in a ``ChildRoute``, made on first use and kept by the
/// parent's route; an embedding of many children wraps it in a ``MappedRoute`` per decision.
// NB: a class hierarchy rather than closures composed per level: an embedded child's executor maps
// its effects once per decision, and composed closures cost a route and two closure contexts per
// level, where a `MappedRoute` is one object. The root calls its owner's link directly rather than
// through a closure: one async call less for each event that work sends. Sendable because work
// captures it to deliver events; `enqueue` is only ever called on the store's executor.
@usableFromInline
package class EventRoute<Event: Sendable>: RouteNode, @unchecked Sendable {
  /// Creates a route; only its subclasses pass events on.
  @usableFromInline
  override init(keeper: RouteNode? = nil, key: AnyObject? = nil) {
    super.init(keeper: keeper, key: key)
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

  /// The route of the embedding with `key`, whose events `embed` wraps, and whose work runs in
  /// `scope`: made on first use, then kept by this route.
  // NB: one key per embedding, and one embedding wraps its child's events one way: the route made
  // first is the route for every later call. A route is used with one scope, so its child's scope
  // is made once too.
  // NB: the route holds its key, so no other embedding's key can take the same address while the
  // route is kept, and a key is found only with the route made for it (the downcast relies on
  // that). At most `childRouteLimit` routes are kept per route: an embedding made anew for each
  // decision (a computed `static var`, not a `static let`) gets a route that is not kept, so the
  // list cannot grow without bound.
  @inlinable
  final func child<Child: Sendable>(
    _ key: AnyObject, scope: () -> [WorkID], _ embed: () -> @Sendable (Child) -> Event
  ) -> ChildRoute<Event, Child> {
    let id = ObjectIdentifier(key)
    var kept = 0
    var next = firstChild
    while let node = next {
      if node.key == id { return unsafeDowncast(node, to: ChildRoute<Event, Child>.self) }
      kept += 1
      next = node.nextSibling
    }
    let keep = kept < childRouteLimit
    let route = ChildRoute(
      parent: self, embed: embed(), scope: scope(), key: key, keptByParent: keep)
    if keep {
      route.nextSibling = firstChild
      firstChild = route
    }
    return route
  }
}

/// How many child routes one route keeps (``EventRoute/child(_:scope:_:)``): more than any feature
/// declares embeddings.
@usableFromInline let childRouteLimit = 64

/// What every route has, whatever its events: what keeps it alive, and the routes of embedded
/// children made along it.
// NB: not generic, so that its fields are found without type metadata, and a route of any event
// type can be a keeper or a sibling.
@usableFromInline
package class RouteNode: @unchecked Sendable {
  // NB: a child route holds its parent unowned, so that the parent can keep it without a cycle:
  // work holds the keeper too (`Send`), which keeps the whole chain of child routes alive.
  /// The route that keeps this one alive, when that is not this route itself: the keeper of the
  /// route whose children include it.
  @usableFromInline unowned(unsafe) let keeperRef: RouteNode?
  // NB: a list through the children rather than an array: no array type to look up, and no
  // allocation but the child's own. Unchecked exclusivity: read and written only inside
  // `execute`, on the store's executor.
  /// The first of the routes of embedded children made along this one, each made once, so that
  /// performing a child's decision allocates no route.
  @exclusivity(unchecked) @usableFromInline final var firstChild: RouteNode?
  /// The next route made along this one's parent.
  @exclusivity(unchecked) @usableFromInline final var nextSibling: RouteNode?
  /// The key of the embedding this route is the child route of, for a ``ChildRoute``.
  @usableFromInline final let key: ObjectIdentifier?
  /// The object `key` identifies, kept so that its address stays its own.
  @usableFromInline final let keyObject: AnyObject?

  @usableFromInline
  init(keeper: RouteNode?, key: AnyObject? = nil) {
    self.keeperRef = keeper
    self.key = key.map(ObjectIdentifier.init)
    self.keyObject = key
  }

  /// The route that keeps this one, and the routes it passes events to, alive: work that sends
  /// along this route holds it.
  @inlinable
  final var keeper: RouteNode {
    keeperRef ?? self
  }
}

/// The route of an embedded child's events, kept by its parent's route: wraps each with `embed`
/// and passes it to the parent's route.
@usableFromInline
final class ChildRoute<Parent: Sendable, Event: Sendable>: EventRoute<Event>, @unchecked Sendable {
  // NB: unowned: the parent keeps this route in its `firstChild` list; the keeper that work holds
  // keeps the parent alive. A route the parent does not keep (past `childRouteLimit`) is its own
  // keeper, as a `MappedRoute` is: it holds its parent and its parent's keeper, and the routes
  // made along it hang from it.
  @usableFromInline unowned(unsafe) let parent: EventRoute<Parent>
  /// The parent, held, when the parent does not keep this route.
  @usableFromInline let parentOwner: EventRoute<Parent>?
  /// The parent's keeper, held, when the parent does not keep this route.
  @usableFromInline let parentKeeper: RouteNode?
  @usableFromInline let embed: @Sendable (Event) -> Parent
  /// The work scope of the child's effects.
  @usableFromInline let scope: [WorkID]

  @inlinable
  init(
    parent: EventRoute<Parent>, embed: @escaping @Sendable (Event) -> Parent, scope: [WorkID],
    key: AnyObject, keptByParent: Bool
  ) {
    self.parent = parent
    self.parentOwner = keptByParent ? nil : parent
    self.parentKeeper = keptByParent ? nil : parent.keeper
    self.embed = embed
    self.scope = scope
    super.init(keeper: keptByParent ? parent.keeper : nil, key: key)
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

/// A route for a child's events: wraps each with `embed` and passes it to the parent's route.
@usableFromInline
final class MappedRoute<Parent: Sendable, Event: Sendable>: EventRoute<Event>, @unchecked Sendable {
  @usableFromInline let parent: EventRoute<Parent>
  /// The parent's keeper, which keeps the parent alive when it is a ``ChildRoute``.
  @usableFromInline let parentKeeper: RouteNode
  @usableFromInline let embed: @Sendable (Event) -> Parent

  @inlinable
  init(parent: EventRoute<Parent>, embed: @escaping @Sendable (Event) -> Parent) {
    self.parent = parent
    self.parentKeeper = parent.keeper
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
final class RootRoute<F: Feature>: EventRoute<F.Event>, @unchecked Sendable {
  private let queued: QueuedEvents<F.Event>
  private let loopLink: LoopLink<F>

  /// Creates the route of a loop whose queue is `queued` and whose store `link` reaches.
  init(queued: QueuedEvents<F.Event>, link: LoopLink<F>) {
    self.queued = queued
    self.loopLink = link
    super.init()
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
