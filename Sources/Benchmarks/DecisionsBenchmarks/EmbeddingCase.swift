import Decisions

// MARK: - 18. A large child, embedded

/// Case 18: one event for a child whose state holds 100 or 1,600,000 elements, through each way of
/// embedding one child: a sheet (`embed(_:presented:)`), one case of a sheet's enum, a screen of
/// one case of a stack's enum, and a screen of a stack of the child's state itself.
///
/// Each event changes one element of the child's array. An embedding that changes the child in
/// place costs the same whatever its size; one that copies the child out and writes it back copies
/// the array on every event. Each large child's row is compared with the small one's of the same
/// way: the target is at most 2×.
func embeddingCase(_ plan: Plan) async -> [Row] {
  var rows: [Row] = []
  for shape in LargeChildren.Shape.allCases {
    var small: Row?
    for (size, letter) in [(100, shape.letters.small), (1_600_000, shape.letters.large)] {
      let id = "18\(letter)"
      var row = await measure(
        id, "\(shape.title), child of \(grouped(size))", events: plan.events(100_000), plan: plan
      ) { events in
        let store = Store<LargeChildren>(state: .init(shape, size: size), deps: ())
        let event = await LargeChildren.event(shape, in: store.state)
        let elapsed = await timedInBackground {
          for _ in 0..<events { await store.send(event) }
        }
        let child = await LargeChildren.child(shape, in: store.state)
        check(child?.count == events, "the child counted \(child?.count ?? -1) of \(events) events")
        check(child?.items.count == size, "the child has \(child?.items.count ?? -1) elements")
        await store.stop()
        return elapsed
      }
      if size == 100 {
        small = row
      } else if let small, !small.nanos.isEmpty, !row.nanos.isEmpty {
        row.note =
          "\(readable(row.median / small.median))× \(small.id) (100 elements); the target is at "
          + "most 2×"
      }
      rows.append(row)
    }
  }
  return rows
}

/// A child whose state holds an array, of any size: each event changes one of its elements.
enum LargeChild: Feature {
  struct State: Equatable, Sendable {
    /// The elements; each event adds one to one of them.
    var items: [Int]
    /// The events the child got.
    var count = 0
  }

  enum Event: Equatable, Sendable {
    case add
  }

  typealias Decision = Never

  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    state.items[state.count % state.items.count] &+= 1
    state.count += 1
    return []
  }
}

/// A parent of one ``LargeChild``, embedded in the place its ``Shape`` names.
enum LargeChildren: Feature {
  /// The ways one child is embedded.
  enum Shape: CaseIterable {
    case presented, presentedCase, stackCase, stack

    /// The rows' titles.
    var title: String {
      switch self {
      case .presented: "sheet (whole state)"
      case .presentedCase: "sheet of a case"
      case .stackCase: "stack screen of a case"
      case .stack: "stack screen (whole state)"
      }
    }

    /// The rows' letters: with a small and with a large child.
    var letters: (small: Character, large: Character) {
      switch self {
      case .presented: ("a", "b")
      case .presentedCase: ("c", "d")
      case .stackCase: ("e", "f")
      case .stack: ("g", "h")
      }
    }
  }

  /// A destination or screen: the child, or another kind.
  enum Destination: Equatable, Sendable {
    case child(LargeChild.State)
    case other
  }

  struct State: Equatable, Sendable {
    @Presented var sheet: LargeChild.State?
    @Presented var destination: Destination?
    var screens = ScreenStack<Destination>()
    var path = ScreenStack<LargeChild.State>()

    /// A child of `size` elements in the place `shape` names, and nothing elsewhere.
    init(_ shape: Shape, size: Int) {
      let child = LargeChild.State(items: Array(repeating: 0, count: size))
      switch shape {
      case .presented: sheet = child
      case .presentedCase: destination = .child(child)
      case .stackCase:
        _ = screens.push(.other)
        _ = screens.push(.child(child))
      case .stack: _ = path.push(child)
      }
    }
  }

  enum Event: Equatable, Sendable {
    case sheet(LargeChild.Event)
    case destination(LargeChild.Event)
    case screen(id: ScreenStack<Destination>.ID, LargeChild.Event)
    case path(id: ScreenStack<LargeChild.State>.ID, LargeChild.Event)
  }

  typealias Decision = Never
  typealias Deps = Void

  static let sheet = embed(LargeChild.self, presented: \.$sheet, event: Event.sheet)
  static let destination = embed(
    LargeChild.self, presented: \.$destination, case: Destination.child, event: Event.destination)
  static let screens = embed(
    LargeChild.self, stack: \.screens, case: Destination.child, event: Event.screen)
  static let path = embed(LargeChild.self, stack: \.path, event: Event.path)

  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    switch event {
    case .sheet(let event): sheet.makeDecisions(event: event, in: &state)
    case .destination(let event): destination.makeDecisions(event: event, in: &state)
    case .screen(let id, let event): screens.makeDecisions(event: event, id: id, in: &state)
    case .path(let id, let event): path.makeDecisions(event: event, id: id, in: &state)
    }
  }

  static func execute(_ decision: Never, deps: Void, effects: Effects<Event>) {}

  /// The event for the child in the place `shape` names.
  static func event(_ shape: Shape, in state: State) -> Event {
    switch shape {
    case .presented: .sheet(.add)
    case .presentedCase: .destination(.add)
    case .stackCase: .screen(id: state.screens.ids[1], .add)
    case .stack: .path(id: state.path.ids[0], .add)
    }
  }

  /// The child in the place `shape` names.
  static func child(_ shape: Shape, in state: State) -> LargeChild.State? {
    switch shape {
    case .presented: sheet.state(in: state)
    case .presentedCase: destination.state(in: state)
    case .stackCase: screens.state(id: state.screens.ids[1], in: state)
    case .stack: path.state(id: state.path.ids[0], in: state)
    }
  }
}
