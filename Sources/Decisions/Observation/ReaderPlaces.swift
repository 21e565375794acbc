/// Where the readers of a ``StateLog`` are: the number of the next state each will read.
///
/// Readers join at the end of the log and move only to its end, so places come in increasing
/// order. Kept as a queue of places, each with how many readers are at it, the lowest place is the
/// first one, and joining, moving and leaving cost O(1), amortised, without looking at the other
/// readers. A reader knows its place by number; numbers stay valid while places before it go.
@usableFromInline
struct ReaderPlaces {
  /// A place some readers were at.
  @usableFromInline
  struct Place {
    /// The number of the next state the readers at this place will read.
    @usableFromInline var cursor: Int
    /// How many readers are at it.
    @usableFromInline var readers: Int

    @inlinable
    init(cursor: Int, readers: Int) {
      self.cursor = cursor
      self.readers = readers
    }
  }

  // NB: the places before `head` have no reader left and wait to be dropped in one go, so that
  // dropping the lowest place shifts nothing. After `head`, cursors increase; the place at `head`
  // has a reader, and later ones may have none until they come first.
  /// The places, oldest first: `places[i]` is place number `firstNumber + i`.
  @usableFromInline var places: ContiguousArray<Place> = []
  /// The index of the lowest place with a reader, or `places.count` when there is no reader.
  @usableFromInline var head = 0
  /// The number of `places[0]`.
  @usableFromInline var firstNumber = 0

  @inlinable init() {}

  /// The lowest place a reader is at; `nil` when there is no reader.
  @inlinable var lowest: Int? { head < places.count ? places[head].cursor : nil }

  /// Adds a reader at `cursor`, which must be at least every place, and returns its place's number.
  @inlinable
  mutating func add(at cursor: Int) -> Int {
    let last = places.count - 1
    if last >= head, places[last].cursor == cursor || places[last].readers == 0 {
      // NB: a last place with no reader is not the first, so moving it up keeps the order.
      places[last].cursor = cursor
      places[last].readers += 1
    } else {
      places.append(Place(cursor: cursor, readers: 1))
    }
    return firstNumber + places.count - 1
  }

  /// Moves a reader from place `number` to `cursor`, which must be at least every place, and
  /// returns the number of its new place.
  @inlinable
  mutating func move(_ number: Int, to cursor: Int) -> Int {
    let index = number - firstNumber
    if index == places.count - 1, places[index].readers == 1 {
      // NB: alone at the last place: the place moves with it.
      places[index].cursor = cursor
      return number
    }
    places[index].readers -= 1
    let moved = add(at: cursor)
    dropUnused()
    return moved
  }

  /// Removes a reader from place `number`, and returns how many places were let go of.
  @inlinable
  @discardableResult
  mutating func remove(_ number: Int) -> Int {
    places[number - firstNumber].readers -= 1
    return dropUnused()
  }

  /// Lets go of the lowest places while no reader is at them, and returns how many.
  // NB: amortised O(1): each place is let go of once, and moving the places after `head` to the
  // front copies no more of them than were let go of.
  @inlinable
  @discardableResult
  mutating func dropUnused() -> Int {
    let start = head
    while head < places.count, places[head].readers == 0 { head += 1 }
    let dropped = head - start
    guard dropped > 0 else { return 0 }
    if head == places.count {
      firstNumber += head
      head = 0
      places.removeAll(keepingCapacity: places.capacity <= 64)
    } else if head >= 32, head * 2 >= places.count {
      places.removeFirst(head)
      firstNumber += head
      head = 0
    }
    return dropped
  }
}
