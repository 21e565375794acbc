import DecisionsTesting
import Foundation
import SyncUps
import Testing

/// A sync-up of 6 seconds for three attendees: 2 seconds each.
private let shortSyncUp = SyncUp(
  id: UUID(0),
  attendees: [Attendee(id: UUID(1)), Attendee(id: UUID(2)), Attendee(id: UUID(3))],
  durationInSeconds: 6, title: "Design")

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
  /// Where TCA's rule goes wrong: 300 seconds for 7 attendees is 42 each, and 294 and 300 are not
  /// where a share ends the meeting.
  @Test func aShareThatDoesNotDivideTheMeetingStaysOnTheLastSpeakerAndEndsOnTime() {
    let syncUp = SyncUp(
      id: UUID(0),
      attendees: IdentifiedArray(uniqueElements: (1...7).map { Attendee(id: UUID($0)) }),
      durationInSeconds: 300)
    var test = CoreTest<RecordMeeting>(
      state: .init(syncUp: syncUp, secondsElapsed: 293, speakerIndex: 6))
    test.send(.timerTicked) { $0.secondsElapsed = 294 }  // TCA's index would become 7 here
    test.send(.nextTapped) {
      $0.dialog = RecordMeeting.endMeetingDialog(discardable: false)
    }
    test.send(.dialog(.dismissed)) { $0.dialog = nil }
    for second in 295...299 {
      test.send(.timerTicked) { $0.secondsElapsed = second }
    }
    test.send(.timerTicked, decisions: [.end(.save(transcript: ""))]) {
      $0.secondsElapsed = 300
      $0.ending = .save(transcript: "")
    }
  }

  @Test func appearingStartsTheTimerAndChecksSpeech() {
    var test = CoreTest<RecordMeeting>(state: .init(syncUp: shortSyncUp))
    test.send(.appeared, decisions: [.startTimer(every: .seconds(1)), .checkSpeechAuthorization])
  }

  @Test func eachTickCountsASecondAndPassesToTheNextSpeakerAtTheEndOfTheirShare() {
    var test = CoreTest<RecordMeeting>(state: .init(syncUp: shortSyncUp))
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
    test.send(.timerTicked, decisions: [.end(.save(transcript: ""))]) {
      $0.secondsElapsed = 6
      $0.ending = .save(transcript: "")
    }
    #expect(test.state.secondsRemaining == 0)
  }

  @Test func aShareThatDoesNotDivideTheMeetingNeverPassesTheLastSpeaker() {
    // 7 seconds for three: 2 seconds each, and the last speaker keeps the odd second.
    var syncUp = shortSyncUp
    syncUp.durationInSeconds = 7
    var test = CoreTest<RecordMeeting>(
      state: .init(syncUp: syncUp, secondsElapsed: 5, speakerIndex: 2))
    test.send(.timerTicked) { $0.secondsElapsed = 6 }  // 6 / 2 would be a fourth speaker
    test.send(.timerTicked, decisions: [.end(.save(transcript: ""))]) {
      $0.secondsElapsed = 7
      $0.ending = .save(transcript: "")
    }
  }

  @Test func nextMovesToTheStartOfTheNextSpeakersShare() {
    var test = CoreTest<RecordMeeting>(state: .init(syncUp: shortSyncUp, secondsElapsed: 1))
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
    var test = CoreTest<RecordMeeting>(
      state: .init(syncUp: shortSyncUp, secondsElapsed: 4, speakerIndex: 2))
    test.send(.nextTapped) {
      $0.dialog = Dialog(
        title: "End meeting?",
        message: "Everyone has spoken. Save the meeting, or carry on?",
        buttons: [.init("Save and end", action: .saveAndEnd), .init("Resume", role: .cancel)])
    }
    test.send(.dialog(.chose(.discard)))  // not a button of this alert: changes nothing
    test.send(.dialog(.chose(.saveAndEnd)), decisions: [.end(.save(transcript: ""))]) {
      $0.dialog = nil
      $0.ending = .save(transcript: "")
    }
  }

  @Test func endingTheMeetingEarlyOffersSaveDiscardAndResume() {
    var test = CoreTest<RecordMeeting>(state: .init(syncUp: shortSyncUp, transcript: "Hi"))
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
    test.send(.endMeetingTapped) { $0.dialog = RecordMeeting.endMeetingDialog(discardable: true) }
    test.send(.dialog(.chose(.saveAndEnd)), decisions: [.end(.save(transcript: "Hi"))]) {
      $0.dialog = nil
      $0.ending = .save(transcript: "Hi")
    }
  }

  @Test func discardingEndsTheMeetingWithoutSaving() {
    var test = CoreTest<RecordMeeting>(state: .init(syncUp: shortSyncUp, transcript: "Hi"))
    test.send(.endMeetingTapped) { $0.dialog = RecordMeeting.endMeetingDialog(discardable: true) }
    test.send(.dialog(.chose(.discard)), decisions: [.end(.discard)]) {
      $0.dialog = nil
      $0.ending = .discard
    }
  }

  @Test func ticksWhileAnAlertShowsDoNotCount() {
    var test = CoreTest<RecordMeeting>(state: .init(syncUp: shortSyncUp, secondsElapsed: 5))
    test.send(.endMeetingTapped) { $0.dialog = RecordMeeting.endMeetingDialog(discardable: true) }
    test.send(.timerTicked)
    test.send(.timerTicked)
    test.send(.dialog(.dismissed)) { $0.dialog = nil }
    test.send(.timerTicked, decisions: [.end(.save(transcript: ""))]) {
      $0.secondsElapsed = 6
      $0.ending = .save(transcript: "")
    }
  }

  @Test func speechIsTranscribedOnlyWhenAllowed() {
    var test = CoreTest<RecordMeeting>(state: .init(syncUp: shortSyncUp))
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
    var test = CoreTest<RecordMeeting>(state: .init(syncUp: shortSyncUp, transcript: "I completed"))
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
    var test = CoreTest<RecordMeeting>(state: .init(syncUp: shortSyncUp))
    test.send(.speechFailed) { $0.dialog = RecordMeeting.speechFailedDialog }
    test.send(.dialog(.chose(.discard)), decisions: [.end(.discard)]) {
      $0.dialog = nil
      $0.ending = .discard
    }
  }

  @Test func onceEndedTheMeetingIgnoresEverything() {
    var test = CoreTest<RecordMeeting>(
      state: .init(syncUp: shortSyncUp, secondsElapsed: 3, ending: .save(transcript: "Hi")))
    for event: RecordMeeting.Event in [
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
      RecordMeeting.Decision.checkSpeechAuthorization, of: RecordMeeting.self,
      deps: .init(clock: ImmediateClock(), speech: .refused))
    #expect(execution.events == [.speechAuthorizationChecked(.denied)])
    #expect(execution.startedWork == [WorkID("speech")])
  }

  @Test func askingForSpeechSendsTheAnswer() async {
    let asked = Calls<Void>()
    var speech = SpeechRecognizer.refused
    speech.requestAuthorization = asked.returning(SpeechAuthorization.restricted)
    let execution = await perform(
      RecordMeeting.Decision.requestSpeechAuthorization, of: RecordMeeting.self,
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
      RecordMeeting.Decision.transcribe, of: RecordMeeting.self,
      deps: .init(clock: ImmediateClock(), speech: speech))
    #expect(execution.events == [.transcriptChanged("I completed"), .speechFailed])
    #expect(execution.unhandledErrors.isEmpty)
  }

  @Test func stoppingTheMeetingCancelsTheTimerAndTheSpeech() async {
    let execution = await perform(
      RecordMeeting.Decision.end(.discard), of: RecordMeeting.self,
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
      RecordMeeting.Decision.transcribe, of: RecordMeeting.self,
      deps: .init(clock: clock, speech: speech))
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
      RecordMeeting.Decision.transcribe, of: RecordMeeting.self,
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
    let test = StoreTest<RecordMeeting>(
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
    await test.receive(.timerTicked, decisions: [.end(.save(transcript: ""))]) {
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
    let test = StoreTest<RecordMeeting>(
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
    await test.receive(
      .timerTicked, decisions: [.end(.save(transcript: "I completed the project"))]
    ) {
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
    let test = StoreTest<RecordMeeting>(
      state: .init(syncUp: shortSyncUp), deps: .init(clock: clock, speech: speech))

    await test.send(
      .appeared, decisions: [.startTimer(every: .seconds(1)), .checkSpeechAuthorization])
    await test.receive(
      .speechAuthorizationChecked(.notDetermined), decisions: [.requestSpeechAuthorization])
    await test.receive(.speechAuthorizationAnswered(.authorized), decisions: [.transcribe])
    #expect(asked.count == 1)
    await clock.advance(by: .milliseconds(500))
    await test.receive(.transcriptChanged("Hello")) { $0.transcript = "Hello" }
    await test.send(.endMeetingTapped) {
      $0.dialog = RecordMeeting.endMeetingDialog(discardable: true)
    }
    await test.send(.dialog(.chose(.saveAndEnd)), decisions: [.end(.save(transcript: "Hello"))]) {
      $0.dialog = nil
      $0.ending = .save(transcript: "Hello")
    }
    #expect(clock.sleeperCount == 0)
    await test.finish()
  }

  @Test func endingEarlyAndSavingKeepsTheMeetingAndIgnoresTicksUnderTheAlert() async {
    let clock = TestClock()
    let test = StoreTest<RecordMeeting>(
      state: .init(syncUp: shortSyncUp), deps: .init(clock: clock, speech: .refused))

    await test.send(
      .appeared, decisions: [.startTimer(every: .seconds(1)), .checkSpeechAuthorization])
    await test.receive(.speechAuthorizationChecked(.denied))
    await test.send(.endMeetingTapped) {
      $0.dialog = RecordMeeting.endMeetingDialog(discardable: true)
    }
    await clock.advance(by: .seconds(3))
    await test.receive(.timerTicked)  // under the alert: no change
    await test.receive(.timerTicked)
    await test.receive(.timerTicked)
    await test.send(.dialog(.chose(.saveAndEnd)), decisions: [.end(.save(transcript: ""))]) {
      $0.dialog = nil
      $0.ending = .save(transcript: "")
    }
    #expect(clock.sleeperCount == 0)
    await test.finish()
  }

  @Test func endingEarlyAndDiscardingThrowsTheMeetingAway() async {
    let clock = TestClock()
    let test = StoreTest<RecordMeeting>(
      state: .init(syncUp: shortSyncUp), deps: .init(clock: clock, speech: .refused))

    await test.send(
      .appeared, decisions: [.startTimer(every: .seconds(1)), .checkSpeechAuthorization])
    await test.receive(.speechAuthorizationChecked(.denied))
    await test.send(.endMeetingTapped) {
      $0.dialog = RecordMeeting.endMeetingDialog(discardable: true)
    }
    await test.send(.dialog(.chose(.discard)), decisions: [.end(.discard)]) {
      $0.dialog = nil
      $0.ending = .discard
    }
    #expect(clock.sleeperCount == 0)
    await test.finish()
  }

  @Test func nextPassesEachSpeakerThenAsksToEndOnTheLast() async {
    let clock = TestClock()
    let test = StoreTest<RecordMeeting>(
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
    await test.send(.nextTapped) { $0.dialog = RecordMeeting.endMeetingDialog(discardable: false) }
    await test.send(.dialog(.chose(.saveAndEnd)), decisions: [.end(.save(transcript: ""))]) {
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
    let test = StoreTest<RecordMeeting>(
      state: .init(syncUp: shortSyncUp), deps: .init(clock: clock, speech: speech))

    await test.send(
      .appeared, decisions: [.startTimer(every: .seconds(1)), .checkSpeechAuthorization])
    await test.receive(.speechAuthorizationChecked(.authorized), decisions: [.transcribe])
    await test.receive(.transcriptChanged("I completed the project")) {
      $0.transcript = "I completed the project"
    }
    await test.receive(.speechFailed) {
      $0.transcript = "I completed the project ❌"
      $0.dialog = RecordMeeting.speechFailedDialog
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
    await test.receive(
      .timerTicked, decisions: [.end(.save(transcript: "I completed the project ❌"))]
    ) {
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
    let test = StoreTest<RecordMeeting>(
      state: .init(syncUp: shortSyncUp), deps: .init(clock: clock, speech: speech))

    await test.send(
      .appeared, decisions: [.startTimer(every: .seconds(1)), .checkSpeechAuthorization])
    await test.receive(.speechAuthorizationChecked(.authorized), decisions: [.transcribe])
    await test.receive(.speechFailed) { $0.dialog = RecordMeeting.speechFailedDialog }
    await test.send(.dialog(.chose(.discard)), decisions: [.end(.discard)]) {
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
    let test = StoreTest<RecordMeeting>(
      state: .init(syncUp: shortSyncUp), deps: .init(clock: clock, speech: speech))

    await test.send(
      .appeared, decisions: [.startTimer(every: .seconds(1)), .checkSpeechAuthorization])
    await test.receive(.speechAuthorizationChecked(.authorized), decisions: [.transcribe])
    try await next.nextCall().answer("Hello")
    await test.receive(.transcriptChanged("Hello")) { $0.transcript = "Hello" }
    let call = try await next.nextCall()
    #expect(clock.sleeperCount == 1)  // the timer
    await test.send(.endMeetingTapped) {
      $0.dialog = RecordMeeting.endMeetingDialog(discardable: true)
    }
    await test.send(.dialog(.chose(.discard)), decisions: [.end(.discard)]) {
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

// MARK: - Embedding

/// A stand-in for the app's stack, to test the `ending` contract: it forwards each event to the
/// meeting on screen, then reads `ending`, pops the meeting, and for a save makes the meeting's id
/// and date in its executor.
private enum MeetingHost: Feature {
  typealias ID = ScreenStack<RecordMeeting.State>.ID

  struct State: Equatable, Sendable {
    var syncUp: SyncUp
    var path = ScreenStack<RecordMeeting.State>()
  }

  enum Event: Equatable, Sendable {
    case startTapped
    case meeting(id: ID, RecordMeeting.Event)
    case meetingMade(Meeting)
    case pathChanged([ID])
  }

  enum Decision: Equatable, Sendable {
    case meeting(id: ID, RecordMeeting.Decision)
    case makeMeeting(transcript: String)
  }

  enum Scope: Hashable, Sendable {
    case meeting(ID)
  }

  struct Deps: Sendable {
    var meeting: RecordMeeting.Deps
    var newID: @Sendable () -> UUID
    var now: @Sendable () -> Date
  }

  static let childWork: [ChildWork<State>] = [
    .stack(RecordMeeting.self, in: \.path) { (scope: Scope) in
      if case .meeting(let id) = scope { id } else { nil }
    }
  ]

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .startTapped:
      let id = state.path.push(RecordMeeting.State(syncUp: state.syncUp))
      return RecordMeeting.makeDecisions(
        event: .appeared, id: id, in: &state.path, embed: Decision.meeting)

    case .meeting(let id, let event):
      let decisions = RecordMeeting.makeDecisions(
        event: event, id: id, in: &state.path, embed: Decision.meeting)
      switch state.path[id: id]?.ending {
      case .save(let transcript):
        state.path.pop(from: id)
        return decisions + [.makeMeeting(transcript: transcript)]
      case .discard:
        state.path.pop(from: id)
        return decisions
      case nil:
        return decisions
      }

    case .meetingMade(let meeting):
      state.syncUp.meetings.insert(meeting, at: 0)
      return []

    case .pathChanged(let ids):
      state.path.keep(ids)
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .meeting(let id, let decision):
      RecordMeeting.execute(
        decision, deps: deps.meeting, effects: effects, scope: Scope.meeting(id)
      ) {
        .meeting(id: id, $0)
      }
    case .makeMeeting(let transcript):
      effects.send(
        .meetingMade(Meeting(id: deps.newID(), date: deps.now(), transcript: transcript)))
    }
  }
}

@Suite(.timeLimit(.minutes(3))) struct RecordMeetingEmbeddingTests {
  private typealias ID = MeetingHost.ID
  private let noon = Date(timeIntervalSince1970: 43_200)

  @Test func aMeetingThatEndsIsPoppedAndSavedByTheParent() async {
    let clock = TestClock()
    let test = StoreTest<MeetingHost>(
      state: .init(syncUp: shortSyncUp),
      deps: .init(
        meeting: .init(clock: clock, speech: .refused), newID: { UUID(9) }, now: { [noon] in noon }),
      exhaustivity: .off)

    await test.send(.startTapped)
    #expect(await test.state.path.ids == [ID(0)])
    await clock.advance(by: .seconds(6))
    for _ in 1...5 {
      await test.receive(.meeting(id: ID(0), .timerTicked))
    }
    await test.receive(
      .meeting(id: ID(0), .timerTicked),
      decisions: [.meeting(id: ID(0), .end(.save(transcript: ""))), .makeMeeting(transcript: "")]
    ) {
      $0.path.pop()
    }
    await test.receive(.meetingMade(Meeting(id: UUID(9), date: noon, transcript: ""))) {
      $0.syncUp.meetings = [Meeting(id: UUID(9), date: noon, transcript: "")]
    }
    #expect(clock.sleeperCount == 0)
    await test.finish()
  }

  @Test func aDiscardedMeetingIsPoppedAndNotSaved() async {
    let clock = TestClock()
    let test = StoreTest<MeetingHost>(
      state: .init(syncUp: shortSyncUp),
      deps: .init(
        meeting: .init(clock: clock, speech: .refused),
        newID: unimplemented("newID", placeholder: UUID(0)),
        now: unimplemented("now", placeholder: noon)))

    await test.send(
      .startTapped,
      decisions: [
        .meeting(id: ID(0), .startTimer(every: .seconds(1))),
        .meeting(id: ID(0), .checkSpeechAuthorization),
      ]
    ) {
      $0.path.push(RecordMeeting.State(syncUp: shortSyncUp))
    }
    await test.receive(.meeting(id: ID(0), .speechAuthorizationChecked(.denied)))
    await test.send(.meeting(id: ID(0), .endMeetingTapped)) {
      $0.path[id: ID(0)]?.dialog = RecordMeeting.endMeetingDialog(discardable: true)
    }
    await test.send(
      .meeting(id: ID(0), .dialog(.chose(.discard))),
      decisions: [.meeting(id: ID(0), .end(.discard))]
    ) {
      $0.path.pop()
    }
    #expect(clock.sleeperCount == 0)
    await test.finish()
  }

  @Test func leavingTheStackStopsTheMeetingsWork() async throws {
    let clock = TestClock()
    let next = ControlledDependency<Void, String?>()
    let speech = SpeechRecognizer.authorized {
      AsyncThrowingStream(unfolding: { try await next() })
    }
    let test = StoreTest<MeetingHost>(
      state: .init(syncUp: shortSyncUp),
      deps: .init(
        meeting: .init(clock: clock, speech: speech),
        newID: unimplemented("newID", placeholder: UUID(0)),
        now: unimplemented("now", placeholder: noon)),
      exhaustivity: .off)

    await test.send(.startTapped)
    let call = try await next.nextCall()
    #expect(clock.sleeperCount == 1)
    await test.send(.pathChanged([])) { $0.path.pop() }  // the platform's back gesture
    #expect(!call.isWaiting)
    #expect(clock.sleeperCount == 0)
    await test.finish()
  }
}
