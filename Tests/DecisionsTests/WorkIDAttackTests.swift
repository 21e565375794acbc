import Decisions
import DecisionsTesting
import TestSupport
import Testing

// Attacks on `WorkID` holding its value, key and hash in one object that its copies share.

/// A class whose instances are equal by value, with a subclass.
private class Token: Hashable, @unchecked Sendable {
  let value: Int
  init(_ value: Int) { self.value = value }
  static func == (lhs: Token, rhs: Token) -> Bool { lhs.value == rhs.value }
  func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
private final class SubToken: Token, @unchecked Sendable {}

/// A class that is never equal, not even to itself, as `Double.nan`.
private final class NeverEqual: Hashable, @unchecked Sendable {
  static func == (lhs: NeverEqual, rhs: NeverEqual) -> Bool { false }
  func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

/// Whether `lhs == rhs` agrees with `rhs == lhs`, and equal ids hash alike.
private func lawful(_ lhs: WorkID, _ rhs: WorkID) -> Bool {
  (lhs == rhs) == (rhs == lhs) && (lhs != rhs || lhs.hashValue == rhs.hashValue)
}

@Suite struct WorkIDAttackTests {
  /// Fresh ids of equal values are equal and hash alike, whatever the value's kind, and copies
  /// of an id are equal to fresh ones.
  @Test func freshIdsOfEqualValuesAreEqual() {
    let pairs: [(WorkID, WorkID)] = [
      (WorkID(1), WorkID(1)),
      (WorkID("a"), WorkID("a")),
      (WorkID(Optional(1)), WorkID(1)),
      (WorkID(Optional(Optional(1))), WorkID(1)),
      (WorkID(Optional(Optional(Optional("x")))), WorkID("x")),
      (WorkID(Token(3)), WorkID(Token(3))),
      (WorkID(SubToken(3)), WorkID(SubToken(3))),
      (WorkID(Optional(WorkID(5))), WorkID(5)),
      (WorkID(Optional(Optional(WorkID("w")))), WorkID("w")),
      (WorkID(WorkID(WorkID(2))), WorkID(2)),
    ]
    for (lhs, rhs) in pairs {
      #expect(lhs == rhs, "\(lhs) == \(rhs)")
      #expect(lhs.hashValue == rhs.hashValue)
      let copy = lhs
      #expect(copy == rhs && rhs == copy)
      #expect(Set([lhs, rhs, copy]).count == 1)
    }
  }

  /// Ids of values of different types stay apart, in both orders, and agree with hashing.
  @Test func idsOfDifferentTypesStayApart() {
    let ids = [
      WorkID(1), WorkID(Int8(1)), WorkID("1"), WorkID(Token(1)), WorkID(SubToken(1)),
      WorkID(Optional<Int>.none), WorkID(Optional<String>.none), WorkID(Optional<WorkID>.none),
    ]
    for (i, lhs) in ids.enumerated() {
      for (j, rhs) in ids.enumerated() {
        #expect(lawful(lhs, rhs))
        #expect((lhs == rhs) == (i == j), "\(lhs) vs \(rhs)")
      }
    }
    #expect(Set(ids).count == ids.count)
  }

  /// An id of a value that is not equal to itself (`Double.nan`, or a class whose `==` is always
  /// false): before the ids held one object, such an id was not equal to itself or its copies;
  /// now a copy is equal to it (the shared object), a fresh id of the same value is not.
  @Test func anIdOfAValueNotEqualToItself() {
    let nan = WorkID(Double.nan)
    let copy = nan
    // NB: the behaviour that changed: this was false.
    #expect(nan == copy)
    #expect(WorkID(nan) == nan)
    #expect(nan != WorkID(Double.nan))
    let object = NeverEqual()
    let never = WorkID(object)
    #expect(never == never)
    #expect(never != WorkID(object))
    // NB: a set holds a copy: found by it, not by a fresh id of the very same object.
    #expect(Set([never]).contains(never))
    #expect(!Set([never]).contains(WorkID(object)))
  }

  /// The description and the `base` of an id are those of the value it was made from.
  @Test func descriptionAndBase() {
    #expect(WorkID(Optional(Optional(7))).description == "7")
    #expect(WorkID(Token(4)).base as? Token == Token(4))
    #expect(WorkID(Optional(3)).base as? Int? == Optional(3))
    #expect(WorkID(WorkID("s")).base as? String == "s")
    let existential: any Hashable & Sendable = WorkID(9)
    #expect(WorkID(existential).base as? Int == 9)
  }

  /// Work keyed by a class instance is cancelled by a fresh, equal instance, wrapped in optionals
  /// or not; work keyed by a subclass's instance is not; and a start with an equal id made
  /// elsewhere replaces the work.
  @Test func storeWorkKeyedByFreshEqualIds() async {
    let gate = Gate()
    let cancelled = Calls<String>()
    let store = Store<ClassKeys>(
      state: .init(),
      deps: .init(wait: { name in
        if await gate.waitUnlessCancelled() { cancelled.record(name) }
      }))
    await store.send(.start("a", Token(1)))
    await store.send(.start("b", SubToken(2)))
    await store.send(.start("c", Token(3)))
    await store.send(.startOptional("d", Token(4)))
    await store.send(.cancel(Token(1)))
    // NB: a `Token(2)` is not a `SubToken(2)`.
    await store.send(.cancel(Token(2)))
    // NB: replaces "c", started with another instance of an equal value.
    await store.send(.start("e", Token(3)))
    await store.send(.cancelOptional(Token(4)))
    gate.open()
    await store.settle()
    #expect(Set(cancelled.all) == ["a", "c", "d"])
  }
}

/// Starts work keyed by class instances, and cancels it by other instances.
private enum ClassKeys: Feature {
  struct State: Equatable, Sendable {}
  enum Event: Sendable {
    case start(String, Token)
    case startOptional(String, Token)
    case cancel(Token)
    case cancelOptional(Token)
  }
  enum Decision: Sendable {
    case start(String, Token?)
    case cancel(Token??)
  }
  struct Deps: Sendable {
    var wait: @Sendable (String) async -> Void
  }
  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start(let name, let id): [.start(name, id)]
    case .startOptional(let name, let id): [.start(name, Optional(id))]
    case .cancel(let id): [.cancel(id)]
    case .cancelOptional(let id): [.cancel(Optional(Optional(id)))]
    }
  }
  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .start(let name, let id?): effects.run(id: id) { _ in await deps.wait(name) }
    case .start(_, nil): break
    case .cancel(let id): effects.cancel(id: id)
    }
  }
}
