import Decisions
import DecisionsTesting
import Foundation
import Testing

/// A counter kept in a file by `Persisted`, up to a limit: a feature with a persisted child, as an
/// app writes one, explored with `Persisted.Deps.explored`.
enum KeptCount: Feature {
  struct State: Hashable, Sendable {
    /// The count, kept in a file.
    var count = Persisted<Int>.State(0, quietPeriod: .seconds(1))
  }

  enum Event: Equatable, Sendable {
    /// Counts one more, up to 2.
    case increment
    /// An event of the count's file.
    case file(Persisted<Int>.Event)
  }

  enum Decision: Equatable, Sendable {
    /// The file work of the count.
    case file(Persisted<Int>.Decision)
  }

  struct Deps: Sendable {
    /// The count's file.
    var file: Persisted<Int>.Deps
  }

  static let file = embed(
    Persisted<Int>.self, state: \.count, event: Event.file, decision: Decision.file)
  static let childWork = [file.work]

  static func makeStartDecisions(state: inout State) -> [Decision] {
    file.start(in: &state)
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    file.savingChanges(in: &state) { state in
      switch event {
      case .increment:
        if state.count.value < 2 { state.count.value += 1 }
        return []
      case .file(let event):
        return file.makeDecisions(event: event, in: &state)
      }
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .file(let decision):
      file.execute(decision, deps: deps.file, effects: effects)
    }
  }

  /// The file with no file, a saved 1, and a corrupt one; every write succeeds or fails.
  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(
      file: .explored(
        effects, name: "count",
        loads: [.value(nil), .value(1), .failure(JSONFileError.corrupt(path: "c", reason: "x"))],
        saves: [.value(()), .failure(CancellationError())]))
  }
}

extension ExplorationRule<KeptCount> {
  /// A write runs only while the file stands loaded.
  static var writesOnlyWhenLoaded: Self {
    Self("a write runs only while the file stands loaded") { moment in
      !moment.state.count.isWriting || moment.state.count.isLoaded
    }
  }

  /// Wrong on purpose: the saved 1 and one increment make 2.
  static var neverTwo: Self {
    Self("the count never reaches 2") { moment in moment.state.count.value != 2 }
  }
}

@Suite struct PersistedExploreTests {
  static func exploration() -> FeatureExploration<KeptCount> {
    explore(KeptCount.self, from: .init(), deps: KeptCount.deps) { _ in [.increment] }
  }

  /// The answers given are the explorer's choices: a load of each kind, and a write's error
  /// (one not of the file's kind) as the file's `writeFailed` named after the dependency.
  @Test func theFileAnswersAreExploredAndErrorsAreTheFilesOwn() {
    let exploration = Self.exploration()
    exploration.expectComplete()
    exploration.expectNoUnhandledErrors()
    exploration.expectInvariant(.writesOnlyWhenLoaded)
    let states = exploration.snapshots.map(\.state.count)
    #expect(states.contains { $0.status == .failed(.corrupt(path: "c", reason: "x")) })
    #expect(states.contains { $0.status == .loaded && $0.value == 1 })
    #expect(states.contains { $0.isWriting })
    #expect(
      states.contains {
        $0.saveError == .writeFailed(path: "count.save", reason: "CancellationError()")
      })
  }

  /// A broken rule prints its store test with the persisted state as its public initializer
  /// writes it, with the dependencies named after the value.
  @Test func aCounterexamplePrintsThePersistedStateAsItsInitializer() {
    let exploration = Self.exploration()
    withKnownIssue {
      exploration.expectInvariant(.neverTwo)
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("count.load() answers value(Optional(1))")
        && text.contains("Persisted<Int>.State(")
        && text.contains("value: 2,")
        && text.contains("status: .loaded,")
        && text.contains("quietPeriod: .seconds(1)")
        && !text.contains("isChanged") && !text.contains("nesting")
    }
  }

  /// The store test above, pasted as printed (with `deps` renamed): it compiles, and fails on its
  /// last line only, the rule's check.
  @Test func thePrintedStoreTestCompilesAndFailsOnTheRule() async throws {
    let deps = KeptCount.deps
    try await withKnownIssue {
      let effects = ExploredEffects()
      let test = StoreTest<KeptCount>(
        state: KeptCount.State(
          count: Persisted<Int>.State(
            value: 0,
            status: .loading,
            hasUnsavedChanges: false,
            isWaitingToSave: false,
            isWriting: false,
            saveError: nil,
            backup: nil,
            quietPeriod: .seconds(1)
          )
        ), deps: deps(effects), endChecks: EndChecks.all.subtracting(.runningWork))
      await test.expectStart(decisions: [.file(.load)]) {
        $0 = KeptCount.State(
          count: Persisted<Int>.State(
            value: 0,
            status: .loading,
            hasUnsavedChanges: false,
            isWaitingToSave: false,
            isWriting: false,
            saveError: nil,
            backup: nil,
            quietPeriod: .seconds(1)
          )
        )
      }
      try await effects.answer("count.load", arguments: "", sample: 1)
      await test.receive(.file(.loaded(1))) {
        $0 = KeptCount.State(
          count: Persisted<Int>.State(
            value: 1,
            status: .loaded,
            hasUnsavedChanges: false,
            isWaitingToSave: false,
            isWriting: false,
            saveError: nil,
            backup: nil,
            quietPeriod: .seconds(1)
          )
        )
      }
      await test.send(.increment, decisions: [.file(.waitToSave(.seconds(1)))]) {
        $0 = KeptCount.State(
          count: Persisted<Int>.State(
            value: 2,
            status: .loaded,
            hasUnsavedChanges: true,
            isWaitingToSave: true,
            isWriting: false,
            saveError: nil,
            backup: nil,
            quietPeriod: .seconds(1)
          )
        )
      }
      await test.expect(.neverTwo, effects: effects)
    } matching: { issue in
      String(describing: issue).contains("the count never reaches 2")
    }
  }
}
