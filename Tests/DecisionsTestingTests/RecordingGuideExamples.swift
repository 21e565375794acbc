// The examples of Docs/Recording.md, compiled and run so that the guide cannot rot; GuidesTests'
// GuideCodeBlocksTests checks that every Swift block of the guide stands here, line for line.
//
// The guide's feature is the keypad of Support/Keypad.swift, with its planted bug, and the chat of
// the same file for payloads; the failure messages the guide quotes are pinned here.

import DecisionsTesting
import Foundation
import Synchronization
import Testing

@Suite struct RecordingGuideExamples {
  // MARK: - Replay and time travel

  @Test func aRecordingReplaysThroughTodaysCore() throws {
    // Attached to a bug report: the app's journal as JSON (see Testing.md, section 9).
    let json = """
      {"initialState": {"status": {"idle": {}}, "failures": 0},
       "events": [{"tap": {}}, {"finishLoading": {"_0": {"number": 42, "text": "The answer."}}},
                  {"failedLoading": {"_0": "timeout"}}]}
      """
    let recording = try JSONDecoder().decode(
      Journal<FactLoader>.Recording.self, from: Data(json.utf8))
    let replay = Replay(recording)
    #expect(replay.count == 3)
    #expect(replay.state(atStep: 1)?.status == .loading)  // step 0 is the initial state
    #expect(replay.step(3)?.before.status == .loaded(.answer))
    #expect(replay.step(3)?.decisions == [])  // the late failure shows no snackbar
  }

  @Test func aJournalKeepsWhatTheStoreDid() async {
    let journal = Journal<FactLoader>(initialState: .init())
    let store = Store<FactLoader>(
      state: journal.initialState,
      deps: .init(loadFact: { .answer }, track: { _ in }, log: { _ in }, showSnackbar: { _ in }),
      diagnostics: journal.record)
    await store.send(.tap)
    await store.settle()

    let replay = Replay(journal)  // with the states and decisions the store reported
    replay.expectMatchesRecording()
    #expect(replay.firstDisagreement == nil)
  }

  @Test func aChangedFeatureDisagreesWithAnOldRecording() {
    // Recorded before the bug: only the owner's code opened the safe.
    let events: [Keypad.Event] = [.digit(7), .light(true), .digit(3), .digit(9), .digit(1)]
    let recorded = ShrinkTests.recordedBeforeTheBug(events)

    let replay = Replay(Keypad.self, from: .init(), recordedSteps: recorded)
    #expect(replay.firstDisagreement?.step == 5)
    withKnownIssue {
      replay.expectMatchesRecording()
    }
  }

  // MARK: - Shrinking

  @Test func aThousandEventsShrinkToFour() throws {
    let events = Keypad.recording(seed: 26)  // 1,000 events, the bug somewhere among them
    let replay = Replay(Keypad.self, from: .init(), events: events)
    let shrunk = try replay.shrink(
      keeping: .transitionInvariantBroken("the safe opens only on the owner's code") { step in
        step.before.isOpen || !step.after.isOpen || step.after.lastDigits == Keypad.ownerCode
      })
    #expect(shrunk.events == [.digit(7), .digit(3), .digit(9), .digit(1)])
    #expect(shrunk.replays == 44)
  }

  @Test func theShrunkStoryIsTheRegressionTest() {
    var test = CoreTest<Keypad>(state: Keypad.State(lastDigits: [], isOpen: false, isLit: false))
    test.send(.digit(7)) {
      $0 = Keypad.State(lastDigits: [7], isOpen: false, isLit: false)
    }
    test.send(.digit(3)) {
      $0 = Keypad.State(lastDigits: [7, 3], isOpen: false, isLit: false)
    }
    test.send(.digit(9)) {
      $0 = Keypad.State(lastDigits: [7, 3, 9], isOpen: false, isLit: false)
    }
    // Once fixed, the factory code opens nothing: the last step becomes
    // test.send(.digit(1)) { $0 = Keypad.State(lastDigits: [7, 3, 9, 1], isOpen: false, isLit: false) }
    test.send(.digit(1), decisions: [.unlock]) {
      $0 = Keypad.State(lastDigits: [7, 3, 9, 1], isOpen: true, isLit: false)
    }
  }

  @Test func theThreeKindsOfSymptom() throws {
    let replay = Replay(
      Keypad.self, from: .init(),
      recordedSteps: ShrinkTests.recordedBeforeTheBug(Keypad.recording(seed: 26)))

    // A rule about states.
    let notOpenedByTheFactoryCode = Symptom<Keypad>.invariantBroken("not opened by 7391") {
      !$0.isOpen || $0.lastDigits != Keypad.factoryCode
    }
    // A rule about transitions.
    let onlyTheOwnersCode = Symptom<Keypad>.transitionInvariantBroken("only the owner's code") {
      $0.before.isOpen || !$0.after.isOpen || $0.after.lastDigits == Keypad.ownerCode
    }
    // A replay that disagrees with the recording.
    let changed = Symptom<Keypad>.disagreementWithRecording
    // A predicate of your own over the whole run.
    let twoUnlocks = Symptom<Keypad>.run("two unlocks") { steps in
      steps.flatMap(\.decisions).filter { $0 == .unlock }.count == 2
    }

    #expect(try replay.shrink(keeping: notOpenedByTheFactoryCode).events.count == 4)
    #expect(try replay.shrink(keeping: onlyTheOwnersCode).events.count == 4)
    #expect(try replay.shrink(keeping: changed).events.count == 6)
    #expect(throws: ShrinkError.self) { try replay.shrink(keeping: twoUnlocks) }
  }

  @Test func payloadsShrinkToo() throws {
    let events = ["hi", "hello @@ world", "bye"].map(Chat.Event.send)
    let replay = Replay(Chat.self, from: .init(), events: events)
    let shrunk = try replay.shrink(
      keeping: .invariantBroken("every message is logged") { $0.log.count == $0.sent },
      simplify: { event in
        // Simpler messages, simplest first: the empty one, then each with a character fewer.
        guard case .send(let text) = event, !text.isEmpty else { return [] }
        return [.send("")]
          + text.indices.map { index in
            var shorter = text
            shorter.remove(at: index)
            return .send(shorter)
          }
      })
    #expect(shrunk.events == [.send("@@")])
  }

  @Test func aRecordingAsATest() {
    let replay = Replay(Keypad.self, from: .init(), events: Keypad.recording(seed: 26))
    withKnownIssue {
      replay.expectNoSymptom(
        .transitionInvariantBroken("only the owner's code") {
          $0.before.isOpen || !$0.after.isOpen || $0.after.lastDigits == Keypad.ownerCode
        })
    }
  }

  // MARK: - The flight recorder

  @Test func aStoreInTheFieldKeepsItsLastEvents() async throws {
    let reports = BugReports()
    let recorder = FlightRecorder<Keypad>(
      capacity: 500,
      checkpointInterval: 100,
      invariant: .init("not opened by the factory code") {
        !$0.isOpen || $0.lastDigits != Keypad.factoryCode
      },
      save: { recording in reports.keep(recording) })
    let store = Store<Keypad>(state: .init(), deps: (), recorder: recorder)

    for event in Keypad.recording(seed: 26) { await store.send(event) }
    let saved = try #require(reports.first)  // saved when the factory code opened the safe
    #expect(saved.trigger == .invariantBroken("not opened by the factory code"))

    // A "report a problem" button:
    if let recording = await store.flightRecording(note: "the user tapped Report") {
      let json = try recording.json()  // attach it to the report
      #expect(recording.events.count >= 500)
      #expect(json.hasPrefix("{"))
    }
  }

  @Test func aFieldRecordingBecomesARegressionTest() async throws {
    let reports = BugReports()
    let store = Store<Keypad>(
      state: .init(), deps: (),
      recorder: FlightRecorder(
        capacity: 500,
        invariant: .init("not opened by the factory code") {
          !$0.isOpen || $0.lastDigits != Keypad.factoryCode
        },
        save: { reports.keep($0) }))
    await store.send(contentsOf: Keypad.recording(seed: 26))
    let json = try #require(try reports.first?.json())

    let recording = try FlightRecording<Keypad>(json: Data(json.utf8))
    let replay = Replay(recording)
    #expect(replay.state(atStep: replay.count) == recording.finalState)
    let shrunk = try replay.shrink(
      keeping: .transitionInvariantBroken("only the owner's code") {
        $0.before.isOpen || !$0.after.isOpen || $0.after.lastDigits == Keypad.ownerCode
      })
    #expect(shrunk.events == [.digit(7), .digit(3), .digit(9), .digit(1)])
  }

  @Test func redactionKeepsTheCodeOutOfRecordings() async throws {
    let redaction = FlightRecorder<Keypad>.Redaction(
      event: { event in
        guard case .digit = event else { return event }
        return .digit(0)  // the digits typed are the owner's secret
      },
      state: { state in
        var state = state
        state.lastDigits = state.lastDigits.map { _ in 0 }
        return state
      })
    let store = Store<Keypad>(
      state: .init(), deps: (), recorder: FlightRecorder(capacity: 100, redaction: redaction))
    for digit in Keypad.ownerCode { await store.send(.digit(digit)) }
    let recording = try #require(await store.flightRecording())
    #expect(recording.isRedacted)
    #expect(recording.events == [.digit(0), .digit(0), .digit(0), .digit(0)])
    #expect(recording.finalState.lastDigits == [0, 0, 0, 0])
    #expect((await store.state).lastDigits == Keypad.ownerCode)  // the store is untouched
  }

  // MARK: - The inspector page

  @Test func aRecordingBecomesAnInspectorPage() async throws {
    let store = Store<Keypad>(state: .init(), deps: (), recorder: FlightRecorder(capacity: 500))
    await store.send(contentsOf: [.digit(7), .digit(3), .digit(9), .digit(1)])
    let recording = try #require(await store.flightRecording(note: "the safe opened"))
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("report-\(UUID().uuidString).html")
    defer { try? FileManager.default.removeItem(at: file) }

    let page = try recording.inspectorPage()
    try page.write(to: file, atomically: true, encoding: .utf8)
    #expect(try String(contentsOf: file, encoding: .utf8) == page)
    #expect(page.contains("<body data-steps=\"4\">"))
    #expect(page.contains("<dt>Final state</dt><dd>matches the replay</dd>"))

    let exploration = explore(Keypad.self, from: .init(), key: \.lastDigits) { _ in
      [.digit(7), .digit(3), .digit(9), .digit(1)]
    }
    let withStates = try recording.inspectorPage(exploration: exploration)
    #expect(withStates.contains("The run visited 5 of them"))

    let replay = Replay(recording)
    #expect(throws: InspectorPageError.tooManySteps(count: 4, limit: 3)) {
      try replay.inspectorPage(limits: .init(steps: 3, bytes: 1 << 20))
    }
  }

  @Test func aBadRecordingIsATypedError() {
    let json = #"{"format": "decisions.flight-recording", "version": 2}"#
    do {
      _ = try FlightRecording<Keypad>(json: Data(json.utf8))
      Issue.record("a recording of version 2 was read")
    } catch {
      #expect(error == .unsupportedVersion(found: 2, supported: 1))
      #expect(
        "\(error)" == "The flight recording has format version 2; this library reads version 1.")
    }
  }

  @Test func badInputIsAnErrorValue() {
    let empty = Replay(Chat.self, from: .init(), events: [])
    let rule = Symptom<Chat>.invariantBroken("every message is logged") { $0.log.count == $0.sent }
    #expect(throws: ShrinkError.emptyRecording) { try empty.shrink(keeping: rule) }
    let error = ShrinkError.emptyRecording
    #expect("\(error)" == "The recording has no events: there is nothing to shrink.")
  }
}

/// Where the guide's app keeps the recordings its store saves: a bug-report queue.
final class BugReports: Sendable {
  private let recordings = Mutex<[FlightRecording<Keypad>]>([])

  /// Keeps a recording.
  func keep(_ recording: FlightRecording<Keypad>) {
    recordings.withLock { $0.append(recording) }
  }

  /// The first recording kept, if any.
  var first: FlightRecording<Keypad>? { recordings.withLock { $0.first } }
}
