import Decisions
import Foundation
import Testing

@testable import DecisionsTesting

// NB: the fixtures have unusual names so they cannot clash with other test files of this module.

private enum Fact {
  enum State {
    case idle
    case loading
    case loaded(text: String)
  }
}

private enum Move {
  case stay
  case step(Int)
  case jump(Int, Int)
  case slide(Int, to: Int)
}

/// A class whose instance keeps an id of itself, as a node of a graph keyed by its nodes may.
private final class LoopedNode: Hashable, @unchecked Sendable {
  var id: WorkID?
  let name: String
  init(_ name: String) { self.name = name }
  static func == (lhs: LoopedNode, rhs: LoopedNode) -> Bool { lhs === rhs }
  func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

private enum Tally {
  struct State {
    var count = 0
    var messages: [String] = []
  }
}

private enum Screen {
  struct Row {
    var id: Int
    var value: Int
  }

  struct State {
    var rows: [Row] = []
    var sheet: Tally.State?
  }
}

private struct Point {
  var x: Int
  var y: Int
}

private struct Empty {}

/// Stands in for types such as `UUID`: no children, told apart only by their description.
private struct Opaque: CustomReflectable, CustomStringConvertible {
  var secret: Int
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var description: String { "Opaque#\(secret)" }
}

private struct Generic<Value> {
  var value: Value
}

private class Shape {
  var name: String
  init(name: String) { self.name = name }
}

private final class Circle: Shape {
  var radius: Int
  init(name: String, radius: Int) {
    self.radius = radius
    super.init(name: name)
  }
}

private final class Link {
  var value: Int
  var next: Link?
  init(value: Int, next: Link? = nil) {
    self.value = value
    self.next = next
  }
}

private indirect enum Nested {
  case bottom(Int)
  case wrap(Nested)

  /// Returns `value` wrapped `depth` times.
  static func deep(_ depth: Int, bottom value: Int) -> Nested {
    (0..<depth).reduce(.bottom(value)) { inner, _ in .wrap(inner) }
  }
}

private enum Place: Hashable {
  case home
  case work
}

@Suite struct ValueDiffTests {
  // MARK: - Equal values

  @Test func equalValuesOfEveryKindHaveNoDiff() {
    #expect(
      structuralDiff(
        Screen.State(rows: [.init(id: 1, value: 2)]), Screen.State(rows: [.init(id: 1, value: 2)]))
        == nil)
    #expect(structuralDiff(Fact.State.loaded(text: "a"), .loaded(text: "a")) == nil)
    #expect(structuralDiff(Move.stay, .stay) == nil)
    #expect(structuralDiff(Tally.State?.none, nil) == nil)
    #expect(structuralDiff((1, label: "a"), (1, label: "a")) == nil)
    #expect(structuralDiff(Set(["a", "b"]), Set(["b", "a"])) == nil)
    #expect(structuralDiff(Empty(), Empty()) == nil)
    #expect(structuralDiff(Opaque(secret: 1), Opaque(secret: 1)) == nil)
    #expect(structuralDiff("text", "text") == nil)
  }

  @Test func distinctInstancesWithEqualFieldsHaveNoDiff() {
    #expect(structuralDiff(Circle(name: "c", radius: 1), Circle(name: "c", radius: 1)) == nil)
  }

  @Test func dictionariesWithTheSameEntriesHaveNoDiffWhateverTheirHistory() {
    var grown: [Int: String] = [:]
    for key in (0..<200).reversed() { grown[key] = "\(key)" }
    var shrunk = Dictionary(uniqueKeysWithValues: (0..<1_000).map { ($0, "\($0)") })
    for key in 200..<1_000 { shrunk[key] = nil }
    #expect(structuralDiff(grown, shrunk) == nil)
  }

  // MARK: - Property wrappers

  /// A state with a sheet in a `@Presented` slot.
  private struct Sheeted: Equatable {
    @Presented var sheet: Int?
  }

  @Test func aPresentedSlotShowsUnderItsPropertysName() {
    #expect(
      structuralDiff(Sheeted(sheet: 1), Sheeted(sheet: 2)) == """
        ValueDiffTests.Sheeted
          .sheet?
        −   1
        +   2
        """)
    #expect(describe(Sheeted(sheet: 1)) == "ValueDiffTests.Sheeted(sheet: 1)")
  }

  /// A work id shows as it is made, by the value it wraps, not by the object that holds it.
  @Test func aWorkIDShowsByItsValue() {
    #expect(describe(WorkID("load")) == #"WorkID("load")"#)
    #expect(describe([WorkID(1)]) == "[WorkID(1)]")
    #expect(structuralDiff(WorkID("a"), WorkID("a")) == nil)
    struct Holder { var ids: [WorkID] }
    #expect(
      structuralDiff(Holder(ids: [WorkID("1")]), Holder(ids: [WorkID("2")])) == """
        ValueDiffTests.Holder
          .ids[0]
        −   WorkID("1")
        +   WorkID("2")
        """)
  }

  /// An optional id keeps its `?` in a diff's path, and an id inside an `AnyHashable` shows as
  /// one.
  @Test func anIdInsideAnotherValueKeepsItsShape() {
    struct Maybe { var id: WorkID? }
    #expect(
      structuralDiff(Maybe(id: WorkID(1)), Maybe(id: WorkID(2))) == """
        ValueDiffTests.Maybe
          .id?
        −   WorkID(1)
        +   WorkID(2)
        """)
    #expect(describe(AnyHashable(WorkID(5))) != "WorkID(5)")
  }

  /// A cycle through a work id shows as a cycle, as through any other value.
  @Test func aCycleThroughAWorkIDShowsAsACycle() {
    let node = LoopedNode("me")
    node.id = WorkID(node)
    #expect(describe(node) == #"LoopedNode(id: WorkID(<cycle: LoopedNode>), name: "me")"#)
  }

  // MARK: - Leaves

  @Test func aChangedNumberShowsBothValuesUnderTheTypeName() {
    #expect(
      structuralDiff(1, 2) == """
        Int
        −   1
        +   2
        """)
  }

  @Test func aFormatChoosesMarkersIndentsAndWidth() {
    let format = DiffFormat(
      removed: "-", added: "+", pathIndent: "> ", valueIndent: " ", lineWidth: 20)
    #expect(
      structuralDiff(
        Tally.State(count: 1, messages: ["a"]),
        Tally.State(count: 1, messages: ["a", "a much longer message"]), format: format) == """
          Tally.State
          > .messages[1]
          + "a much longer message"
          """)
    #expect(
      structuralDiff(
        Screen.State(sheet: nil), Screen.State(sheet: Tally.State(messages: ["x"])),
        format: format) == """
          Screen.State
          > .sheet
          - nil
          + Tally.State(
          +   count: 0,
          +   messages: ["x"]
          + )
          """)
  }

  @Test func aChangedStringIsShownQuotedAndEscaped() {
    #expect(
      structuralDiff("say \"hi\"", "line\nbreak") == #"""
        String
        −   "say \"hi\""
        +   "line\nbreak"
        """#)
  }

  @Test func aValueWithoutChildrenIsComparedByItsDescription() {
    #expect(
      structuralDiff(Opaque(secret: 1), Opaque(secret: 2)) == """
        Opaque
        −   Opaque#1
        +   Opaque#2
        """)
  }

  /// A `Duration` is shown as Swift, as printed stories must compile: its own description,
  /// "1.0 seconds", is not.
  @Test func aDurationIsShownAsSwift() {
    #expect(
      structuralDiff(Duration.seconds(1), .milliseconds(2_500)) == """
        Duration
        −   .seconds(1)
        +   .milliseconds(2500)
        """)
  }

  /// A URL, an id and a date are shown as the Swift that makes each again.
  ///
  /// Their own descriptions are not Swift.
  @Test func aURLAnIDAndADateAreShownAsSwift() throws {
    #expect(
      describe(Generic(value: URL(string: "file:///tmp/a%20b.json")))
        == #"Generic<Optional<URL>>(value: URL(string: "file:///tmp/a%20b.json")!)"#)
    let id = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    #expect(describe(id) == #"UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!"#)
    let date = Date(timeIntervalSinceReferenceDate: 786_123_456.789)
    #expect(describe(date) == "Date(timeIntervalSinceReferenceDate: 786123456.789)")
    #expect(Date(timeIntervalSinceReferenceDate: 786123456.789) == date)
  }

  private enum Choice: Equatable {
    case delete(id: Int)
  }

  /// A dialog is shown as its initializer's arguments, the kind and a button's title unlabelled,
  /// as they are written: a printed story that holds one compiles.
  @Test func aDialogIsShownAsItsInitializer() {
    let dialog = Dialog<Choice>(
      title: "Delete?", buttons: [.init("Delete", role: .destructive, action: .delete(id: 1))])
    let printed = describe(dialog)
    #expect(
      printed == """
        Dialog<ValueDiffTests.Choice>(
          .alert,
          title: "Delete?",
          message: nil,
          buttons: [
            Dialog<ValueDiffTests.Choice>.Button(
              "Delete",
              role: .destructive,
              action: .delete(id: 1)
            )
          ]
        )
        """)
    let written = Dialog<Choice>(
      .alert,
      title: "Delete?",
      message: nil,
      buttons: [Dialog<Choice>.Button("Delete", role: .destructive, action: .delete(id: 1))]
    )
    #expect(written == dialog)
  }

  /// A stack is shown as its entries and next id, in the order of `init(entries:nextID:)`: a
  /// printed story of a stack whose ids skip (after a pop) compiles, and the stack it makes gives
  /// the next push the same id.
  @Test func aStackIsShownAsItsInitializerWithItsIds() {
    var stack: ScreenStack<Int> = [5, 6]
    _ = stack.pop()
    _ = stack.push(7)
    let printed = describe(stack)
    #expect(
      printed == """
        ScreenStack<Int>(
          entries: [
            ScreenStack<Int>.Entry(id: ScreenStack<Int>.ID(rawValue: 0), screen: 5),
            ScreenStack<Int>.Entry(id: ScreenStack<Int>.ID(rawValue: 2), screen: 7)
          ],
          nextID: ScreenStack<Int>.ID(rawValue: 3)
        )
        """)
    var written = ScreenStack<Int>(
      entries: [
        ScreenStack<Int>.Entry(id: ScreenStack<Int>.ID(rawValue: 0), screen: 5),
        ScreenStack<Int>.Entry(id: ScreenStack<Int>.ID(rawValue: 2), screen: 7),
      ],
      nextID: ScreenStack<Int>.ID(rawValue: 3)
    )
    #expect(written == stack && describe(written) == printed)
    #expect(written.push(8) == stack.push(8))
    #expect(
      structuralDiff(written, stack.popped())
        == """
        ScreenStack<Int>
          .entries[2]
        −   ScreenStack<Int>.Entry(id: ScreenStack<Int>.ID(rawValue: 3), screen: 8)
        """)
  }

  /// A persisted value is shown as what its `==` compares, in the order of its public
  /// initializer: a printed story compiles, and a diff shows no field a test cannot set.
  @Test func aPersistedValueIsShownAsItsPublicInitializer() {
    let printed = describe(Persisted<Int>.State(3, status: .loaded))
    #expect(
      printed == """
        Persisted<Int>.State(
          value: 3,
          status: .loaded,
          hasUnsavedChanges: false,
          isWaitingToSave: false,
          isWriting: false,
          saveError: nil,
          backup: nil,
          quietPeriod: .seconds(1)
        )
        """)
    #expect(!printed.contains("isChanged") && !printed.contains("nesting"))
    // The printed text is that initializer's call, field by field.
    let written = Persisted<Int>.State(
      value: 3, status: .loaded, hasUnsavedChanges: false, isWaitingToSave: false,
      isWriting: false, saveError: nil, backup: nil, quietPeriod: .seconds(1))
    #expect(describe(written) == printed)
    // A value set in a step (its change seen or not) is no difference.
    var edited = Persisted<Int>.State(2, status: .loaded)
    edited.value = 3
    #expect(edited == written)
    #expect(structuralDiff(edited, written) == nil)
    #expect(
      structuralDiff(edited, Persisted<Int>.State(value: 3, status: .loaded, isWriting: true))
        == """
        Persisted<Int>.State
          .isWriting
        −   false
        +   true
        """)
  }

  @Test func aStandardLibraryValueWithPrivateStorageIsShownByItsDescription() {
    #expect(
      structuralDiff(Generic(value: 0..<3), Generic(value: 0..<4)) == """
        Generic<Range<Int>>
          .value
        −   Range(0..<3)
        +   Range(0..<4)
        """)
  }

  // MARK: - Structs and classes

  @Test func aChangedPropertyShowsItsPath() {
    #expect(
      structuralDiff(Point(x: 1, y: 2), Point(x: 1, y: 3)) == """
        Point
          .y
        −   2
        +   3
        """)
  }

  @Test func aClassIsComparedByItsFieldsIncludingInheritedOnes() {
    #expect(
      structuralDiff(Circle(name: "a", radius: 1), Circle(name: "b", radius: 2)) == """
        Circle
          .name
        −   "a"
        +   "b"
          .radius
        −   1
        +   2
        """)
  }

  @Test func aDifferentSubclassShowsBothWholeValues() {
    let expected: Shape = Shape(name: "a")
    let actual: Shape = Circle(name: "a", radius: 1)
    #expect(
      structuralDiff(expected, actual) == """
        Shape
        −   Shape(name: "a")
        +   Circle(name: "a", radius: 1)
        """)
  }

  @Test func aReferenceCycleIsComparedOnceAndShownAsACycle() {
    let expected = Link(value: 1)
    expected.next = expected
    let actual = Link(value: 2)
    #expect(
      structuralDiff(expected, actual) == """
        Link
          .value
        −   1
        +   2
          .next
        −   <cycle: Link>
        +   nil
        """)
    let twin = Link(value: 1)
    twin.next = twin
    #expect(structuralDiff(expected, twin) == nil)
  }

  @Test func aLocalTypeIsNamedWithoutItsUnstableContext() {
    struct Local {
      var flag: Bool
    }
    #expect(
      structuralDiff(Local(flag: true), Local(flag: false)) == """
        ValueDiffTests.Local
          .flag
        −   true
        +   false
        """)
  }

  @Test func aGenericTypeIsNamedWithItsArguments() {
    #expect(
      structuralDiff(Generic(value: [Point(x: 0, y: 0)]), Generic(value: [Point(x: 0, y: 1)]))
        == """
        Generic<Array<Point>>
          .value[0].y
        −   0
        +   1
        """)
  }

  // MARK: - Enums

  @Test func aChangedEnumCaseShowsBothCases() {
    #expect(
      structuralDiff(Fact.State.idle, .loading) == """
        Fact.State
        −   .idle
        +   .loading
        """)
    #expect(
      structuralDiff(Fact.State.loading, .loaded(text: "Zero is even")) == """
        Fact.State
        −   .loading
        +   .loaded(text: "Zero is even")
        """)
  }

  @Test func aChangedAssociatedValueShowsTheCaseAndLabel() {
    #expect(
      structuralDiff(Fact.State.loaded(text: "Zero is even"), .loaded(text: "Zero is odd")) == """
        Fact.State
          .loaded(text:)
        −   "Zero is even"
        +   "Zero is odd"
        """)
  }

  @Test func anUnlabelledAssociatedValueIsFoundByPosition() {
    #expect(
      structuralDiff(Move.step(1), .step(2)) == """
        Move
          .step(_:)
        −   1
        +   2
        """)
    #expect(
      structuralDiff(Move.jump(1, 2), .jump(1, 3)) == """
        Move
          .jump.1
        −   2
        +   3
        """)
    #expect(
      structuralDiff(Move.slide(1, to: 2), .slide(0, to: 3)) == """
        Move
          .slide.0
        −   1
        +   0
          .slide(to:)
        −   2
        +   3
        """)
  }

  // MARK: - Optionals

  @Test func nilAgainstSomeShowsTheWholeValue() {
    #expect(
      structuralDiff(Screen.State(), Screen.State(sheet: Tally.State(count: 1))) == """
        Screen.State
          .sheet
        −   nil
        +   Tally.State(count: 1, messages: [])
        """)
    #expect(
      structuralDiff(Tally.State?.some(Tally.State()), nil) == """
        Optional<Tally.State>
        −   Tally.State(count: 0, messages: [])
        +   nil
        """)
  }

  @Test func twoWrappedValuesAreComparedInside() {
    #expect(
      structuralDiff(Screen.State(sheet: Tally.State()), Screen.State(sheet: Tally.State(count: 2)))
        == """
        Screen.State
          .sheet?.count
        −   0
        +   2
        """)
  }

  // MARK: - Arrays

  @Test func aChangedElementShowsItsIndex() {
    let rows = [Screen.Row(id: 0, value: 1), Screen.Row(id: 1, value: 7)]
    var changed = rows
    changed[1].value = 8
    #expect(
      structuralDiff(Screen.State(rows: rows), Screen.State(rows: changed)) == """
        Screen.State
          .rows[1].value
        −   7
        +   8
        """)
  }

  @Test func anInsertedElementIsShownAloneAtItsActualIndex() {
    #expect(
      structuralDiff([1, 2, 3], [1, 9, 2, 3]) == """
        Array<Int>
          [1]
        +   9
        """)
    #expect(
      structuralDiff([2, 3], [1, 2, 3]) == """
        Array<Int>
          [0]
        +   1
        """)
  }

  @Test func removedElementsAreShownAloneAtTheirExpectedIndices() {
    #expect(
      structuralDiff(["a", "b", "c", "d"], ["a", "d"]) == """
        Array<String>
          [1]
        −   "b"
          [2]
        −   "c"
        """)
  }

  @Test func arraysThatDifferMoreAreComparedIndexByIndex() {
    #expect(
      structuralDiff([1, 2, 3], [1, 5]) == """
        Array<Int>
          [1]
        −   2
        +   5
          [2]
        −   3
        """)
  }

  @Test func anEmptyArrayAgainstAFullOneListsEveryElement() {
    #expect(
      structuralDiff(Tally.State(), Tally.State(messages: ["a", "b"])) == """
        Tally.State
          .messages[0]
        +   "a"
          .messages[1]
        +   "b"
        """)
  }

  // MARK: - Dictionaries and sets

  @Test func dictionariesAreComparedKeyByKeyInSortedOrder() {
    #expect(
      structuralDiff(["b": 1, "a": 1, "c": 3], ["d": 4, "c": 3, "b": 2]) == """
        Dictionary<String, Int>
          ["a"]
        −   1
          ["b"]
        −   1
        +   2
          ["d"]
        +   4
        """)
  }

  @Test func aDictionaryKeyIsShownAsInSwift() {
    #expect(
      structuralDiff([Place.home: Point(x: 0, y: 0)], [.home: Point(x: 1, y: 0)]) == """
        Dictionary<Place, Point>
          [.home].x
        −   0
        +   1
        """)
  }

  @Test func aSetShowsItsMissingAndExtraElementsSorted() {
    #expect(
      structuralDiff(Set(["d", "a", "b"]), Set(["c", "b", "e"])) == """
        Set<String>
        −   "a"
        −   "d"
        +   "c"
        +   "e"
        """)
  }

  // MARK: - Tuples

  @Test func aTupleElementIsFoundByLabelOrPosition() {
    #expect(
      structuralDiff((1, label: "a"), (2, label: "b")) == """
        (Int, label: String)
          .0
        −   1
        +   2
          .label
        −   "a"
        +   "b"
        """)
  }

  // MARK: - Nesting and layout

  @Test func nestedDifferencesAreListedInOrderUnderTheirPaths() {
    let expected = Screen.State(rows: [.init(id: 0, value: 7)])
    let actual = Screen.State(rows: [.init(id: 0, value: 8)], sheet: Tally.State())
    #expect(
      structuralDiff(expected, actual) == """
        Screen.State
          .rows[0].value
        −   7
        +   8
          .sheet
        −   nil
        +   Tally.State(count: 0, messages: [])
        """)
  }

  @Test func aLongValueIsBrokenOverSeveralLines() {
    let long = Tally.State(count: 3, messages: ["first message", "second message", "third one"])
    #expect(
      structuralDiff(Screen.State(), Screen.State(sheet: long)) == """
        Screen.State
          .sheet
        −   nil
        +   Tally.State(
        +     count: 3,
        +     messages: ["first message", "second message", "third one"]
        +   )
        """)
  }

  // MARK: - Depth limit

  @Test func aDifferenceBelowTheDepthLimitIsReportedWithoutDetail() {
    let path = String(repeating: ".wrap(_:)", count: 30)
    #expect(
      structuralDiff(Nested.deep(40, bottom: 1), Nested.deep(40, bottom: 2)) == """
        Nested
          \(path)
            (differs deeper than 30 levels; not shown)
        """)
    #expect(structuralDiff(Nested.deep(40, bottom: 1), Nested.deep(40, bottom: 1)) == nil)
  }

  @Test func aDifferenceAboveTheDepthLimitIsShownInFull() {
    let path = String(repeating: ".wrap(_:)", count: 28)
    #expect(
      structuralDiff(Nested.deep(28, bottom: 1), Nested.deep(28, bottom: 2)) == """
        Nested
          \(path).bottom(_:)
        −   1
        +   2
        """)
  }
}

extension ScreenStack {
  /// The stack with its top screen popped.
  fileprivate func popped() -> Self {
    var stack = self
    _ = stack.pop()
    return stack
  }
}
