import Decisions
import DecisionsTesting
import Foundation
import SyncUps
import Testing

/// A sync-up of two attendees, with one past meeting.
let designSyncUp = SyncUp(
  id: UUID(1),
  attendees: [Attendee(id: UUID(2), name: "Ada"), Attendee(id: UUID(3), name: "Bob")],
  durationInSeconds: 60,
  meetings: [Meeting(id: UUID(4), date: Date(timeIntervalSince1970: 0), transcript: "Hi")],
  theme: .orange, title: "Design")

/// The scenarios of TCA's SyncUpDetailTests, and the rest of the screen's events.
@Suite struct SyncUpDetailTests {
  @Test func startingWithSpeechRestrictedAsksToContinueWithoutRecording() {
    var test = CoreTest<SyncUpDetail>(state: .init(syncUp: designSyncUp))
    test.send(.startMeetingTapped, decisions: [.checkSpeechAuthorization])
    test.send(.speechAuthorization(.restricted)) {
      $0.destination = .dialog(.speechRecognitionRestricted)
    }
    test.send(.dialog(.dismissed)) { $0.destination = nil }
  }

  @Test func startingWithSpeechDeniedOffersTheSettings() {
    var test = CoreTest<SyncUpDetail>(state: .init(syncUp: designSyncUp))
    test.send(.startMeetingTapped, decisions: [.checkSpeechAuthorization])
    test.send(.speechAuthorization(.denied)) {
      $0.destination = .dialog(.speechRecognitionDenied)
    }
    test.send(.dialog(.chose(.openSettings)), decisions: [.openSettings]) {
      $0.destination = nil
    }
  }

  @Test func continuingWithoutRecordingStartsTheMeeting() {
    var test = CoreTest<SyncUpDetail>(
      state: .init(syncUp: designSyncUp, destination: .dialog(.speechRecognitionDenied)))
    test.send(.dialog(.chose(.continueWithoutRecording)), decisions: [.request(.startMeeting)]) {
      $0.destination = nil
    }
  }

  @Test(arguments: [SpeechAuthorization.authorized, .notDetermined])
  func startingWithSpeechAllowedOrNotYetAskedStartsTheMeeting(status: SpeechAuthorization) {
    var test = CoreTest<SyncUpDetail>(state: .init(syncUp: designSyncUp))
    test.send(.startMeetingTapped, decisions: [.checkSpeechAuthorization])
    test.send(.speechAuthorization(status), decisions: [.request(.startMeeting)])
  }

  @Test func editingKeepsTheEditsWithoutBlankAttendees() {
    var test = CoreTest<SyncUpDetail>(state: .init(syncUp: designSyncUp))
    test.send(.editTapped(newAttendeeID: UUID(9))) {
      $0.destination = .edit(SyncUpForm.State(syncUp: designSyncUp, newAttendeeID: UUID(9)))
    }
    test.send(.edit(.titleChanged("Blob's Meeting"))) {
      guard case .edit(var form) = $0.destination else { return }
      form.syncUp.title = "Blob's Meeting"
      $0.destination = .edit(form)
    }
    test.send(.edit(.addAttendeeTapped(newID: UUID(10)))) {
      guard case .edit(var form) = $0.destination else { return }
      form.syncUp.attendees.append(Attendee(id: UUID(10)))
      form.focus = .attendee(UUID(10))
      $0.destination = .edit(form)
    }
    test.send(.doneEditingTapped) {
      $0.destination = nil
      $0.syncUp.title = "Blob's Meeting"
    }
  }

  @Test func cancellingAnEditDropsIt() {
    var test = CoreTest<SyncUpDetail>(state: .init(syncUp: designSyncUp))
    test.send(.editTapped(newAttendeeID: UUID(9))) {
      $0.destination = .edit(SyncUpForm.State(syncUp: designSyncUp, newAttendeeID: UUID(9)))
    }
    test.send(.edit(.titleChanged("Other"))) {
      guard case .edit(var form) = $0.destination else { return }
      form.syncUp.title = "Other"
      $0.destination = .edit(form)
    }
    test.send(.cancelEditTapped) { $0.destination = nil }
    // "Done" with no form on show does nothing.
    test.send(.doneEditingTapped)
  }

  @Test func deletingAsksFirstThenAsksTheAppToDelete() {
    var test = CoreTest<SyncUpDetail>(state: .init(syncUp: designSyncUp))
    test.send(.deleteTapped) { $0.destination = .dialog(.deleteSyncUp) }
    test.send(.dialog(.dismissed)) { $0.destination = nil }
    test.send(.deleteTapped) { $0.destination = .dialog(.deleteSyncUp) }
    test.send(.dialog(.chose(.confirmDeletion)), decisions: [.request(.delete)]) {
      $0.destination = nil
    }
  }

  @Test func pastMeetingsOpenAndCanBeDeleted() {
    var test = CoreTest<SyncUpDetail>(state: .init(syncUp: designSyncUp))
    test.send(
      .meetingTapped(UUID(4)), decisions: [.request(.showMeeting(designSyncUp.meetings[0]))])
    test.send(.meetingTapped(UUID(99)))  // no such meeting
    test.send(.deleteMeetings(atOffsets: [0, 7])) { $0.syncUp.meetings = [] }
  }

  @Test func anAnswerMeantForAnotherAlertChangesNothing() {
    var test = CoreTest<SyncUpDetail>(
      state: .init(syncUp: designSyncUp, destination: .dialog(.speechRecognitionRestricted)))
    test.send(.dialog(.chose(.confirmDeletion)))  // a late tap on the delete alert
    test.send(.dialog(.chose(.openSettings)))  // not a button of the restricted alert
    test.send(.dialog(.dismissed)) { $0.destination = nil }
  }

  @Test func anAnswerToAnAlertThatIsNotShownDoesNothing() {
    var test = CoreTest<SyncUpDetail>(state: .init(syncUp: designSyncUp))
    test.send(.dialog(.chose(.confirmDeletion)))
    test.send(.edit(.titleChanged("x")))  // no form on show
  }

  @Test func openingTheSettingsCallsTheDependency() async {
    let opened = Calls<Void>()
    let test = StoreTest<SyncUpDetail>(
      state: .init(syncUp: designSyncUp, destination: .dialog(.speechRecognitionDenied)),
      deps: .init(authorizationStatus: { .denied }, openSettings: { opened.record(()) }))
    await test.send(.dialog(.chose(.openSettings)), decisions: [.openSettings]) {
      $0.destination = nil
    }
    await test.finish()
    #expect(opened.count == 1)
  }

  @Test func theAuthorizationComesFromTheDependency() async {
    let test = StoreTest<SyncUpDetail>(
      state: .init(syncUp: designSyncUp),
      deps: .init(authorizationStatus: { .restricted }, openSettings: {}))
    await test.send(.startMeetingTapped, decisions: [.checkSpeechAuthorization])
    await test.receive(.speechAuthorization(.restricted)) {
      $0.destination = .dialog(.speechRecognitionRestricted)
    }
    await test.finish()
  }
}
