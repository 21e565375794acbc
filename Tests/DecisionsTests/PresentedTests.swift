import Decisions
import DecisionsTesting
import Foundation
import Testing

/// A screen with one sheet at a time: a row whose load is the sheet's work.
private enum Sheets: Feature {
  struct State: Equatable, Sendable {
    @Presented var sheet: Row.State?
  }

  enum Event: Equatable, Sendable {
    case present(Int)
    case dismiss
    case sheet(Row.Event)
  }

  enum Decision: Equatable, Sendable {
    case sheet(Row.Decision)
  }

  typealias Deps = Row.Deps

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .present(let id):
      state.sheet = Row.State(id: id)
      return []
    case .dismiss:
      state.sheet = nil
      return []
    case .sheet(let event):
      return Row.makeDecisions(event: event, state: &state.sheet, embed: Decision.sheet)
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .sheet(let decision):
      Row.execute(decision, deps: deps, effects: effects, scope: "sheet") { .sheet($0) }
    }
  }

  static let childWork: [ChildWork<State>] = [.optional(Row.self, state: \.$sheet, scope: "sheet")]
}

/// `Presented`: which child a slot holds.
@Suite struct PresentedTests {
  struct Item: Equatable, Hashable, Codable, Sendable {
    var value = 0
  }

  struct Holder: Equatable, Codable, Sendable {
    @Presented var item: Item?
  }

  @Test func assigningPresentsANewChildAndChangingInPlaceKeepsIt() {
    var holder = Holder()
    holder.item = Item()
    let first = holder.$item
    holder.item?.value += 1
    #expect(holder.$item.isSameChild(as: first))
    holder.item = Item(value: 1)
    #expect(!holder.$item.isSameChild(as: first))
    #expect(holder.item == Item(value: 1))
  }

  @Test func anInoutChangeKeepsTheChildUnlessItEmptiesOrFillsTheSlot() {
    func change(_ item: inout Item?) { item?.value = 7 }
    func empty(_ item: inout Item?) { item = nil }
    func fill(_ item: inout Item?) { item = Item(value: 2) }
    var holder = Holder(item: Item())
    let first = holder.$item
    change(&holder.item)
    #expect(holder.$item.isSameChild(as: first))
    empty(&holder.item)
    #expect(holder.item == nil)
    fill(&holder.item)
    #expect(!holder.$item.isSameChild(as: first))
  }

  @Test func equalityHashingCodingAndDescriptionLookAtTheValueOnly() throws {
    let one = Holder(item: Item(value: 3))
    let other = Holder(item: Item(value: 3))
    #expect(one == other)
    #expect(one.$item.hashValue == other.$item.hashValue)
    let decoded = try JSONDecoder().decode(Holder.self, from: JSONEncoder().encode(one))
    #expect(decoded == one)
    #expect(
      String(decoding: try JSONEncoder().encode(Holder()), as: UTF8.self) == #"{"item":null}"#)
    #expect(one.$item.description == String(describing: Optional(Item(value: 3))))
  }

  @Test func aSheetReplacedInOneEventEndsTheOldSheetsWorkOnAStore() async throws {
    let loads = ControlledDependency<Void, Int>()
    let store = Store<Sheets>(state: .init(), deps: .init(load: { (try? await loads()) ?? -1 }))
    await store.send(.present(1))
    await store.send(.sheet(.load))
    let call = try await loads.nextCall()
    await store.send(.present(2))
    #expect(!call.isWaiting)
    call.answer(7)
    await store.settle()
    #expect(await store.state.sheet == Row.State(id: 2))
  }

  @MainActor
  @Test func aSheetReplacedInOneEventEndsTheOldSheetsWorkOnAMainStore() async throws {
    let loads = ControlledDependency<Void, Int>()
    let store = MainStore<Sheets>(state: .init(), deps: .init(load: { (try? await loads()) ?? -1 }))
    store.send(.present(1))
    let old = try #require(store.child(Row.self, state: \.$sheet, event: Sheets.Event.sheet))
    store.send(.sheet(.load))
    let call = try await loads.nextCall()
    store.send(.present(2))
    #expect(!call.isWaiting)
    call.answer(7)
    await store.settle()
    #expect(store.state.sheet == Row.State(id: 2))
    // The old sheet's model is gone, and does not drive the new sheet.
    #expect(old.isGone)
    old.send(.loaded(9))
    #expect(store.state.sheet?.value == 0)
    let new = try #require(store.child(Row.self, state: \.$sheet, event: Sheets.Event.sheet))
    #expect(new !== old)
    new.send(.loaded(4))
    #expect(store.state.sheet?.value == 4)
  }

  @MainActor
  @Test func aSheetChangedInPlaceKeepsItsWorkAndItsModel() async throws {
    let loads = ControlledDependency<Void, Int>()
    let store = MainStore<Sheets>(state: .init(), deps: .init(load: { (try? await loads()) ?? -1 }))
    store.send(.present(1))
    let model = try #require(store.child(Row.self, state: \.$sheet, event: Sheets.Event.sheet))
    store.send(.sheet(.load))
    let call = try await loads.nextCall()
    model.send(.loaded(3))
    #expect(call.isWaiting)
    call.answer(5)
    await store.settle()
    #expect(store.state.sheet?.value == 5)
    #expect(!model.isGone)
    #expect(model.state.value == 5)
  }
}
