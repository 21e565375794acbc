import Foundation
import Testing

@testable import DecisionsTesting

@Suite struct ReplayTests {
  static let events: [Keypad.Event] = [.digit(7), .light(true), .digit(3), .digit(9), .digit(1)]
  /// The events, as a recorder saw them before the bug: the factory code did not open the safe.
  static let recordedBeforeTheBug = ShrinkTests.recordedBeforeTheBug(events)

  // MARK: - Stepping through a recording

  @Test func aTestCanStepToAnyPointOfARecording() throws {
    let replay = Replay(Keypad.self, from: .init(), events: Self.events)
    #expect(replay.count == 5)
    #expect(replay.state(atStep: 0) == Keypad.State())
    #expect(replay.state(atStep: 2) == Keypad.State(lastDigits: [7], isLit: true))
    #expect(replay.state(atStep: 5)?.isOpen == true)
    #expect(replay.state(atStep: 6) == nil)
    #expect(replay.state(atStep: -1) == nil)
    let last = try #require(replay.step(5))
    #expect(last.before.lastDigits == [7, 3, 9])
    #expect(last.event == .digit(1))
    #expect(last.after.isOpen)
    #expect(last.decisions == [.unlock])
    #expect(replay.step(0) == nil)
    #expect(replay.step(6) == nil)
  }

  @Test func aPrefixIsTheRunUpToThatPoint() {
    let replay = Replay(Keypad.self, from: .init(), recordedSteps: Self.recordedBeforeTheBug)
    let prefix = replay.prefix(2)
    #expect(prefix.events == [.digit(7), .light(true)])
    #expect(prefix.steps == Array(replay.steps.prefix(2)))
    #expect(prefix.recordedSteps == Array(Self.recordedBeforeTheBug.prefix(2)))
    #expect(replay.prefix(99).count == 5)
    #expect(replay.prefix(-1).count == 0)
  }

  // MARK: - Comparing with what was recorded

  @Test func theFirstDisagreementShowsTheStepAndADiff() throws {
    let replay = Replay(Keypad.self, from: .init(), recordedSteps: Self.recordedBeforeTheBug)
    let disagreement = try #require(replay.firstDisagreement)
    #expect(disagreement.step == 5)
    #expect(disagreement.before.lastDigits == [7, 3, 9])
    #expect(disagreement.recorded.decisions == [])
    #expect(disagreement.replayed.decisions == [.unlock])
    #expect(
      disagreement.description == """
        Replayed through today's Keypad, step 5 of 5 disagrees with the recording. The feature may \
        have changed since the recording was made: the recording shows what the core did then, \
        the replay what it does now.
        Step 5, .digit(1), sent in:
          Keypad.State(lastDigits: [7, 3, 9], isOpen: false, isLit: true)
        the state differs from the recorded one (− recorded, + replayed):
        Keypad.State
          .isOpen
        −   false
        +   true
        the decisions differ.
          Recorded: []
          Replayed: [.unlock]
        """)
    #expect(replay.comparison == disagreement.description)
  }

  @Test func aReplayThatAgreesSaysSo() {
    let steps = replay(Keypad.self, from: .init(), events: Self.events)
    let replay = Replay(Keypad.self, from: .init(), recordedSteps: steps)
    #expect(replay.firstDisagreement == nil)
    #expect(
      replay.comparison == "Today's Keypad agrees with every recorded step (5 steps compared).")
    #expect(withCapturedFailures { replay.expectMatchesRecording() } == [])
  }

  @Test func aRecordingOfEventsOnlyHasNothingToCompare() {
    let replay = Replay(Keypad.self, from: .init(), events: Self.events)
    #expect(replay.recordedSteps == nil)
    #expect(replay.firstDisagreement == nil)
    #expect(
      replay.comparison == """
        The recording of 5 events has no recorded states or decisions to compare with: replayed \
        through today's Keypad, it is a story, not a check.
        """)
  }

  @Test func expectMatchesRecordingFailsAtTheFirstDisagreement() throws {
    let replay = Replay(Keypad.self, from: .init(), recordedSteps: Self.recordedBeforeTheBug)
    let line: UInt = #line + 1
    let failures = withCapturedFailures { replay.expectMatchesRecording() }
    #expect(failures.map(\.message) == [try #require(replay.firstDisagreement).description])
    #expect(failures.first?.line == line)
    withKnownIssue {
      replay.expectMatchesRecording()
    }
  }

  // MARK: - From a journal and its recording

  @Test func aJournalReplaysWithTheStepsItRecorded() async throws {
    let journal = Journal<FactLoader>(initialState: .init())
    let store = Store<FactLoader>(
      state: journal.initialState,
      deps: .init(loadFact: { .answer }, track: { _ in }, log: { _ in }, showSnackbar: { _ in }),
      diagnostics: journal.record)
    await store.send(.tap)
    await store.settle()
    let replay = Replay(journal)
    #expect(replay.events == [.tap, .finishLoading(.answer)])
    #expect(replay.recordedSteps == journal.steps)
    #expect(replay.firstDisagreement == nil)
    #expect(replay.state(atStep: 2)?.status == .loaded(.answer))

    let decoded = try JSONDecoder().decode(
      Journal<FactLoader>.Recording.self, from: JSONEncoder().encode(journal.recording))
    let fromReport = Replay(decoded)
    #expect(fromReport.recordedSteps == nil)
    #expect(fromReport.steps == replay.steps)
  }
}
