import Testing

@testable import Decisions

// MARK: - A child whose storage counts its copies

/// Storage shared by copies of a ``Counted`` state, as an array's buffer is.
private final class Storage: @unchecked Sendable {
  // NB: `@unchecked Sendable`: only ever changed through a uniquely referenced state.
  var count: Int

  init(count: Int = 0) {
    self.count = count
  }
}

/// A child whose state is copy-on-write, and counts its copies.
///
/// Each event changes its storage, copying it first when it is not uniquely referenced. An
/// embedding that changes the child in place makes no copy.
private enum Counted: Feature {
  struct State: Equatable, Sendable {
    fileprivate var storage = Storage()
    /// How many events found the storage shared, and so copied it.
    var copies = 0

    var count: Int { storage.count }

    static func == (lhs: State, rhs: State) -> Bool {
      lhs.count == rhs.count && lhs.copies == rhs.copies
    }
  }

  enum Event: Equatable, Sendable {
    case add
  }

  typealias Decision = Never

  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    if !isKnownUniquelyReferenced(&state.storage) {
      state.copies += 1
      state.storage = Storage(count: state.storage.count)
    }
    state.storage.count += 1
    return []
  }
}

/// A parent that embeds ``Counted`` every way one child can be embedded.
private enum Host: Feature {
  enum Screen: Equatable, Sendable {
    case counted(Counted.State)
    case other
  }

  struct State: Equatable, Sendable {
    @Presented var sheet: Counted.State?
    @Presented var destination: Screen?
    var path = ScreenStack<Counted.State>()
    var screens = ScreenStack<Screen>()
    var extracted = ScreenStack<Screen>()
    @Presented var extractedSheet: Screen?
  }

  enum Event: Equatable, Sendable {
    case sheet(Counted.Event)
    case destination(Counted.Event)
    case path(id: ScreenStack<Counted.State>.ID, Counted.Event)
    case screen(id: ScreenStack<Screen>.ID, Counted.Event)
    case extracted(id: ScreenStack<Screen>.ID, Counted.Event)
    case extractedSheet(Counted.Event)
  }

  typealias Decision = Never
  typealias Deps = Void

  static let sheet = embed(Counted.self, presented: \.$sheet, event: Event.sheet)
  static let destination = embed(
    Counted.self, presented: \.$destination, case: Screen.counted, event: Event.destination)
  static let path = embed(Counted.self, stack: \.path, event: Event.path)
  static let screens = embed(
    Counted.self, stack: \.screens, case: Screen.counted, event: Event.screen)
  static let extracted = embed(
    Counted.self, stack: \.extracted, case: Screen.counted,
    extract: { if case .counted(let state) = $0 { state } else { nil } }, event: Event.extracted)
  static let extractedSheet = embed(
    Counted.self, presented: \.$extractedSheet, case: Screen.counted,
    extract: { if case .counted(let state) = $0 { state } else { nil } },
    event: Event.extractedSheet)

  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    switch event {
    case .sheet(let event): sheet.makeDecisions(event: event, in: &state)
    case .destination(let event): destination.makeDecisions(event: event, in: &state)
    case .path(let id, let event): path.makeDecisions(event: event, id: id, in: &state)
    case .screen(let id, let event): screens.makeDecisions(event: event, id: id, in: &state)
    case .extracted(let id, let event):
      extracted.makeDecisions(event: event, id: id, in: &state)
    case .extractedSheet(let event): extractedSheet.makeDecisions(event: event, in: &state)
    }
  }

  static func execute(_ decision: Never, deps: Void, effects: Effects<Event>) {}
}

@Suite struct EmbeddingInPlaceTests {
  /// Sends `events` of `event` to a fresh host state made by `make`, and returns the child as
  /// `read` finds it afterwards.
  private func afterEvents(
    _ events: Int, make: (inout Host.State) -> Void, event: (Host.State) -> Host.Event,
    read: (Host.State) -> Counted.State?
  ) -> Counted.State? {
    var state = Host.State()
    make(&state)
    let sent = event(state)
    for _ in 0..<events { _ = Host.makeDecisions(event: sent, state: &state) }
    return read(state)
  }

  @Test func aPresentedChildIsChangedInPlace() {
    let child = afterEvents(
      3, make: { $0.sheet = Counted.State() }, event: { _ in .sheet(.add) }, read: { $0.sheet })
    #expect(child == Counted.State(storage: Storage(count: 3), copies: 0))
  }

  @Test func aPresentedCaseIsChangedInPlace() {
    let child = afterEvents(
      3, make: { $0.destination = .counted(Counted.State()) }, event: { _ in .destination(.add) },
      read: { Host.destination.state(in: $0) })
    #expect(child == Counted.State(storage: Storage(count: 3), copies: 0))
  }

  @Test func aPresentedCaseToldByExtractIsChangedInPlace() {
    let child = afterEvents(
      3, make: { $0.extractedSheet = .counted(Counted.State()) },
      event: { _ in .extractedSheet(.add) }, read: { Host.extractedSheet.state(in: $0) })
    #expect(child == Counted.State(storage: Storage(count: 3), copies: 0))
  }

  @Test func aStackScreenIsChangedInPlace() {
    let child = afterEvents(
      3, make: { _ = $0.path.push(Counted.State()) }, event: { .path(id: $0.path.ids[0], .add) },
      read: { Host.path.state(id: $0.path.ids[0], in: $0) })
    #expect(child == Counted.State(storage: Storage(count: 3), copies: 0))
  }

  @Test func aStackScreenOfOneCaseIsChangedInPlace() {
    let child = afterEvents(
      3,
      make: {
        _ = $0.screens.push(.other)
        _ = $0.screens.push(.counted(Counted.State()))
      },
      event: { .screen(id: $0.screens.ids[1], .add) },
      read: { Host.screens.state(id: $0.screens.ids[1], in: $0) })
    #expect(child == Counted.State(storage: Storage(count: 3), copies: 0))
  }

  @Test func aStackScreenToldByExtractIsChangedInPlace() {
    let child = afterEvents(
      3, make: { _ = $0.extracted.push(.counted(Counted.State())) },
      event: { .extracted(id: $0.extracted.ids[0], .add) },
      read: { Host.extracted.state(id: $0.extracted.ids[0], in: $0) })
    #expect(child == Counted.State(storage: Storage(count: 3), copies: 0))
  }

  @Test func anEventForAnotherCaseLeavesTheScreenAsItWas() {
    var state = Host.State()
    let other = state.screens.push(.other)
    let extracted = state.extracted.push(.other)
    state.destination = .other
    state.extractedSheet = .other
    let before = state
    #expect(Host.makeDecisions(event: .screen(id: other, .add), state: &state).isEmpty)
    #expect(Host.makeDecisions(event: .extracted(id: extracted, .add), state: &state).isEmpty)
    #expect(Host.makeDecisions(event: .destination(.add), state: &state).isEmpty)
    #expect(Host.makeDecisions(event: .extractedSheet(.add), state: &state).isEmpty)
    #expect(state == before)
    #expect(state.$destination.isSameChild(as: before.$destination))
  }
}

// MARK: - An enum with a custom mirror

/// A child that counts the events it gets.
private enum Tally: Feature {
  struct State: Equatable, Sendable {
    var count = 0
  }

  enum Event: Equatable, Sendable {
    case add
  }

  typealias Decision = Never

  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    state.count += 1
    return []
  }
}

/// Screens whose mirror hides their cases, as a type that redacts its dumps might.
private enum MirroredScreen: Equatable, Sendable, CustomReflectable {
  case tally(Tally.State)
  case other

  var customMirror: Mirror {
    Mirror(self, children: [:], displayStyle: .struct)
  }
}

/// A parent of screens with a custom mirror, told apart by `extract`.
private enum Mirrored: Feature {
  struct State: Equatable, Sendable {
    var path = ScreenStack<MirroredScreen>()
    @Presented var sheet: MirroredScreen?
  }

  enum Event: Equatable, Sendable {
    case tally(id: ScreenStack<MirroredScreen>.ID, Tally.Event)
    case sheet(Tally.Event)
  }

  typealias Decision = Never
  typealias Deps = Void

  static let tallies = embed(
    Tally.self, stack: \.path, case: MirroredScreen.tally,
    extract: { if case .tally(let state) = $0 { state } else { nil } }, event: Event.tally)
  static let sheet = embed(
    Tally.self, presented: \.$sheet, case: MirroredScreen.tally,
    extract: { if case .tally(let state) = $0 { state } else { nil } }, event: Event.sheet)

  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    switch event {
    case .tally(let id, let event): tallies.makeDecisions(event: event, id: id, in: &state)
    case .sheet(let event): sheet.makeDecisions(event: event, in: &state)
    }
  }

  static func execute(_ decision: Never, deps: Void, effects: Effects<Event>) {}
}

/// A parent that declares screens with a custom mirror by their constructor only.
private enum MirroredByReflection: Feature {
  struct State: Equatable, Sendable {
    var path = ScreenStack<MirroredScreen>()
    @Presented var sheet: MirroredScreen?
  }

  enum Event: Equatable, Sendable {
    case tally(id: ScreenStack<MirroredScreen>.ID, Tally.Event)
    case sheet(Tally.Event)
  }

  typealias Decision = Never
  typealias Deps = Void

  static let tallies = embed(
    Tally.self, stack: \.path, case: MirroredScreen.tally, event: Event.tally)
  static let sheet = embed(
    Tally.self, presented: \.$sheet, case: MirroredScreen.tally, event: Event.sheet)

  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    switch event {
    case .tally(let id, let event): tallies.makeDecisions(event: event, id: id, in: &state)
    case .sheet(let event): sheet.makeDecisions(event: event, in: &state)
    }
  }

  static func execute(_ decision: Never, deps: Void, effects: Effects<Event>) {}
}

@Suite(.timeLimit(.minutes(3))) struct EmbeddingCustomMirrorTests {
  @Test func screensWithACustomMirrorToldByExtractGetTheirEvents() async {
    var initial = Mirrored.State()
    _ = initial.path.push(.other)
    initial.sheet = .tally(Tally.State())
    let id = initial.path.push(.tally(Tally.State()))
    let store = Store<Mirrored>(state: initial, deps: ())
    await store.send(.tally(id: id, .add))
    await store.send(.tally(id: id, .add))
    await store.send(.tally(id: ScreenStack<MirroredScreen>.ID(0), .add))  // the other case
    await store.send(.sheet(.add))
    let state = await store.state
    #expect(state.path[id: id] == .tally(Tally.State(count: 2)))
    #expect(state.path[id: ScreenStack<MirroredScreen>.ID(0)] == .other)
    #expect(state.sheet == .tally(Tally.State(count: 1)))
    #expect(Mirrored.tallies.state(id: id, in: state) == Tally.State(count: 2))
  }

  /// Reflection would show the mirror, not the case, and drop every event: the declaration is
  /// refused when it is made, with a message that names the type and the way out.
  @Test func aDeclarationByReflectionOfAnEnumWithACustomMirrorIsRefused() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      var state = MirroredByReflection.State()
      let id = state.path.push(.tally(Tally.State()))
      _ = MirroredByReflection.makeDecisions(event: .tally(id: id, .add), state: &state)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("MirroredScreen has a custom mirror (CustomReflectable)"))
    #expect(message.contains("extract:"))
  }

  /// The same for a `Presented` slot of such an enum.
  @Test func aPresentedCaseByReflectionOfAnEnumWithACustomMirrorIsRefused() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      var state = MirroredByReflection.State()
      state.sheet = .tally(Tally.State())
      _ = MirroredByReflection.makeDecisions(event: .sheet(.add), state: &state)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("MirroredScreen has a custom mirror (CustomReflectable)"))
  }
}
