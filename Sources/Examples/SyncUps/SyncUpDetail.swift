import Decisions
import Foundation

/// The screen of one sync-up: its details and past meetings, with buttons to start a meeting, edit
/// it in a sheet, and delete it behind an alert.
///
/// It shows and edits the app's sync-up, which the app's declaration keeps in step. What it asks
/// of the app (delete this sync-up, start a meeting, show a past meeting) is a decision,
/// ``Decision/request(_:)``, which the app answers in the same step.
public enum SyncUpDetail: Feature {
  /// What the detail screen presents, one at a time.
  public enum Destination: Equatable, Sendable, Codable {
    /// The form that edits the sync-up, in a sheet.
    case edit(SyncUpForm.State)
    /// An alert.
    case dialog(Dialog<DialogAction>)
  }

  /// What the alerts' buttons do.
  public enum DialogAction: Equatable, Sendable, Codable {
    /// Delete the sync-up, for good.
    case confirmDeletion
    /// Start the meeting with no transcript, speech recognition being unavailable.
    case continueWithoutRecording
    /// Open the app's settings, where speech recognition can be allowed.
    case openSettings
  }

  /// What the screen asks of the app.
  public enum Request: Equatable, Sendable, Codable {
    /// Delete the sync-up and close the screen.
    case delete
    /// Push the meeting recorder.
    case startMeeting
    /// Push the transcript of a past meeting.
    case showMeeting(Meeting)
  }

  /// The screen's state.
  public struct State: Equatable, Sendable, Codable {
    /// The sync-up shown, shared with the app's list.
    public var syncUp: SyncUp
    /// The sheet or alert on show.
    @Presented public var destination: Destination?

    /// The screen of `syncUp`, with nothing presented.
    public init(syncUp: SyncUp, destination: Destination? = nil) {
      self.syncUp = syncUp
      self.destination = destination
    }
  }

  /// What the user did, and what the screen's work found.
  public enum Event: Equatable, Sendable, Codable {
    /// "Edit": the form opens in a sheet; a sync-up with no attendees gets an empty one with this
    /// id, made by the shell.
    case editTapped(newAttendeeID: Attendee.ID)
    /// "Cancel" in the form: the edits are dropped.
    case cancelEditTapped
    /// "Done" in the form: the edits are kept, without attendees whose names are blank.
    case doneEditingTapped
    /// An event of the form in the sheet.
    case edit(SyncUpForm.Event)
    /// "Delete": an alert asks first.
    case deleteTapped
    /// The user deleted past meetings at these positions.
    case deleteMeetings(atOffsets: [Int])
    /// "Start meeting": speech recognition's authorisation is checked first.
    case startMeetingTapped
    /// The authorisation of speech recognition, as the check found it.
    case speechAuthorization(SpeechAuthorization)
    /// The user opened a past meeting.
    case meetingTapped(Meeting.ID)
    /// The user answered the alert on show.
    case dialog(DialogResponse<DialogAction>)
  }

  /// What the screen's work does.
  public enum Decision: Equatable, Sendable {
    /// Find out whether speech recognition is allowed.
    case checkSpeechAuthorization
    /// Open the app's settings.
    case openSettings
    /// Ask the app: a parent answers it; alone, the screen does nothing with it.
    case request(Request)
  }

  /// What the screen's work needs.
  public struct Deps: Sendable {
    /// The authorisation of speech recognition, without asking the user.
    public var authorizationStatus: @Sendable () async -> SpeechAuthorization
    /// Opens the app's settings.
    public var openSettings: @Sendable () async -> Void

    /// Deps from their closures.
    public init(
      authorizationStatus: @escaping @Sendable () async -> SpeechAuthorization,
      openSettings: @escaping @Sendable () async -> Void
    ) {
      self.authorizationStatus = authorizationStatus
      self.openSettings = openSettings
    }
  }

  /// The form in the edit sheet.
  public static let editor = embed(
    SyncUpForm.self, presented: \.$destination, case: Destination.edit, event: Event.edit)

  /// Decides what an event changes and what work follows.
  public static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .editTapped(let newAttendeeID):
      state.destination = .edit(
        SyncUpForm.State(syncUp: state.syncUp, newAttendeeID: newAttendeeID))
      return []

    case .cancelEditTapped:
      state.destination = nil
      return []

    case .doneEditingTapped:
      guard let form = editor.state(in: state) else { return [] }
      state.syncUp = form.syncUp.droppingBlankAttendees()
      state.destination = nil
      return []

    case .edit(let event):
      return editor.makeDecisions(event: event, in: &state)

    case .deleteTapped:
      state.destination = .dialog(.deleteSyncUp)
      return []

    case .deleteMeetings(let offsets):
      state.syncUp.meetings.remove(atOffsets: offsets)
      return []

    case .startMeetingTapped:
      return [.checkSpeechAuthorization]

    case .speechAuthorization(let status):
      switch status {
      case .notDetermined, .authorized:
        return [.request(.startMeeting)]
      case .denied:
        state.destination = .dialog(.speechRecognitionDenied)
      case .restricted:
        state.destination = .dialog(.speechRecognitionRestricted)
      }
      return []

    case .meetingTapped(let id):
      guard let meeting = state.syncUp.meetings[id: id] else { return [] }
      return [.request(.showMeeting(meeting))]

    case .dialog(let response):
      guard case .dialog(let dialog) = state.destination else { return [] }
      let action = dialog.action(for: response)
      // NB: an action none of this alert's buttons has was meant for another alert: it changes
      // nothing. A dismissal has no action, and dismisses.
      if action == nil, case .chose = response { return [] }
      state.destination = nil
      switch action {
      case .confirmDeletion:
        return [.request(.delete)]
      case .continueWithoutRecording:
        return [.request(.startMeeting)]
      case .openSettings:
        return [.openSettings]
      case nil:
        return []
      }
    }
  }

  /// Performs a decision through the deps.
  public static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .checkSpeechAuthorization:
      effects.run(id: "authorization") { send in
        await send(.speechAuthorization(await deps.authorizationStatus()))
      }
    case .openSettings:
      effects.run { _ in await deps.openSettings() }
    case .request:
      break
    }
  }
}

extension Dialog<SyncUpDetail.DialogAction> {
  /// Asks before a sync-up is deleted.
  public static let deleteSyncUp = Dialog(
    title: "Delete?", message: "Are you sure you want to delete this meeting?",
    buttons: [
      .init("Yes", role: .destructive, action: .confirmDeletion),
      .init("Nevermind", role: .cancel),
    ])

  /// Says that speech recognition was denied, and offers to go on without it.
  public static let speechRecognitionDenied = Dialog(
    title: "Speech recognition denied",
    message: """
      You previously denied speech recognition and so your meeting will not be recorded. You can \
      enable speech recognition in settings, or you can continue without recording.
      """,
    buttons: [
      .init("Continue without recording", action: .continueWithoutRecording),
      .init("Open settings", action: .openSettings),
      .init("Cancel", role: .cancel),
    ])

  /// Says that speech recognition is restricted on this device, and offers to go on without it.
  public static let speechRecognitionRestricted = Dialog(
    title: "Speech recognition restricted",
    message: """
      Your device does not support speech recognition and so your meeting will not be recorded.
      """,
    buttons: [
      .init("Continue without recording", action: .continueWithoutRecording),
      .init("Cancel", role: .cancel),
    ])
}
