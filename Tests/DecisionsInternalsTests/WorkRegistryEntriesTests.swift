import TestSupport
import Testing

@testable import Decisions

/// The registry's table of running work, checked against a `Dictionary` doing the same operations.
@Suite struct WorkRegistryEntriesTests {
  /// An entry that tells which token it was stored for, through its scope.
  private static func entry(_ token: UInt64) -> WorkRegistry.Entry {
    WorkRegistry.Entry(scope: [WorkID(token)], id: nil, task: nil)
  }

  private static func token(of entry: WorkRegistry.Entry?) -> UInt64? {
    entry?.scope.first?.base as? UInt64
  }

  @Test func storesFindsAndRemovesEntries() {
    var table = WorkRegistry.Entries()
    #expect(table.isEmpty && table.capacity == 0)
    #expect(table[1] == nil)
    #expect(table.remove(1) == nil)
    for token in UInt64(1)...5 { table.set(Self.entry(token), for: token) }
    #expect(table.count == 5)
    #expect(Self.token(of: table[3]) == 3)
    #expect(Self.token(of: table.remove(3)) == 3)
    #expect(table[3] == nil)
    #expect(table.count == 4)
    #expect(Set(table.tokens) == [1, 2, 4, 5])
    #expect(Set(table.all.map(\.token)) == [1, 2, 4, 5])
    #expect(table.all.allSatisfy { Self.token(of: $0.entry) == $0.token })
  }

  @Test func replacesAndUpdatesInPlace() {
    var table = WorkRegistry.Entries()
    table.set(Self.entry(7), for: 7)
    #expect(table.isCancelled(7) == false)
    table.update(7) { $0.isCancelled = true }
    #expect(table.isCancelled(7) == true)
    #expect(table.isCancelled(8) == nil)
    table.update(8) { $0.isCancelled = true }  // no entry: nothing happens
    #expect(table[8] == nil)
    table.set(Self.entry(7), for: 7)
    #expect(table.isCancelled(7) == false)
    #expect(table.count == 1)
  }

  /// Tokens that share a home slot, and runs that wrap around the end of the slots, so that removal
  /// has to shift entries back across the wrap.
  @Test func removalKeepsCollidingAndWrappingRunsFindable() {
    var table = WorkRegistry.Entries()
    // NB: 8 slots until a fifth entry: 7, 15 and 23 all start at slot 7 and wrap to 0 and 1.
    for token: UInt64 in [7, 15, 23] { table.set(Self.entry(token), for: token) }
    #expect(table.capacity == 8)
    #expect(Self.token(of: table.remove(7)) == 7)
    #expect(Self.token(of: table[15]) == 15)
    #expect(Self.token(of: table[23]) == 23)
    table.set(Self.entry(8), for: 8)  // home slot 0, taken by 15 or 23 before the shift
    #expect(Self.token(of: table.remove(15)) == 15)
    #expect(Self.token(of: table[23]) == 23)
    #expect(Self.token(of: table[8]) == 8)
    #expect(table.count == 2)
  }

  /// Random operations, as a store makes them: tokens handed out in order, work ending in any
  /// order, long-lived work among short, compared with a dictionary after every step.
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func behavesAsADictionary(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var table = WorkRegistry.Entries()
    var model: [UInt64: UInt64] = [:]
    var next: UInt64 = 0
    for _ in 0..<20_000 {
      switch random.next() % 10 {
      case 0..<5:
        next += 1
        // As the registry does: a token just handed out skips the search; `set` searches first.
        if next.isMultiple(of: 2) {
          table.insert(Self.entry(next), forNew: next)
        } else {
          table.set(Self.entry(next), for: next)
        }
        model[next] = next
      case 5..<9:
        guard let token = model.keys.randomElement(using: &random) else { continue }
        #expect(Self.token(of: table.remove(token)) == model.removeValue(forKey: token))
      default:
        let token = random.next() % (next + 2)
        #expect(Self.token(of: table[token]) == model[token])
      }
      if model.count < 4 { table.shrink(keeping: 8) }
      guard table.count == model.count else {
        Issue.record("the table holds \(table.count) entries, the dictionary \(model.count)")
        return
      }
    }
    #expect(Set(table.tokens) == Set(model.keys))
    for (token, value) in model { #expect(Self.token(of: table[token]) == value) }
  }

  /// 20,000 pieces of work alive at once hold consecutive tokens, which fill one long run of
  /// slots; removing them, oldest first as a storm of replaced work ends, or in any order, must not
  /// scan the rest of the run each time.
  #if DEBUG
    @Test(arguments: [false, true])
    func removalsFromALongRunCostLittle(shuffled: Bool) {
      var table = WorkRegistry.Entries()
      let count: UInt64 = 20_000
      for token in 1...count { table.set(Self.entry(token), for: token) }
      var random = SeededRandom(seed: 7)
      let order = shuffled ? (1...count).shuffled(using: &random) : Array(1...count)
      for token in order {
        #expect(Self.token(of: table.remove(token)) == token)
      }
      #expect(table.isEmpty)
      #expect(table.scanned <= 2 * Int(count))  // about one slot per removal, not the run
    }
  #endif

  /// 1,000 pieces of work that live long (rows loading) beside work that comes and goes: once the
  /// tokens of the short work wrapped around the table, they must not land in the long work's run
  /// and walk it.
  #if DEBUG
    @Test func workThatComesAndGoesBesideLongWorkCostsLittle() {
      var table = WorkRegistry.Entries()
      for token in UInt64(1)...1_000 { table.set(Self.entry(token), for: token) }
      let probedBefore = table.probed
      let churn: UInt64 = 20_000
      for token in UInt64(1_001)...(1_000 + churn) {
        table.set(Self.entry(token), for: token)
        #expect(Self.token(of: table.remove(token)) == token)
      }
      #expect(table.count == 1_000)
      #expect(table.probed - probedBefore <= 4 * Int(churn))  // a few slots per start, not 1,000
    }
  #endif

  @Test func growsAtHalfFullAndShrinksWhenSparse() {
    var table = WorkRegistry.Entries()
    for token in UInt64(1)...1_000 { table.set(Self.entry(token), for: token) }
    #expect(table.capacity == 2_048)
    table.shrink(keeping: 64)
    #expect(table.capacity == 2_048)  // full enough: kept
    for token in UInt64(1)...990 { table.remove(token) }
    table.shrink(keeping: 64)
    #expect(table.capacity == 32)
    #expect(Set(table.tokens) == Set(UInt64(991)...1_000))
    for token in UInt64(991)...1_000 { #expect(Self.token(of: table[token]) == token) }
    table.shrink(keeping: 64)
    #expect(table.capacity == 32)  // at most what it may keep: left alone
  }
}
