// "The whole story, on one real bug" of Docs/Recording.md, run: a session breaks a rule and the
// store saves a recording; the recording is inspected, shrunk, and becomes a regression test.

import Decisions
import DecisionsTesting
import Testing

@Suite struct RecordingStoryTests {
  // MARK: - A session shows it

  /// Runs the session in a store whose flight recorder checks that the speaker is an attendee,
  /// and returns the recording it saved.
  static func recordedSession() async throws -> FlightRecording<MeetingClock> {
    let saved = SavedRecordings()
    let store = Store<MeetingClock>(
      state: .init(attendees: 7, duration: 300),
      deps: (),
      recorder: FlightRecorder(
        capacity: 1_000,
        invariant: MeetingClock.speakerIsAnAttendee,
        save: { saved.keep($0) }))
    await store.send(contentsOf: MeetingClock.session)  // 241 events

    #expect(saved.all.count == 1)  // saved when the rule broke, not again while it stays broken
    let recording = try #require(saved.all.first)
    #expect(recording.trigger == .invariantBroken("the speaker is an attendee"))
    return recording
  }

  @Test func aSessionBreaksTheRuleAndTheStoreSavesIt() async throws {
    let recording = try await Self.recordedSession()
    #expect(recording.events.count == 223)  // the session's 241 events, up to the one that broke it
    #expect(recording.eventsBefore == 0)
    #expect(recording.finalState == .init(attendees: 7, duration: 300, seconds: 294, speaker: 7))
  }

  // MARK: - The recording is inspected

  @Test func theInspectorPageShowsTheStepThatBrokeTheRule() async throws {
    let recording = try await Self.recordedSession()
    let page = try recording.inspectorPage()
    #expect(page.contains("<dd>invariant broken: &quot;the speaker is an attendee&quot;</dd>"))
    #expect(page.contains("<body data-steps=\"223\">"))
    #expect(page.contains(#"\n  .speaker\n−   6\n+   7""#))  // step 223's diff, in the page's data
  }

  // MARK: - The recording is shrunk

  @Test func theRecordingShrinksToAOneMinimalRun() async throws {
    let recording = try await Self.recordedSession()
    let shrunk = try Replay(recording).shrink(
      keeping: .invariantBroken(MeetingClock.speakerIsAnAttendee))
    #expect(shrunk.events.count == 130)
    #expect(shrunk.replays == 1_215)
    // One tap, 42 ticks, two taps, 42 ticks, one tap, 42 ticks: without any one, the rule holds.
    let ticks = MeetingClock.ticks(42)
    #expect(
      shrunk.events == [.nextTapped] + ticks + [.nextTapped, .nextTapped] + ticks + [.nextTapped]
        + ticks)
  }

  @Test func aTapForATickShrinksItToTheShortestRun() async throws {
    let recording = try await Self.recordedSession()
    let shrunk = try Replay(recording).shrink(
      keeping: .invariantBroken(MeetingClock.speakerIsAnAttendee),
      simplify: { event in
        // A tap does in one event what up to 42 ticks do; never the other way round.
        event == .timerTicked ? [.nextTapped] : []
      })
    #expect(shrunk.events == Array(repeating: .nextTapped, count: 6) + MeetingClock.ticks(42))
    #expect(shrunk.replays == 1_714)
    #expect(
      shrunk.description.hasPrefix(
        """
        Shrunk 223 events to 48 in 1,714 replays; the invariant "the speaker is an attendee" is \
        broken.
        """))
    #expect(
      shrunk.coreTest.hasPrefix(
        """
        var test = CoreTest<MeetingClock>(state: MeetingClock.State(attendees: 7, duration: 300, \
        seconds: 0, speaker: 0))
        test.send(.nextTapped) {
          $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 42, speaker: 1)
        }
        """))
    #expect(
      shrunk.coreTest.hasSuffix(
        """
        test.send(.timerTicked) {
          $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 294, speaker: 7)
        }
        """))
  }

  // MARK: - The shrunk run becomes the regression test

  @Test func theRegressionTestPassesWithTheFix() {
    theLastAttendeeKeepsTheFloor(FixedMeetingClock.self)
  }

  @Test func theRegressionTestFailsWithTCAsRule() {
    withKnownIssue {
      theLastAttendeeKeepsTheFloor(MeetingClock.self)
    } matching: { issue in
      issue.description.contains("Step 48, .timerTicked")
    }
  }
}

/// The shrunk run as the shrinker printed it, with its last step corrected: the regression test.
///
/// It runs against either clock, which share their state and events, so that the test can show it
/// fails with TCA's rule; a feature with one core pastes the story as it is printed, with
/// `CoreTest<MeetingClock>(state: …)`.
func theLastAttendeeKeepsTheFloor<Clock: Core>(_ clock: Clock.Type)
where Clock.State == MeetingClock.State, Clock.Event == MeetingClock.Event, Clock.Decision == Never
{
  var test = CoreTest(
    clock, state: MeetingClock.State(attendees: 7, duration: 300, seconds: 0, speaker: 0))
  test.send(.nextTapped) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 42, speaker: 1)
  }
  test.send(.nextTapped) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 84, speaker: 2)
  }
  test.send(.nextTapped) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 126, speaker: 3)
  }
  test.send(.nextTapped) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 168, speaker: 4)
  }
  test.send(.nextTapped) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 210, speaker: 5)
  }
  test.send(.nextTapped) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 252, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 253, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 254, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 255, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 256, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 257, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 258, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 259, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 260, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 261, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 262, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 263, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 264, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 265, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 266, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 267, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 268, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 269, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 270, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 271, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 272, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 273, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 274, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 275, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 276, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 277, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 278, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 279, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 280, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 281, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 282, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 283, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 284, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 285, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 286, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 287, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 288, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 289, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 290, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 291, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 292, speaker: 6)
  }
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 293, speaker: 6)
  }
  // The story as printed ends with `speaker: 7`: corrected, the last attendee keeps the floor.
  test.send(.timerTicked) {
    $0 = MeetingClock.State(attendees: 7, duration: 300, seconds: 294, speaker: 6)
  }
}
