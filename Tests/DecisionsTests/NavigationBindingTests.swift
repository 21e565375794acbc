#if canImport(Observation)
  import Decisions
  import Synchronization
  import Testing

  /// A list of notes that pushes note screens, and presents one note in an editor sheet.
  private enum Notes: Feature {
    typealias ID = ScreenStack<Note.State>.ID

    struct State: Equatable, Sendable {
      var path = ScreenStack<Note.State>()
      @Presented var editor: Note.State?
    }
    enum Event: Equatable, Sendable {
      case open(String)
      case pathChanged([ID])
      case screen(id: ID, Note.Event)
      case edit(String)
      case editorDismissed
      case editor(Note.Event)
    }
    typealias Decision = Never

    static let screens = embed(Note.self, stack: \.path, event: Event.screen)
    static let editor = embed(Note.self, presented: \.$editor, event: Event.editor)

    static func makeDecisions(event: Event, state: inout State) -> [Decision] {
      switch event {
      case .open(let title):
        state.path.push(Note.State(title: title))
      case .pathChanged(let ids):
        state.path.keep(ids)
      case .screen(let id, let event):
        return screens.makeDecisions(event: event, id: id, in: &state)
      case .edit(let title):
        state.editor = Note.State(title: title)
      case .editorDismissed:
        state.editor = nil
      case .editor(let event):
        return editor.makeDecisions(event: event, in: &state)
      }
      return []
    }
  }

  /// A note: a title.
  private enum Note: Feature {
    struct State: Equatable, Sendable {
      var title: String
    }
    enum Event: Equatable, Sendable {
      case titleChanged(String)
    }
    typealias Decision = Never

    static func makeDecisions(event: Event, state: inout State) -> [Decision] {
      switch event {
      case .titleChanged(let title): state.title = title
      }
      return []
    }
  }

  /// A store of `Notes` whose events are recorded as they are received.
  @MainActor
  private func makeStore() -> (MainStore<Notes>, received: @Sendable () -> [Notes.Event]) {
    let received = Mutex<[Notes.Event]>([])
    let store = MainStore<Notes>(
      state: .init(), deps: (),
      diagnostics: { if case .received(let event) = $0 { received.withLock { $0.append(event) } } })
    return (store, { received.withLock { $0 } })
  }

  @MainActor
  @Suite struct NavigationBindingTests {
    // MARK: - A stack's path

    @Test func aPathBindingReadsTheStacksIds() {
      let (store, _) = makeStore()
      let path = store.binding(\.path, send: Notes.Event.pathChanged)
      #expect(path.wrappedValue == [])
      store.send(.open("a"))
      store.send(.open("b"))
      #expect(path.wrappedValue == [Notes.ID(0), Notes.ID(1)])
    }

    // The back button: the platform writes the shorter path, which the core keeps.
    @Test func aShorterPathSendsPathChangedAndPops() {
      let (store, received) = makeStore()
      let path = store.binding(\.path, send: Notes.Event.pathChanged)
      store.send(.open("a"))
      store.send(.open("b"))
      path.wrappedValue = [Notes.ID(0)]
      #expect(received().last == .pathChanged([Notes.ID(0)]))
      #expect(store.state.path.ids == [Notes.ID(0)])
      #expect(path.wrappedValue == [Notes.ID(0)])
      path.wrappedValue = []
      #expect(store.state.path.isEmpty)
    }

    // SwiftUI writes back the path it shows as views are re-created: no navigation, no event.
    @Test func aWriteOfTheSamePathSendsNothing() {
      let (store, received) = makeStore()
      let path = store.binding(\.path, send: Notes.Event.pathChanged)
      store.send(.open("a"))
      let before = received()
      path.wrappedValue = [Notes.ID(0)]
      #expect(received() == before)
    }

    // A path that is not a bottom part of the stack is sent, and the core refuses it.
    @Test func aPathTheCoreRefusesIsShownAsTheCoreKeptIt() {
      let (store, received) = makeStore()
      let path = store.binding(\.path, send: Notes.Event.pathChanged)
      store.send(.open("a"))
      path.wrappedValue = [Notes.ID(0), Notes.ID(7)]
      #expect(received().last == .pathChanged([Notes.ID(0), Notes.ID(7)]))
      #expect(path.wrappedValue == [Notes.ID(0)])
    }

    // MARK: - A presented child

    @Test func aPresentedBindingReadsTheChildsModelWhilePresented() throws {
      let (store, _) = makeStore()
      let sheet = store.binding(Notes.editor, dismiss: .editorDismissed)
      #expect(sheet.wrappedValue == nil)
      store.send(.edit("draft"))
      let model = try #require(sheet.wrappedValue)
      #expect(model === store.child(Notes.editor))
      #expect(model.state.title == "draft")
      #expect(sheet.wrappedValue?.id == model.id)
    }

    // The user swipes the sheet down: the platform writes nil.
    @Test func aDismissalSendsTheDismissEvent() {
      let (store, received) = makeStore()
      let sheet = store.binding(Notes.editor, dismiss: .editorDismissed)
      store.send(.edit("draft"))
      _ = sheet.wrappedValue
      sheet.wrappedValue = nil
      #expect(received().last == .editorDismissed)
      #expect(store.state.editor == nil)
      #expect(sheet.wrappedValue == nil)
    }

    // The core closed the sheet itself (a save), and the platform's dismissal comes after.
    @Test func aDismissalOfAChildAlreadyGoneSendsNothing() {
      let (store, received) = makeStore()
      let sheet = store.binding(Notes.editor, dismiss: .editorDismissed)
      store.send(.edit("draft"))
      _ = sheet.wrappedValue
      store.send(.editorDismissed)
      let before = received()
      sheet.wrappedValue = nil
      #expect(received() == before)
    }

    // The core put a new sheet in place of the one the platform shows; the platform's dismissal
    // of the old one must not dismiss the new one.
    @Test func aLateDismissalLeavesTheNewChildPresented() throws {
      let (store, received) = makeStore()
      let sheet = store.binding(Notes.editor, dismiss: .editorDismissed)
      store.send(.edit("first"))
      let first = try #require(sheet.wrappedValue)
      store.send(.edit("second"))
      #expect(first.isGone)
      sheet.wrappedValue = nil
      #expect(!received().contains(.editorDismissed))
      #expect(store.state.editor?.title == "second")
      let second = try #require(sheet.wrappedValue)
      #expect(second.id != first.id)
    }

    @Test func aWriteOfAModelSendsNothing() throws {
      let (store, received) = makeStore()
      let sheet = store.binding(Notes.editor, dismiss: .editorDismissed)
      store.send(.edit("draft"))
      let model = try #require(sheet.wrappedValue)
      let before = received()
      sheet.wrappedValue = model
      #expect(received() == before)
    }

    @Test func aBindingOutlivingItsStoreDismissesNothing() {
      var store: MainStore<Notes>? = MainStore(state: .init(), deps: ())
      let sheet = store!.binding(Notes.editor, dismiss: .editorDismissed)
      store!.send(.edit("draft"))
      _ = sheet.wrappedValue
      weak let released = store
      store = nil
      #expect(released == nil)
      #expect(sheet.wrappedValue == nil)
      sheet.wrappedValue = nil  // goes nowhere
    }
  }
#endif
