/// The running work of a ``WorkRegistry``, by token: a hash table keyed by the tokens the registry
/// hands out, one after the other, from 1.
///
/// Open addressing with linear probing, at most half full, kept in Robin Hood order: within a run
/// of occupied slots, entries are in the order of their home slots, so an entry that sits in its
/// home slot ends the part of the run that a removal has to shift back. Removing leaves no
/// tombstone.
// NB: without the Robin Hood order, a removal had to scan to the end of its run, and the tokens of
// 20,000 pieces of work alive at once fill one run of 20,000 slots: a storm of replaced work took
// quadratic time (`StoreBurstTests`, over a minute under ThreadSanitizer).
// NB: not a `Dictionary`: hashing a token with the standard library's seeded hasher, three times per
// piece of work (its start, each event it sends, its end), cost about 350 instructions of a round
// trip (decisions-bench case 5). A token's home slot is its Fibonacci hash, a multiplication and a
// shift: its low bits alone spread a window of consecutive tokens well, but not work that lives
// long beside work that comes and goes (1,000 rows loading while other work churns): once the
// churned tokens wrapped around the table, each landed in the long-lived tokens' run and walked it,
// O(n) per start, lookup and end (decisions-bench case 15e, `WorkTableTests`).
// NB: the slots hold only the token and the index of the entry, in a dense array beside them: a
// slot is trivially copyable, so probing, Robin Hood swaps and resizing move 16 bytes with no value
// witness, and reading an entry's flag copies nothing. With the entries (a scope, an optional
// `WorkID` of two existentials, a task) in the slots, each start, event and end of a round trip
// copied them through their value witnesses, with a retain and a release for each reference in
// them (about 400 instructions and 8 atomic operations per trip, decisions-bench case 5a).
package struct WorkTable {
  /// A slot: empty when `token` is 0; else its entry is `stored[index]`.
  private struct Slot {
    var token: UInt64
    var index: Int
  }

  /// The slots; their count is zero or a power of two.
  private var slots: [Slot] = []
  /// The entries, in no particular order; a removal moves the last one into the hole.
  private var stored: [WorkRegistry.Entry] = []
  /// The token of each entry in `stored`, at the same index.
  private var storedTokens: [UInt64] = []

  /// How many entries the table holds.
  package var count: Int { stored.count }

  /// Creates an empty table, which allocates nothing until the first entry.
  package init() {}

  /// Whether the table holds no entry.
  package var isEmpty: Bool { stored.isEmpty }

  /// How many slots the table has.
  package var capacity: Int { slots.count }

  /// The fewest slots a table that holds anything has.
  private static var minimumCapacity: Int { 8 }

  /// The entry for `token`, if the table holds one.
  package subscript(token: UInt64) -> WorkRegistry.Entry? {
    guard let slot = index(of: token) else { return nil }
    return stored[slots[slot].index]
  }

  /// Whether the work for `token` is cancelled; `nil` when the table holds no entry for it.
  // NB: reads the flag in place, without copying the entry (its scope, id and task).
  package func isCancelled(_ token: UInt64) -> Bool? {
    guard let slot = index(of: token) else { return nil }
    return stored[slots[slot].index].isCancelled
  }

  /// Stores `entry` for `token`, replacing the entry it had.
  /// - Parameters:
  ///   - entry: The entry.
  ///   - token: A token other than 0.
  package mutating func set(_ entry: consuming WorkRegistry.Entry, for token: UInt64) {
    precondition(token != 0, "work token 0 marks an empty slot")
    if let slot = index(of: token) {
      stored[slots[slot].index] = entry
      return
    }
    insert(entry, forNew: token)
  }

  /// Stores `entry` for `token`, which the table does not hold: a token just handed out.
  ///
  /// It skips the search that ``set(_:for:)`` begins with.
  /// - Parameters:
  ///   - entry: The entry.
  ///   - token: A token other than 0, not in the table.
  package mutating func insert(_ entry: consuming WorkRegistry.Entry, forNew token: UInt64) {
    precondition(token != 0, "work token 0 marks an empty slot")
    assert(index(of: token) == nil, "work token \(token) is already in the table")
    if (stored.count + 1) * 2 > slots.count {
      resize(to: Swift.max(Self.minimumCapacity, slots.count * 2))
    }
    insert(Slot(token: token, index: stored.count))
    stored.append(entry)
    storedTokens.append(token)
  }

  /// Changes the entry for `token` in place, if the table holds one.
  package mutating func update(_ token: UInt64, _ change: (inout WorkRegistry.Entry) -> Void) {
    guard let slot = index(of: token) else { return }
    change(&stored[slots[slot].index])
  }

  /// Removes and returns the entry for `token`, if the table holds one.
  @discardableResult
  package mutating func remove(_ token: UInt64) -> WorkRegistry.Entry? {
    guard var hole = index(of: token) else { return nil }
    let position = slots[hole].index
    // NB: the entries after the hole that are not in their home slot move back one slot each; the
    // first empty slot, or the first entry in its home slot, ends the shift (Robin Hood order).
    let mask = slots.count - 1
    var next = (hole + 1) & mask
    while true {
      #if DEBUG
        scanned += 1
      #endif
      guard slots[next].token != 0, distance(of: next, mask: mask) > 0 else { break }
      slots[hole] = slots[next]
      hole = next
      next = (next + 1) & mask
    }
    slots[hole] = Slot(token: 0, index: 0)
    // NB: the last entry moves into the removed one's place, and its slot learns its new index.
    let last = stored.count - 1
    if position != last {
      // NB: through the buffer, whose `swapAt` moves the entries: the array's copies them, with a
      // retain and a release of each reference in them.
      stored.withUnsafeMutableBufferPointer { $0.swapAt(position, last) }
      storedTokens[position] = storedTokens[last]
      slots[index(of: storedTokens[position]).unsafelyUnwrapped].index = position
    }
    storedTokens.removeLast()
    return stored.removeLast()
  }

  #if DEBUG
    /// How many slots removals have looked at after the removed entry, for tests of their cost.
    package private(set) var scanned = 0
    /// How many occupied slots insertions have passed, for tests of their cost.
    package private(set) var probed = 0
  #endif

  /// Gives back the room of a table far larger than what it holds: after a storm of work, a table
  /// keeps room for all of it until this is called.
  /// - Parameter retained: How many slots a table may keep however little it holds.
  package mutating func shrink(keeping retained: Int) {
    guard slots.count > retained, count < slots.count / 8 else { return }
    var capacity = Self.minimumCapacity
    while capacity < count * 2 { capacity *= 2 }
    resize(to: capacity)
    stored = Self.copy(stored)
    storedTokens = Self.copy(storedTokens)
  }

  /// A copy of `elements` with room for no more.
  private static func copy<Element>(_ elements: [Element]) -> [Element] {
    var copy: [Element] = []
    copy.reserveCapacity(elements.count)
    copy.append(contentsOf: elements)
    return copy
  }

  /// How many entries the table keeps room for without growing, for tests of its memory.
  package var storageCapacity: Int { Swift.max(stored.capacity, storedTokens.capacity) }

  /// The tokens the table holds, in no particular order.
  package var tokens: [UInt64] { storedTokens }

  /// Calls `body` with each token and entry the table holds, in no particular order, without
  /// copying the table.
  package func visitEach(_ body: (_ token: UInt64, _ entry: WorkRegistry.Entry) -> Void) {
    var index = 0
    while index < stored.count {
      body(storedTokens[index], stored[index])
      index += 1
    }
  }

  /// The tokens and entries the table holds, in no particular order.
  package var all: [(token: UInt64, entry: WorkRegistry.Entry)] {
    Array(zip(storedTokens, stored))
  }

  // MARK: - Probing

  /// The slot a token is looked for first.
  private static func home(of token: UInt64, mask: Int) -> Int {
    Int(truncatingIfNeeded: (token &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }

  /// The slot that holds `token`, if any.
  private func index(of token: UInt64) -> Int? {
    guard !slots.isEmpty, token != 0 else { return nil }
    let mask = slots.count - 1
    var index = Self.home(of: token, mask: mask)
    while true {
      let found = slots[index].token
      if found == token { return index }
      if found == 0 { return nil }
      index = (index + 1) & mask
    }
  }

  /// How far the entry in slot `index` is from its home slot.
  private func distance(of index: Int, mask: Int) -> Int {
    (index - Self.home(of: slots[index].token, mask: mask)) & mask
  }

  /// Puts `slot` in the table, which must have an empty slot, keeping the Robin Hood order: an
  /// entry nearer its home than the one being placed makes room and is placed further on.
  private mutating func insert(_ slot: Slot) {
    var slot = slot
    let mask = slots.count - 1
    var index = Self.home(of: slot.token, mask: mask)
    var travelled = 0
    while slots[index].token != 0 {
      #if DEBUG
        probed += 1
      #endif
      let resident = distance(of: index, mask: mask)
      if resident < travelled {
        swap(&slots[index], &slot)
        travelled = resident
      }
      index = (index + 1) & mask
      travelled += 1
    }
    slots[index] = slot
  }

  /// Moves every slot into a table of `capacity` slots, a power of two.
  private mutating func resize(to capacity: Int) {
    let old = slots
    slots = Array(repeating: Slot(token: 0, index: 0), count: capacity)
    for slot in old where slot.token != 0 {
      insert(slot)
    }
  }
}
