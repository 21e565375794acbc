import Decisions
import DecisionsTesting
import TestSupport
import Testing

/// `WorkID` equality and hashing agree, for optionals, class hierarchies and mixed types.
@Suite struct WorkIDTests {
  class Base: Hashable, @unchecked Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
    static func == (lhs: Base, rhs: Base) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
  }
  final class Sub: Base, @unchecked Sendable {}

  /// Checks the `Hashable` contract for a pair: equal ids hash alike, and `==` is symmetric.
  func expectLawful(_ a: WorkID, _ b: WorkID, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(
      (a == b) == (b == a), "== is not symmetric for \(a) and \(b)", sourceLocation: sourceLocation)
    if a == b {
      #expect(
        a.hashValue == b.hashValue, "\(a) == \(b) but hashes differ", sourceLocation: sourceLocation
      )
    }
  }

  @Test func anOptionalIsTheSameKeyAsItsValue() {
    #expect(WorkID(Optional(1)) == WorkID(1))
    #expect(WorkID(1) == WorkID(Optional(1)))
    #expect(WorkID(Optional(Optional("a"))) == WorkID("a"))
    #expect(Set([WorkID(1), WorkID(Optional(1))]).count == 1)
    expectLawful(WorkID(Optional(1)), WorkID(1))
  }

  @Test func nilOfDifferentTypesAreDifferentKeys() {
    #expect(WorkID(Int?.none) == WorkID(Int?.none))
    #expect(WorkID(Int?.none) != WorkID(String?.none))
    #expect(WorkID(Int?.none) != WorkID(0))
    expectLawful(WorkID(Int?.none), WorkID(String?.none))
  }

  @Test func aClassAndItsSubclassAreDifferentKeysBothWays() {
    let base = WorkID(Base(1))
    let sub = WorkID(Sub(1) as Base)
    #expect(base != sub)
    #expect(sub != base)
    #expect(WorkID(Sub(1)) == WorkID(Sub(1)))
    expectLawful(base, sub)
    expectLawful(WorkID(Sub(1)), WorkID(Sub(1)))
  }

  @Test func valuesOfDifferentTypesAreDifferentKeys() {
    let ids = [
      WorkID(1), WorkID("1"), WorkID(Int8(1)), WorkID(1.0), WorkID(Optional(2)), WorkID(2),
    ]
    for a in ids {
      for b in ids { expectLawful(a, b) }
    }
    #expect(WorkID(1) != WorkID("1"))
    #expect(WorkID(1) != WorkID(Int8(1)))
    #expect(Set(ids).count == 5)
  }

  /// A copy of an id is equal to it, even when its value is not equal to itself (`nan`); two ids
  /// made apart from such a value are not.
  @Test func aCopyOfAnIdIsEqualToIt() {
    let id = WorkID(Double.nan)
    let copy = id
    #expect(copy == id)
    #expect(Set([id, copy]).count == 1)
    #expect(WorkID(Double.nan) != id)
    #expect(WorkID(1.5) == WorkID(1.5))
    #expect(WorkID(1.5).hashValue == WorkID(1.5).hashValue)
  }

  @Test func wrappingAnIdKeepsIt() {
    #expect(WorkID(WorkID("a")) == WorkID("a"))
    #expect(WorkID(Optional(WorkID("a"))) == WorkID("a"))
    #expect(WorkID(Optional(Optional(WorkID("a")))) == WorkID("a"))
    #expect(WorkID(WorkID(Optional("a"))).base as? String? == "a")
  }

  @Test func workStartedWithOptionalIdsIsCancelledByTheirValues() async {
    let gate = Gate()
    let cancelled = Calls<Bool>()
    let store = Store<OptionalKeys>(
      state: .init(),
      deps: .init(wait: { cancelled.record(await gate.waitUnlessCancelled()) }))
    for id in 0..<1_000 { await store.send(.start(id)) }
    for id in 0..<1_000 { await store.send(.cancel(id)) }
    gate.open()
    await store.settle()
    #expect(cancelled.all.count == 1_000)
    #expect(cancelled.all.filter { $0 }.count == 1_000)
  }
}

/// Starts work keyed by an optional id and cancels it by the plain value.
private enum OptionalKeys: Feature {
  struct State: Equatable, Sendable {}
  enum Event: Sendable {
    case start(Int)
    case cancel(Int)
  }
  enum Decision: Sendable {
    case start(Int?)
    case cancel(Int)
  }
  struct Deps: Sendable {
    var wait: @Sendable () async -> Void
  }
  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start(let id): [.start(id)]
    case .cancel(let id): [.cancel(id)]
    }
  }
  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .start(let id): effects.run(id: id) { _ in await deps.wait() }
    case .cancel(let id): effects.cancel(id: id)
    }
  }
}
