import DecisionsTesting
import Foundation
import SyncUps
import Testing

/// A sync-up of 6 seconds for three attendees: 2 seconds each.
private let shortSyncUp = SyncUp(
  id: UUID(0),
  attendees: [Attendee(id: UUID(1)), Attendee(id: UUID(2)), Attendee(id: UUID(3))],
  durationInSeconds: 6, title: "Design")

private typealias Meeting = RecordMeeting

extension SpeechRecognizer {
  /// A recogniser the user has refused: the meeting must not ask again or transcribe.
  fileprivate static var refused: Self {
    Self(
      authorizationStatus: { .denied },
      requestAuthorization: unimplemented("requestAuthorization", placeholder: .denied),
      transcripts: unimplemented("transcripts", placeholder: AsyncThrowingStream { $0.finish() }))
  }

  /// An authorised recogniser whose transcripts are the given stream.
  fileprivate static func authorized(
    transcripts: @escaping @Sendable () -> AsyncThrowingStream<String, any Error>
  ) -> Self {
    Self(
      authorizationStatus: { .authorized },
      requestAuthorization: unimplemented("requestAuthorization", placeholder: .authorized),
      transcripts: transcripts)
  }
}

/// What the tests' recogniser throws.
private struct RecognizerBroke: Error {}

// MARK: - Core

@Suite struct RecordMeetingCoreTests {
  @Test func appearingStartsTheTimerAndChecksSpeech() {
    var test = CoreTest<Meeting>(state: .init(syncUp: shortSyncUp))
    test.send(.appeared, decisions: [.startTimer(every: .seconds(1)), .checkSpeechAuthorization])
  }

  @Test func eachTickCountsASecondAndPassesToTheNextSpeakerAtTheEndOfTheirShare() {
    var test = CoreTest<Meeting>(state: .init(syncUp: shortSyncUp))
    test.send(.timerTicked) { $0.secondsElapsed = 1 }
    test.send(.timerTicked) {
      $0.secondsElapsed = 2
      $0.speakerIndex = 1
    }
    test.send(.timerTicked) { $0.secondsElapsed = 3 }
    test.send(.timerTicked) {
      $0.secondsElapsed = 4
      $0.speakerIndex = 2
    }
    test.send(.timerTicked) { $0.secondsElapsed = 5 }
    #expect(test.state.secondsRemaining == 1)
    test.send(.timerTicked, decisions: [.stopMeeting]) {
      $0.secondsElapsed = 6
      $0.ending = .save(transcript: "")
    }
    #expect(test.state.secondsRemaining == 0)
  }

  @Test func aShareThatDoesNotDivideTheMeetingNeverPassesTheLastSpeaker() {
    // 7 seconds for three: 2 seconds each, and the last speaker keeps the odd second.
    var syncUp = shortSyncUp
    syncUp.durationInSeconds = 7
    var test = CoreTest<Meeting>(state: .init(syncUp: syncUp, secondsElapsed: 5, speakerIndex: 2))
    test.send(.timerTicked) { $0.secondsElapsed = 6 }  // 6 / 2 would be a fourth speaker
    test.send(.timerTicked, decisions: [.stopMeeting]) {
      $0.secondsElapsed = 7
      $0.ending = .save(transcript: "")
    }
  }

  @Test func nextMovesToTheStartOfTheNextSpeakersShare() {
    var test = CoreTest<Meeting>(state: .init(syncUp: shortSyncUp, secondsElapsed: 1))
    test.send(.nextTapped) {
      $0.speakerIndex = 1
      $0.secondsElapsed = 2
    }
    test.send(.nextTapped) {
      $0.speakerIndex = 2
      $0.secondsElapsed = 4
    }
  }

  @Test func nextOnTheLastSpeakerAsksToEndWithoutDiscarding() {
    var test = CoreTest<Meeting>(
      state: .init(syncUp: shortSyncUp, secondsElapsed: 4, speakerIndex: 2))
    test.send(.nextTapped) {
      $0.dialog = Dialog(
        title: "End meeting?",
        message: "Everyone has spoken. Save the meeting, or carry on?",
        buttons: [.init("Save and end", action: .saveAndEnd), .init("Resume", role: .cancel)])
    }
    test.send(.dialog(.chose(.discard)))  // not a button of this alert: changes nothing
    test.send(.dialog(.chose(.saveAndEnd)), decisions: [.stopMeeting]) {
      $0.dialog = nil
      $0.ending = .save(transcript: "")
    }
  }

  @Test func endingTheMeetingEarlyOffersSaveDiscardAndResume() {
    var test = CoreTest<Meeting>(state: .init(syncUp: shortSyncUp, transcript: "Hi"))
    test.send(.endMeetingTapped) {
      $0.dialog = Dialog(
        title: "End meeting?",
        message: "The meeting has time left. Save it as it is, throw it away, or carry on?",
        buttons: [
          .init("Save and end", action: .saveAndEnd),
          .init("Discard", role: .destructive, action: .discard),
          .init("Resume", role: .cancel),
        ])
    }
    test.send(.dialog(.dismissed)) { $0.dialog = nil }  // Resume
    test.send(.dialog(.chose(.saveAndEnd)))  // a late answer: the alert is gone
    test.send(.endMeetingTapped) { $0.dialog = Meeting.endMeetingDialog(discardable: true) }
    test.send(.dialog(.chose(.saveAndEnd)), decisions: [.stopMeeting]) {
      $0.dialog = nil
      $0.ending = .save(transcript: "Hi")
    }
  }

  @Test func discardingEndsTheMeetingWithoutSaving() {
    var test = CoreTest<Meeting>(state: .init(syncUp: shortSyncUp, transcript: "Hi"))
    test.send(.endMeetingTapped) { $0.dialog = Meeting.endMeetingDialog(discardable: true) }
    test.send(.dialog(.chose(.discard)), decisions: [.stopMeeting]) {
      $0.dialog = nil
      $0.ending = .discard
    }
  }

  @Test func ticksWhileAnAlertShowsDoNotCount() {
    var test = CoreTest<Meeting>(state: .init(syncUp: shortSyncUp, secondsElapsed: 5))
    test.send(.endMeetingTapped) { $0.dialog = Meeting.endMeetingDialog(discardable: true) }
    test.send(.timerTicked)
    test.send(.timerTicked)
    test.send(.dialog(.dismissed)) { $0.dialog = nil }
    test.send(.timerTicked, decisions: [.stopMeeting]) {
      $0.secondsElapsed = 6
      $0.ending = .save(transcript: "")
    }
  }

  @Test func speechIsTranscribedOnlyWhenAllowed() {
    var test = CoreTest<Meeting>(state: .init(syncUp: shortSyncUp))
    test.send(.speechAuthorizationChecked(.authorized), decisions: [.transcribe])
    test.send(.speechAuthorizationChecked(.denied))
    test.send(.speechAuthorizationChecked(.restricted))
    test.send(.speechAuthorizationChecked(.notDetermined), decisions: [.requestSpeechAuthorization])
    test.send(.speechAuthorizationAnswered(.authorized), decisions: [.transcribe])
    test.send(.speechAuthorizationAnswered(.denied))
    test.send(.speechAuthorizationAnswered(.notDetermined))  // asked once: never again
    test.send(.transcriptChanged("I completed the project")) {
      $0.transcript = "I completed the project"
    }
  }

  @Test func aSpeechFailureMarksTheTranscriptAndAsksWhetherToGoOn() {
    var test = CoreTest<Meeting>(state: .init(syncUp: shortSyncUp, transcript: "I completed"))
    test.send(.speechFailed) {
      $0.transcript = "I completed ❌"
      $0.dialog = Dialog(
        title: "Speech recognition failed",
        message: "The rest of the meeting will not be transcribed. Carry on, or throw it away?",
        buttons: [
          .init("Continue meeting", role: .cancel),
          .init("Discard meeting", role: .destructive, action: .discard),
        ])
    }
    test.send(.dialog(.chose(.saveAndEnd)))  // not a button of this alert
    test.send(.dialog(.dismissed)) { $0.dialog = nil }  // Continue meeting
    test.send(.timerTicked) { $0.secondsElapsed = 1 }
  }

  @Test func aSpeechFailureBeforeAnyWordLeavesTheTranscriptEmpty() {
    var test = CoreTest<Meeting>(state: .init(syncUp: shortSyncUp))
    test.send(.speechFailed) { $0.dialog = Meeting.speechFailedDialog }
    test.send(.dialog(.chose(.discard)), decisions: [.stopMeeting]) {
      $0.dialog = nil
      $0.ending = .discard
    }
  }

  @Test func onceEndedTheMeetingIgnoresEverything() {
    var test = CoreTest<Meeting>(
      state: .init(syncUp: shortSyncUp, secondsElapsed: 3, ending: .save(transcript: "Hi")))
    for event: Meeting.Event in [
      .appeared, .timerTicked, .nextTapped, .endMeetingTapped, .dialog(.dismissed),
      .dialog(.chose(.discard)), .speechAuthorizationChecked(.authorized),
      .speechAuthorizationAnswered(.authorized), .transcriptChanged("late"), .speechFailed,
    ] {
      test.send(event)
    }
  }
}

// MARK: - Executor

@Suite(.timeLimit(.minutes(3))) struct RecordMeetingExecutorTests {
  @Test func checkingSpeechSendsTheStatusWithoutAsking() async {
    let execution = await perform(
      Meeting.Decision.checkSpeechAuthorization, of: Meeting.self,
      deps: .init(clock: ImmediateClock(), speech: .refused))
    #expect(execution.events == [.speechAuthorizationChecked(.denied)])
    #expect(execution.startedWork == [WorkID("speech")])
  }

  @Test func askingForSpeechSendsTheAnswer() async {
    let asked = Calls<Void>()
    var speech = SpeechRecognizer.refused
    speech.requestAuthorization = asked.returning(SpeechAuthorization.restricted)
    let execution = await perform(
      Meeting.Decision.requestSpeechAuthorization, of: Meeting.self,
      deps: .init(clock: ImmediateClock(), speech: speech))
    #expect(execution.events == [.speechAuthorizationAnswered(.restricted)])
    #expect(asked.count == 1)
  }

  @Test func aFailedTranscriptionSendsWhatItHeardThenTheFailure() async {
    let speech = SpeechRecognizer.authorized {
      AsyncThrowingStream {
        $0.yield("I completed")
        $0.finish(throwing: RecognizerBroke())
      }
    }
    let execution = await perform(
      Meeting.Decision.transcribe, of: Meeting.self,
      deps: .init(clock: ImmediateClock(), speech: speech))
    #expect(execution.events == [.transcriptChanged("I completed"), .speechFailed])
    #expect(execution.unhandledErrors.isEmpty)
  }

  @Test func stoppingTheMeetingCancelsTheTimerAndTheSpeech() async {
    let execution = await perform(
      Meeting.Decision.stopMeeting, of: Meeting.self,
      deps: .init(clock: ImmediateClock(), speech: .refused))
    #expect(
      execution.cancellations == [
        .work(id: WorkID("timer"), scope: []), .work(id: WorkID("speech"), scope: []),
      ])
    #expect(execution.events.isEmpty)
  }

  @Test func theFakeRecognizerSaysItsLinesOnTheClockThenFails() async {
    let clock = ImmediateClock()
    let speech = SpeechRecognizer.fake(
      lines: ["Hello", "world"], every: .seconds(2), on: clock, failing: true)
    #expect(await speech.authorizationStatus() == .authorized)
    let execution = await perform(
      Meeting.Decision.transcribe, of: Meeting.self, deps: .init(clock: clock, speech: speech))
    #expect(
      execution.events == [
        .transcriptChanged("Hello"), .transcriptChanged("Hello world"), .speechFailed,
      ]
    )
    #expect(clock.now == .init(offset: .seconds(6)))
  }

  @Test func theFakeRecognizerEndsAfterItsLinesUnlessToldToFail() async {
    let clock = ImmediateClock()
    let execution = await perform(
      Meeting.Decision.transcribe, of: Meeting.self,
      deps: .init(clock: clock, speech: .fake(lines: ["Hello"], every: .seconds(1), on: clock)))
    #expect(execution.events == [.transcriptChanged("Hello")])
    #expect(clock.now == .init(offset: .seconds(1)))
  }
}

// MARK: - Store

/// The whole feature in a real store, on a test clock: the scenarios of TCA's `RecordMeetingTests`.
@Suite(.timeLimit(.minutes(3))) struct RecordMeetingStoreTests {
  @Test func theTimerPassesEachSpeakerAndTheMeetingSavesItselfWhenTimeIsUp() async {
    let clock = TestClock()
    let test = StoreTest<Meeting>(
      state: .init(syncUp: shortSyncUp), deps: .init(clock: clock, speech: .refused))

    await test.send(
      .appeared, decisions: [.startTimer(every: .seconds(1)), .checkSpeechAuthorization])
    await test.receive(.speechAuthorizationChecked(.denied))
    await clock.advance(by: .milliseconds(999))
    await test.expectNoNewEvents()  // 1 ms before the first second: nothing yet
    await clock.advance(by: .milliseconds(1))
    await test.receive(.timerTicked) { $0.secondsElapsed = 1 }
    await clock.advance(by: .seconds(1))
    await test.receive(.timerTicked) {
      $0.secondsElapsed = 2
      $0.speakerIndex = 1
    }
    await clock.advance(by: .seconds(1))
    await test.receive(.timerTicked) { $0.secondsElapsed = 3 }
    await clock.advance(by: .seconds(1))
    await test.receive(.timerTicked) {
      $0.secondsElapsed = 4
      $0.speakerIndex = 2
    }
    await clock.advance(by: .seconds(1))
    await test.receive(.timerTicked) { $0.secondsElapsed = 5 }
    await clock.advance(by: .seconds(1))
    await test.receive(.timerTicked, decisions: [.stopMeeting]) {
      $0.secondsElapsed = 6
      $0.ending = .save(transcript: "")
    }
    #expect(clock.sleeperCount == 0)  // the timer stopped with the meeting
    await clock.advance(by: .seconds(10))  // no more ticks
    await test.finish()
  }

  @Test func aTranscriptFromSpeechIsSavedWithTheMeeting() async {
    let clock = TestClock()
    let speech = SpeechRecognizer.authorized {
      AsyncThrowingStream {
        $0.yield("I completed the project")
        $0.finish()
      }
    }
    let test = StoreTest<Meeting>(
      state: .init(syncUp: shortSyncUp), deps: .init(clock: clock, speech: speech),
      exhaustivity: .off)

    await test.send(.appeared)
    await test.receive(.transcriptChanged("I completed the project")) {
      $0.transcript = "I completed the project"
    }
    await clock.advance(by: .seconds(6))
    // NB: a non-exhaustive `receive` takes the first unasserted event equal to the one it names,
    // so each tick before the last is received too, without its state.
    for _ in 1...5 {
      await test.receive(.timerTicked)
    }
    await test.receive(.timerTicked, decisions: [.stopMeeting]) {
      $0.secondsElapsed = 6
      $0.ending = .save(transcript: "I completed the project")
    }
    await test.finish()
  }

  @Test func speechNotYetDecidedAsksTheUserThenTranscribes() async {
    let clock = TestClock()
    let asked = Calls<Void>()
    var speech = SpeechRecognizer.fake(lines: ["Hello"], every: .milliseconds(500), on: clock)
    speech.authorizationStatus = { .notDetermined }
    speech.requestAuthorization = asked.returning(SpeechAuthorization.authorized)
    let test = StoreTest<Meeting>(
      state: .init(syncUp: shortSyncUp), deps: .init(clock: clock, speech: speech))

    await test.send(
      .appeared, decisions: [.startTimer(every: .seconds(1)), .checkSpeechAuthorization])
    await test.receive(
      .speechAuthorizationChecked(.notDetermined), decisions: [.requestSpeechAuthorization])
    await test.receive(.speechAuthorizationAnswered(.authorized), decisions: [.transcribe])
    #expect(asked.count == 1)
    await clock.advance(by: .milliseconds(500))
    await test.receive(.transcriptChanged("Hello")) { $0.transcript = "Hello" }
    await test.send(.endMeetingTapped) { $0.dialog = Meeting.endMeetingDialog(discardable: true) }
    await test.send(.dialog(.chose(.saveAndEnd)), decisions: [.stopMeeting]) {
      $0.dialog = nil
      $0.ending = .save(transcript: "Hello")
    }
    #expect(clock.sleeperCount == 0)
    await test.finish()
  }

  @Test func endingEarlyAndSavingKeepsTheMeetingAndIgnoresTicksUnderTheAlert() async {
    let clock = TestClock()
    let test = StoreTest<Meeting>(
      state: .init(syncUp: shortSyncUp), deps: .init(clock: clock, speech: .refused))

    await test.send(
      .appeared, decisions: [.startTimer(every: .seconds(1)), .checkSpeechAuthorization])
    await test.receive(.speechAuthorizationChecked(.denied))
    await test.send(.endMeetingTapped) { $0.dialog = Meeting.endMeetingDialog(discardable: true) }
    await clock.advance(by: .seconds(3))
    await test.receive(.timerTicked)  // under the alert: no change
    await test.receive(.timerTicked)
    await test.receive(.timerTicked)
    await test.send(.dialog(.chose(.saveAndEnd)), decisions: [.stopMeeting]) {
      $0.dialog = nil
      $0.ending = .save(transcript: "")
    }
    #expect(clock.sleeperCount == 0)
    await test.finish()
  }

  @Test func endingEarlyAndDiscardingThrowsTheMeetingAway() async {
    let clock = TestClock()
    let test = StoreTest<Meeting>(
      state: .init(syncUp: shortSyncUp), deps: .init(clock: clock, speech: .refused))

    await test.send(
      .appeared, decisions: [.startTimer(every: .seconds(1)), .checkSpeechAuthorization])
    await test.receive(.speechAuthorizationChecked(.denied))
    await test.send(.endMeetingTapped) { $0.dialog = Meeting.endMeetingDialog(discardable: true) }
    await test.send(.dialog(.chose(.discard)), decisions: [.stopMeeting]) {
      $0.dialog = nil
      $0.ending = .discard
    }
    #expect(clock.sleeperCount == 0)
    await test.finish()
  }

  @Test func nextPassesEachSpeakerThenAsksToEndOnTheLast() async {
    let clock = TestClock()
    let test = StoreTest<Meeting>(
      state: .init(syncUp: shortSyncUp), deps: .init(clock: clock, speech: .refused))

    await test.send(
      .appeared, decisions: [.startTimer(every: .seconds(1)), .checkSpeechAuthorization])
    await test.receive(.speechAuthorizationChecked(.denied))
    await test.send(.nextTapped) {
      $0.speakerIndex = 1
      $0.secondsElapsed = 2
    }
    await test.send(.nextTapped) {
      $0.speakerIndex = 2
      $0.secondsElapsed = 4
    }
    await test.send(.nextTapped) { $0.dialog = Meeting.endMeetingDialog(discardable: false) }
    await test.send(.dialog(.chose(.saveAndEnd)), decisions: [.stopMeeting]) {
      $0.dialog = nil
      $0.ending = .save(transcript: "")
    }
    #expect(clock.sleeperCount == 0)
    await test.finish()
  }

  @Test func afterASpeechFailureTheMeetingGoesOnWithoutATranscript() async {
    let clock = TestClock()
    let speech = SpeechRecognizer.authorized {
      AsyncThrowingStream {
        $0.yield("I completed the project")
        $0.finish(throwing: RecognizerBroke())
      }
    }
    let test = StoreTest<Meeting>(
      state: .init(syncUp: shortSyncUp), deps: .init(clock: clock, speech: speech))

    await test.send(
      .appeared, decisions: [.startTimer(every: .seconds(1)), .checkSpeechAuthorization])
    await test.receive(.speechAuthorizationChecked(.authorized), decisions: [.transcribe])
    await test.receive(.transcriptChanged("I completed the project")) {
      $0.transcript = "I completed the project"
    }
    await test.receive(.speechFailed) {
      $0.transcript = "I completed the project ❌"
      $0.dialog = Meeting.speechFailedDialog
    }
    await test.send(.dialog(.dismissed)) { $0.dialog = nil }  // Continue meeting
    await clock.advance(by: .seconds(6))
    await test.receive(.timerTicked) { $0.secondsElapsed = 1 }
    await test.receive(.timerTicked) {
      $0.secondsElapsed = 2
      $0.speakerIndex = 1
    }
    await test.receive(.timerTicked) { $0.secondsElapsed = 3 }
    await test.receive(.timerTicked) {
      $0.secondsElapsed = 4
      $0.speakerIndex = 2
    }
    await test.receive(.timerTicked) { $0.secondsElapsed = 5 }
    await test.receive(.timerTicked, decisions: [.stopMeeting]) {
      $0.secondsElapsed = 6
      $0.ending = .save(transcript: "I completed the project ❌")
    }
    await test.finish()
  }

  @Test func afterASpeechFailureTheMeetingCanBeDiscarded() async {
    let clock = TestClock()
    let speech = SpeechRecognizer.authorized {
      AsyncThrowingStream { $0.finish(throwing: RecognizerBroke()) }
    }
    let test = StoreTest<Meeting>(
      state: .init(syncUp: shortSyncUp), deps: .init(clock: clock, speech: speech))

    await test.send(
      .appeared, decisions: [.startTimer(every: .seconds(1)), .checkSpeechAuthorization])
    await test.receive(.speechAuthorizationChecked(.authorized), decisions: [.transcribe])
    await test.receive(.speechFailed) { $0.dialog = Meeting.speechFailedDialog }
    await test.send(.dialog(.chose(.discard)), decisions: [.stopMeeting]) {
      $0.dialog = nil
      $0.ending = .discard
    }
    #expect(clock.sleeperCount == 0)
    await test.finish()
  }

  @Test func endingTheMeetingStopsTheTimerAndTheTranscription() async throws {
    let clock = TestClock()
    // Each transcript waits for the test, so the transcription is in flight when the meeting ends.
    let next = ControlledDependency<Void, String?>()
    let speech = SpeechRecognizer.authorized {
      AsyncThrowingStream(unfolding: { try await next() })
    }
    let test = StoreTest<Meeting>(
      state: .init(syncUp: shortSyncUp), deps: .init(clock: clock, speech: speech))

    await test.send(
      .appeared, decisions: [.startTimer(every: .seconds(1)), .checkSpeechAuthorization])
    await test.receive(.speechAuthorizationChecked(.authorized), decisions: [.transcribe])
    try await next.nextCall().answer("Hello")
    await test.receive(.transcriptChanged("Hello")) { $0.transcript = "Hello" }
    let call = try await next.nextCall()
    #expect(clock.sleeperCount == 1)  // the timer
    await test.send(.endMeetingTapped) { $0.dialog = Meeting.endMeetingDialog(discardable: true) }
    await test.send(.dialog(.chose(.discard)), decisions: [.stopMeeting]) {
      $0.dialog = nil
      $0.ending = .discard
    }
    #expect(!call.isWaiting)  // the transcription was cancelled
    #expect(clock.sleeperCount == 0)  // and so was the timer
    call.answer("too late")  // does nothing
    await clock.advance(by: .seconds(10))
    await test.finish()
  }
}
