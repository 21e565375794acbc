import Decisions
import Foundation
import Testing

@Suite struct ScreenStackTests {
  @Test func pushingGivesEachScreenANewId() {
    var stack = ScreenStack<String>()
    let a = stack.push("a")
    let b = stack.push("b")
    #expect(a == ScreenStack<String>.ID(0))
    #expect(b == ScreenStack<String>.ID(1))
    #expect(stack.ids == [a, b])
    #expect(stack.pop() == "b")
    // A screen pushed again, even the same, is a new screen.
    let again = stack.push("b")
    #expect(again == ScreenStack<String>.ID(2))
    #expect(stack.ids == [a, again])
    #expect(stack.map(\.screen) == ["a", "b"])
  }

  @Test func poppingToAndFromAScreen() {
    var stack: ScreenStack<String> = ["a", "b", "c", "d"]
    let ids = stack.ids
    let wentBack23 = stack.pop(to: ids[1])
    #expect(wentBack23)
    #expect(stack.map(\.screen) == ["a", "b"])
    let wentBack26 = stack.pop(to: ids[3])
    #expect(!wentBack26)  // gone: nothing happens
    #expect(stack.map(\.screen) == ["a", "b"])
    let dismissed29 = stack.pop(from: ids[1])
    #expect(dismissed29)
    #expect(stack.map(\.screen) == ["a"])
    let dismissed32 = stack.pop(from: ids[2])
    #expect(!dismissed32)
    stack.push("e")
    stack.popToRoot()
    #expect(stack.isEmpty)
    #expect(stack.pop() == nil)
  }

  @Test func aScreenChangesInPlaceBySubscript() {
    var stack: ScreenStack<String> = ["a", "b"]
    let b = stack.ids[1]
    stack[id: b] = "B"
    #expect(stack[id: b] == "B")
    #expect(stack.ids[1] == b)
    stack[id: stack.ids[0]] = nil  // pops it and the screens above
    #expect(stack.isEmpty)
  }

  // The platform's stack can only go back: a path that is a bottom part of the stack's is kept;
  // anything else is the core's to decide, and changes nothing.
  @Test func keepingThePlatformsPathOnlyPops() {
    var stack: ScreenStack<String> = ["a", "b", "c"]
    let ids = stack.ids
    let kept55 = stack.keep([ids[0]])
    #expect(kept55)
    #expect(stack.ids == [ids[0]])
    let kept58 = stack.keep([ids[0], ids[1]])
    #expect(!kept58)  // b is gone: not a part of the stack's path
    #expect(stack.ids == [ids[0]])
    let kept61 = stack.keep([ScreenStack<String>.ID(9)])
    #expect(!kept61)
    let kept63 = stack.keep([])
    #expect(kept63)
    #expect(stack.isEmpty)
  }

  @Test func equalityComparesScreensAndIds() {
    var a: ScreenStack<String> = ["x"]
    var b: ScreenStack<String> = ["x"]
    #expect(a == b)
    a.pop()
    a.push("x")  // #1, not #0
    #expect(a != b)
    b.pop()
    b.push("x")
    #expect(a == b)
  }

  @Test func aStackSurvivesEncoding() throws {
    var stack: ScreenStack<String> = ["a", "b"]
    stack.pop()
    stack.push("c")
    let data = try JSONEncoder().encode(stack)
    var decoded = try JSONDecoder().decode(ScreenStack<String>.self, from: data)
    #expect(decoded == stack)
    // The next id is kept: no id is given twice, even across a save.
    #expect(decoded.push("d") == ScreenStack<String>.ID(3))
  }

  @Test(arguments: [
    (
      #"{"screens": [{"id": 0, "screen": "a"}, {"id": 0, "screen": "b"}], "nextID": 2}"#, "repeated"
    ),
    (#"{"screens": [{"id": 5, "screen": "a"}], "nextID": 2}"#, "not below nextID 2"),
    (#"{"screens": [{"id": -1, "screen": "a"}], "nextID": 2}"#, "#-1 is negative"),
    (
      #"{"screens": [{"id": 1, "screen": "a"}, {"id": 0, "screen": "b"}], "nextID": 2}"#,
      "#0 comes after #1"
    ),
    (#"{"screens": [], "nextID": -5}"#, "nextID -5 is negative"),
    (#"{"screens": [], "nextID": 9223372036854775807}"#, "is above 9007199254740992"),
    (
      #"{"screens": [{"id": 9007199254740992, "screen": "a"}], "nextID": 9007199254740993}"#,
      "nextID 9007199254740993 is above"
    ),
  ])
  func aCorruptStackIsRefusedWithTheReason(json: String, reason: String) {
    do {
      _ = try JSONDecoder().decode(ScreenStack<String>.self, from: Data(json.utf8))
      Issue.record("decoded \(json)")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription.contains(reason), "\(context.debugDescription)")
    } catch {
      Issue.record("\(error)")
    }
  }

  @Test func aStackAtTheLargestNextIdDecodesAndPushes() throws {
    let json =
      #"{"screens": [{"id": 9007199254740991, "screen": "a"}], "nextID": 9007199254740992}"#
    var stack = try JSONDecoder().decode(ScreenStack<String>.self, from: Data(json.utf8))
    #expect(stack.push("b") == ScreenStack<String>.ID(1 << 53))
    #expect(stack.ids == [ScreenStack<String>.ID((1 << 53) - 1), ScreenStack<String>.ID(1 << 53)])
  }

  @Test func anIdIsMadeAsFailureMessagesPrintIt() {
    #expect(ScreenStack<String>.ID(rawValue: 3) == ScreenStack<String>.ID(3))
    #expect(ScreenStack<String>.ID(3).description == "#3")
  }

  @Test func itDescribesItsScreensWithTheirIds() {
    let stack: ScreenStack<String> = ["a", "b"]
    #expect(stack.description == "[#0: a, #1: b]")
  }

  /// A stack made with its ids has them, and its next push gets the next id given.
  @Test func aStackMadeWithItsIdsKeepsThemAndItsNextID() {
    typealias ID = ScreenStack<String>.ID
    var stack = ScreenStack<String>(
      entries: [.init(id: ID(1), screen: "a"), .init(id: ID(4), screen: "b")], nextID: ID(9))
    #expect(stack.ids == [ID(1), ID(4)])
    #expect(stack[id: ID(4)] == "b")
    #expect(stack.push("c") == ID(9))
    #expect(ScreenStack<String>(entries: [], nextID: ID(0)) == [])
  }

  /// Ids a stack could not have given, out of order or not below the next id, are a
  /// programmer's error: the initializer traps, naming them.
  @Test func aStackMadeWithIdsOutOfOrderTraps() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = ScreenStack<String>(
        entries: [.init(id: .init(3), screen: "a"), .init(id: .init(1), screen: "b")],
        nextID: .init(5))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("ScreenStack: ids must be 0 or more, increase from the bottom"))
    #expect(message.contains("#1 comes after #3"))
  }

  @Test func aStackMadeWithAnIdNotBelowItsNextIDTraps() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = ScreenStack<String>(entries: [.init(id: .init(5), screen: "a")], nextID: .init(5))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("be below nextID #5; #5 comes after #-1"))
  }
}
