import Decisions
import Observation
import Synchronization
import Testing

/// A list of rows kept in an `IdentifiedArray`, next to ``Parent``'s plain array.
private enum Board: Core {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArray<Row.State> = []
    var title = ""
  }

  enum Event: Equatable, Sendable {
    case row(id: Int, Row.Event)
    case add(Int)
    case remove(Int)
    case rename(String)
  }

  typealias Decision = Never

  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    switch event {
    case .row(let id, let event):
      // NB: `Row`'s only decision is `.load`, which the tests do not send.
      _ = Row.makeDecisions(event: event, id: id, in: &state.rows) { _, _ in () }
    case .add(let id):
      state.rows.append(Row.State(id: id))
    case .remove(let id):
      _ = state.rows.remove(id: id)
    case .rename(let title):
      state.title = title
    }
    return []
  }
}

extension Board: Feature {
  struct Deps: Sendable {}
  static func execute(_ decision: Never, deps: Deps, effects: Effects<Event>) {}
}

/// Counts the invalidations of what a view read, the way SwiftUI hears of them: one
/// `withObservationTracking` per render, renewed by ``render()`` once it has fired.
@MainActor
private final class Invalidations {
  private(set) var count = 0
  private var isTracking = false
  private let read: @MainActor () -> Void

  init(reading read: @escaping @MainActor () -> Void) {
    self.read = read
    render()
  }

  /// Reads again, as a view renders, if the last read was invalidated.
  func render() {
    guard !isTracking else { return }
    isTracking = true
    withObservationTracking {
      read()
    } onChange: { [self] in
      MainActor.assumeIsolated {
        count += 1
        isTracking = false
      }
    }
  }
}

@MainActor
@Suite(.timeLimit(.minutes(3))) struct ChildModelTests {
  @Test func aChildModelHoldsTheChildStateAndSendsTheChildEvents() {
    let store = MainStore<Parent>(state: .init(), deps: .init())
    let counter = store.child(Counter.self, state: \.counter, event: Parent.Event.counter)
    counter.send(.increment)
    #expect(counter.state.count == 1)
    #expect(store.state.counter.count == 1)
    store.send(.counter(.add(2)))
    #expect(counter.state.count == 3)
  }

  @Test func askingAgainReturnsTheSameModel() {
    let store = MainStore<Parent>(state: .init(rows: [.init(id: 1)]), deps: .init())
    let first = store.child(Counter.self, state: \.counter, event: Parent.Event.counter)
    let second = store.child(Counter.self, state: \.counter, event: Parent.Event.counter)
    #expect(first === second)
    let row = store.child(Row.self, id: 1, in: \.rows, event: Parent.Event.row)
    #expect(row != nil)
    #expect(row === store.child(Row.self, id: 1, in: \.rows, event: Parent.Event.row))
    #expect(store.childModels.count == 2)
  }

  @Test func anOptionalChildHasAModelOnlyWhilePresent() {
    let store = MainStore<Parent>(state: .init(), deps: .init())
    #expect(store.child(Counter.self, state: \.sheet, event: Parent.Event.sheet) == nil)
    store.send(.openSheet)
    let sheet = store.child(Counter.self, state: \.sheet, event: Parent.Event.sheet)
    sheet?.send(.add(5))
    #expect(store.state.sheet?.count == 5)
    #expect(sheet?.state.count == 5)
    store.send(.closeSheet)
    #expect(store.childModels.count == 0)
    // The model keeps its last state; a new sheet gets a new model.
    #expect(sheet?.state.count == 5)
    store.send(.openSheet)
    let again = store.child(Counter.self, state: \.sheet, event: Parent.Event.sheet)
    #expect(again !== sheet)
    #expect(again?.state.count == 0)
  }

  @Test func aRowModelFollowsItsRowInAnArray() {
    let store = MainStore<Parent>(state: .init(), deps: .init())
    store.send(.addRow(1))
    store.send(.addRow(2))
    let row = store.child(Row.self, id: 2, in: \.rows, event: Parent.Event.row)
    row?.send(.loaded(7))
    #expect(store.state.rows.map(\.value) == [0, 7])
    #expect(row?.state.value == 7)
    store.send(.removeRow(2))
    #expect(store.child(Row.self, id: 2, in: \.rows, event: Parent.Event.row) == nil)
    #expect(store.childModels.count == 0)
  }

  @Test func aRowModelFollowsItsRowInAnIdentifiedArray() {
    let store = MainStore<Board>(state: .init(), deps: .init())
    store.send(.add(1))
    store.send(.add(2))
    let row = store.child(Row.self, id: 1, in: \.rows, event: Board.Event.row)
    row?.send(.loaded(9))
    #expect(store.state.rows[id: 1]?.value == 9)
    #expect(row?.state.value == 9)
    store.send(.remove(1))
    #expect(store.child(Row.self, id: 1, in: \.rows, event: Board.Event.row) == nil)
  }

  @Test func aChildViewIsInvalidatedOnlyByItsChild() {
    let store = MainStore<Board>(state: .init(), deps: .init())
    store.send(.add(1))
    store.send(.add(2))
    guard let first = store.child(Row.self, id: 1, in: \.rows, event: Board.Event.row),
      let second = store.child(Row.self, id: 2, in: \.rows, event: Board.Event.row)
    else {
      Issue.record("no row models")
      return
    }
    let parentView = Invalidations { _ = store.state }
    let firstView = Invalidations { _ = first.state }
    let secondView = Invalidations { _ = second.state }

    let views = [parentView, firstView, secondView]
    store.send(.rename("Board"))
    for view in views { view.render() }
    second.send(.loaded(3))
    for view in views { view.render() }
    store.send(.row(id: 2, .loaded(4)))
    for view in views { view.render() }
    // A change that leaves the row's state as it was does not invalidate it either.
    store.send(.row(id: 2, .loaded(4)))
    for view in views { view.render() }

    #expect(parentView.count == 4)
    #expect(firstView.count == 0)
    #expect(secondView.count == 2)
  }

  @Test func childModelsOfAnObservableStoreFollowItsDeliveries() async {
    let model = ObservableStore<Parent>(state: .init(), deps: .init())
    let counter = model.child(Counter.self, state: \.counter, event: Parent.Event.counter)
    let views = Invalidations { _ = counter.state }
    counter.send(.increment)
    await model.settle()
    #expect(counter.state.count == 1)
    #expect(views.count == 1)
  }

  @Test func aChildModelMakesModelsOfItsOwnChildren() {
    let store = MainStore<Nest>(state: .init(), deps: .init())
    let parent = store.child(Parent.self, state: \.parent, event: Nest.Event.parent)
    parent.send(.addRow(4))
    let row = parent.child(Row.self, id: 4, in: \.rows, event: Parent.Event.row)
    row?.send(.loaded(8))
    #expect(store.state.parent.rows.first?.value == 8)
    #expect(row?.state.value == 8)
    store.send(.parent(.row(id: 4, .loaded(9))))
    #expect(row?.state.value == 9)
  }

  @Test func anEventSentByAChildModelsObserverIsProcessedInTheSameSend() {
    let store = MainStore<Parent>(state: .init(), deps: .init())
    let counter = store.child(Counter.self, state: \.counter, event: Parent.Event.counter)
    // An observer of the child that answers its first change with an event of its own, from inside
    // the child model's update.
    let echo = ChildEcho(model: counter)
    store.send(.counter(.increment))
    #expect(echo.sent == 1)
    #expect(store.state.counter.count == 11)
    #expect(counter.state.count == 11)
  }

  @Test func aChildModelOutlivingItsStoreSendsNowhere() {
    var store: MainStore<Parent>? = MainStore<Parent>(state: .init(), deps: .init())
    let counter = store?.child(Counter.self, state: \.counter, event: Parent.Event.counter)
    weak let released = store
    store = nil
    #expect(released == nil)
    counter?.send(.increment)
    #expect(counter?.state.count == 0)
  }
}

/// Sends `.add(10)` to a counter's model from inside its first change.
@MainActor
private final class ChildEcho {
  let model: ChildModel<Counter>
  private(set) var sent = 0

  init(model: ChildModel<Counter>) {
    self.model = model
    withObservationTracking {
      _ = model.state
    } onChange: { [self] in
      MainActor.assumeIsolated {
        sent += 1
        model.send(.add(10))
      }
    }
  }
}

/// A parent of ``Parent``, for grandchildren.
private enum Nest: Feature {
  struct State: Equatable, Sendable {
    var parent = Parent.State()
  }

  enum Event: Equatable, Sendable {
    case parent(Parent.Event)
  }

  typealias Decision = Parent.Decision
  typealias Deps = Parent.Deps

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .parent(let event):
      return Parent.makeDecisions(event: event, state: &state.parent)
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    Parent.execute(decision, deps: deps, effects: effects, embed: Event.parent)
  }
}
