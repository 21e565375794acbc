// The tests of Docs/Diagnostics.md, compiled and run.

import DecisionsTesting
import FactFeature
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(3))) struct DiagnosticsGuideTests {
  static let deps = Counter.Deps(loadFact: { "\($0) is a number." }, log: { _ in })

  @Test func theHookSeesEveryEventAndDecision() async {
    let lines = Calls<String>()
    let store = Store<Counter>(
      state: .init(), deps: Self.deps,
      diagnostics: diagnosticLines(of: Counter.self, write: lines.record))
    await store.send(.incrementTapped)
    await store.send(.factTapped)
    await store.settle()
    #expect(
      lines.all == [
        "event: incrementTapped",
        "event: factTapped",
        "  decided: loadFact(1)",
        "event: factLoaded(\"1 is a number.\")",
      ])
  }

  @Test func anErrorNobodyHandledIsReported() async {
    let lines = Calls<String>()
    let store = Store<Autosave>(
      state: .init(), deps: .init(save: { _ in throw Offline() }),
      diagnostics: diagnosticLines(of: Autosave.self, write: lines.record))
    await store.send(.edited("Hello"))
    await store.settle()
    #expect(
      lines.all == [
        "event: edited(\"Hello\")",
        "  decided: save(\"Hello\")",
        "work save failed: offline",
      ])
  }

  @Test func aResultOfCancelledWorkIsIgnoredAndSaysWhy() async {
    let gate = Gate()
    let lines = Calls<String>()
    let store = Store<Counter>(
      state: .init(),
      deps: .init(
        loadFact: { number in
          await gate.wait()  // ignores cancellation, as a slow network call might
          return "\(number) is a number."
        },
        log: { _ in }),
      diagnostics: diagnosticLines(of: Counter.self, write: lines.record))
    await store.send(.factTapped)
    await store.send(.incrementTapped)  // cancels the load
    gate.open()
    await store.settle()
    #expect(lines.all.last == "ignored: factLoaded(\"0 is a number.\") (cancelledWork)")
  }

  @MainActor
  @Test func anEventFromAClosedSheetsModelIsIgnored() {
    let journal = Journal<Dashboard>(initialState: .init())
    let dashboard = MainStore<Dashboard>(
      state: journal.initialState,
      deps: .init(loadFact: { "\($0) is a number." }, fetch: { $0 }, log: { _ in }),
      diagnostics: journal.record)  // called on the main actor
    dashboard.send(.openSheet)
    let sheet = dashboard.child(Dashboard.sheet)
    dashboard.send(.closeSheet)
    sheet?.send(.incrementTapped)  // the sheet is gone: its model's event goes nowhere
    #expect(journal.records.last == .ignored(.sheet(.incrementTapped), reason: .goneChild))
  }

  @Test func twoHooksInOne() async {
    let journal = Journal<Counter>(initialState: .init())
    let lines = Calls<String>()
    let log = diagnosticLines(of: Counter.self, write: lines.record)
    let store = Store<Counter>(
      state: journal.initialState, deps: Self.deps,
      diagnostics: { diagnostic in
        journal.record(diagnostic)
        log(diagnostic)
      })
    await store.send(.factTapped)
    await store.settle()
    #expect(journal.events == [.factTapped, .factLoaded("0 is a number.")])
    #expect(lines.count == 3)
    journal.expectReplayMatches()
  }

  @Test func aBoundedWindowStillReplaysToTheStoresState() async {
    let recent = RecentEvents<Counter>(initialState: .init(), limit: 3)
    let store = Store<Counter>(state: .init(), deps: Self.deps, diagnostics: recent.record)
    for _ in 0..<4 { await store.send(.incrementTapped) }
    await store.send(.factTapped)
    await store.settle()

    let snapshot = recent.snapshot
    #expect(snapshot.initialState == Counter.State(count: 3))
    #expect(snapshot.events == [.incrementTapped, .factTapped, .factLoaded("4 is a number.")])
    let steps = replay(Counter.self, from: snapshot.initialState, events: snapshot.events)
    #expect(steps.last?.state == (await store.state))
  }

  @Test func aRecordingTravelsAsJSONAndReplaysInATest() async throws {
    // In the app: a journal of the fact screen, encoded for a bug report.
    let journal = Journal<FactFeature>(initialState: .idle)
    let store = Store<FactFeature>(
      state: .idle,
      deps: .init(
        track: { _ in }, showSnackbar: { _ in }, log: { _ in },
        loadFact: { throw FactSourceError.simulatedFailure }),
      diagnostics: journal.record)
    await store.send(.view(.didTapButton))
    await store.settle()
    let json = try JSONEncoder().encode(journal.recording)

    // In a test: the report's recording, decoded and replayed through the core.
    let recording = try JSONDecoder().decode(Journal<FactFeature>.Recording.self, from: json)
    let steps = recording.replay()
    #expect(steps.map(\.state) == [.loading(previous: nil), .idle])
    #expect(steps.last?.decisions.last == .showSnackbar("Went wrong"))
  }

  @Test func aLateFactChangesNothing() {
    expectTrace(
      Counter.self, from: .init(),
      events: [.factTapped, .incrementTapped, .factLoaded("0 is even.")],
      named: "late-fact")
  }
}
