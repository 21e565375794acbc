import DecisionsTesting
import Foundation
import SyncUps
import Testing

/// The meeting screen's reachable states, for sync-ups whose shares divide the meeting evenly and
/// some that do not, and the rules the screen promises, checked in every one.
enum RecordMeetingModel {
  /// A sync-up of `seconds` for `attendees` people.
  static func syncUp(seconds: Int, attendees: Int) -> SyncUp {
    SyncUp(
      id: UUID(0),
      attendees: IdentifiedArray(
        uniqueElements: (0..<attendees).map { Attendee(id: UUID($0 + 1)) }),
      durationInSeconds: seconds)
  }

  /// The shapes of meeting explored: even shares, an odd second left over, more attendees than
  /// seconds, one attendee, none, and no time at all.
  static let syncUps = [
    syncUp(seconds: 6, attendees: 3), syncUp(seconds: 7, attendees: 3),
    syncUp(seconds: 2, attendees: 4), syncUp(seconds: 3, attendees: 1),
    syncUp(seconds: 2, attendees: 0), syncUp(seconds: 0, attendees: 2),
  ]

  /// The events tried in every state: every tap, every answer to an alert, every authorisation,
  /// a transcript and a failure.
  static let events: [RecordMeeting.Event] = [
    .appeared, .timerTicked, .nextTapped, .endMeetingTapped, .dialog(.dismissed),
    .dialog(.chose(.saveAndEnd)), .dialog(.chose(.discard)),
    .speechAuthorizationChecked(.notDetermined), .speechAuthorizationChecked(.authorized),
    .speechAuthorizationChecked(.denied), .speechAuthorizationAnswered(.authorized),
    .speechAuthorizationAnswered(.restricted), .transcriptChanged("Hi"), .speechFailed,
  ]

  /// What decides the meeting's future, and how it ended: everything but the transcript's words,
  /// which only grow (each failure adds a mark), so only whether there are any is kept.
  struct Key: Hashable {
    var secondsElapsed: Int
    var speakerIndex: Int
    var hasTranscript: Bool
    var dialog: Dialog<RecordMeeting.DialogAction>?
    var ending: RecordMeeting.Ending?

    init(_ state: RecordMeeting.State) {
      secondsElapsed = state.secondsElapsed
      speakerIndex = state.speakerIndex
      hasTranscript = !state.transcript.isEmpty
      dialog = state.dialog
      // NB: the ending's kind stays, or a discarded meeting would be one node with a saved one,
      // and "discarded" would never be found.
      ending = state.ending.map { $0 == .discard ? .discard : .save(transcript: "") }
    }
  }

  /// Every state a meeting of this sync-up can reach from its start.
  static func exploration(of syncUp: SyncUp) -> Exploration<RecordMeeting, Key> {
    explore(RecordMeeting.self, from: .init(syncUp: syncUp), key: Key.init) { _ in events }
  }
}

@Suite struct RecordMeetingExplorationTests {
  @Test(arguments: RecordMeetingModel.syncUps)
  func theWholeStateSpaceIsExplored(syncUp: SyncUp) {
    let exploration = RecordMeetingModel.exploration(of: syncUp)
    exploration.expectComplete()
    exploration.expectDeterministic()
    #expect(exploration.states.count > 1)
  }

  @Test(arguments: RecordMeetingModel.syncUps)
  func theSpeakerIsAlwaysAnAttendee(syncUp: SyncUp) {
    let exploration = RecordMeetingModel.exploration(of: syncUp)
    exploration.expectInvariant("the speaker is at most the last attendee") {
      0 <= $0.speakerIndex && $0.speakerIndex <= max(0, $0.syncUp.attendees.count - 1)
    }
  }

  @Test(arguments: RecordMeetingModel.syncUps)
  func theTimeNeverPassesTheMeetingsDuration(syncUp: SyncUp) {
    let exploration = RecordMeetingModel.exploration(of: syncUp)
    exploration.expectInvariant("the seconds elapsed are within the meeting") {
      0 <= $0.secondsElapsed && $0.secondsElapsed <= $0.syncUp.durationInSeconds
    }
  }

  @Test(arguments: RecordMeetingModel.syncUps)
  func theTimerDoesNotCountWhileAnAlertShows(syncUp: SyncUp) {
    let exploration = RecordMeetingModel.exploration(of: syncUp)
    exploration.expectTransitionInvariant("a tick under an alert changes nothing") { step in
      guard step.event == .timerTicked, step.before.dialog != nil else { return true }
      return step.after == step.before && step.decisions.isEmpty
    }
  }

  @Test(arguments: RecordMeetingModel.syncUps)
  func onceEndedNothingChanges(syncUp: SyncUp) {
    let exploration = RecordMeetingModel.exploration(of: syncUp)
    exploration.expectTransitionInvariant("an ended meeting ignores every event") { step in
      step.before.ending == nil || (step.after == step.before && step.decisions.isEmpty)
    }
  }

  @Test(arguments: RecordMeetingModel.syncUps)
  func theMeetingStopsItsWorkWhenItEnds(syncUp: SyncUp) {
    let exploration = RecordMeetingModel.exploration(of: syncUp)
    exploration.expectTransitionInvariant("ending stops the work, and only ending does") { step in
      let ends = step.before.ending == nil && step.after.ending != nil
      return ends == step.decisions.contains { if case .end = $0 { true } else { false } }
    }
  }

  @Test(arguments: RecordMeetingModel.syncUps)
  func aMeetingCanAlwaysEndAndOnlyTheEarlyEndDiscards(syncUp: SyncUp) {
    let exploration = RecordMeetingModel.exploration(of: syncUp)
    exploration.expectAlwaysCanReach("ended") { $0.ending != nil }
    exploration.expectReachable("saved") { $0.ending == .save(transcript: "") }
    exploration.expectReachable("discarded") { $0.ending == .discard }
    exploration.expectTransitionInvariant("discarding needs an alert that offers it") { step in
      guard step.before.ending == nil, step.after.ending == .discard else { return true }
      return step.before.dialog?.buttons.contains { $0.action == .discard } == true
    }
  }

  @Test func theStoryToAnOddShareIsTheOneTheCoreTestsTell() {
    // With 7 seconds for three, 2 seconds each: the last speaker is reached at 4 seconds and
    // keeps the odd second.
    let exploration = RecordMeetingModel.exploration(of: RecordMeetingModel.syncUps[1])
    let last = exploration.expectReachable("the last speaker at 6 seconds") {
      $0.speakerIndex == 2 && $0.secondsElapsed == 6 && $0.ending == nil
    }
    #expect(last != nil)
  }
}
