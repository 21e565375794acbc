import Decisions
import Foundation

/// The whole app: the list of sync-ups, kept in a file, with a sheet to add one, and a stack of
/// screens pushed on it (a sync-up's detail, a meeting being recorded, a past meeting).
///
/// The app owns the sync-ups. A detail screen shows and edits one of them, kept in step by its
/// declaration (`sharing:`), and what a screen asks of the app (a detail's
/// ``SyncUpDetail/Decision/request(_:)``, a recorder's ``RecordMeeting/Decision/end(_:)``) reaches
/// the app as an event in the same step (`request:`).
public enum SyncUpsApp: Feature {
  /// A screen pushed on the list.
  public enum Screen: Equatable, Sendable, Codable {
    /// A sync-up's detail.
    case detail(SyncUpDetail.State)
    /// A meeting being recorded.
    case record(RecordMeeting.State)
    /// A past meeting's transcript.
    case meeting(Meeting, syncUp: SyncUp)
  }

  /// A screen's id on the stack.
  public typealias ScreenID = ScreenStack<Screen>.ID

  /// The app's state.
  public struct State: Equatable, Sendable, Codable {
    /// The sync-ups, as the list shows them, kept in a file.
    public var syncUps: Persisted<IdentifiedArray<SyncUp>>.State
    /// The form that adds a sync-up, in a sheet.
    @Presented public var addSheet: SyncUpForm.State?
    /// The screens pushed on the list.
    public var path: ScreenStack<Screen>
    /// The app with these sync-ups and screens, its file loaded.
    public init(
      syncUps: IdentifiedArray<SyncUp> = [], addSheet: SyncUpForm.State? = nil,
      path: ScreenStack<Screen> = ScreenStack(),
      file: Persisted<IdentifiedArray<SyncUp>>.Status = .loaded
    ) {
      self.syncUps = .init(syncUps, status: file)
      self.addSheet = addSheet
      self.path = path
    }
  }

  /// What the user did, and what the app's work found.
  public enum Event: Equatable, Sendable, Codable {
    /// "+": the form opens in a sheet for a new sync-up with these ids.
    case addTapped(syncUpID: SyncUp.ID, attendeeID: Attendee.ID)
    /// An event of the form in the add sheet.
    case add(SyncUpForm.Event)
    /// "Add" in the form: the sync-up joins the list, without attendees whose names are blank.
    case confirmAddTapped
    /// "Dismiss" in the form, or the sheet swiped away.
    case dismissAddTapped
    /// The user opened a sync-up of the list.
    case syncUpTapped(SyncUp.ID)
    /// An event of a detail screen.
    case detail(id: ScreenID, SyncUpDetail.Event)
    /// A detail screen asks the app something.
    case detailAsked(id: ScreenID, SyncUpDetail.Request)
    /// An event of a meeting recorder.
    case record(id: ScreenID, RecordMeeting.Event)
    /// A meeting recorder's meeting ended.
    case recordEnded(id: ScreenID, RecordMeeting.Ending)
    /// The platform's stack now shows these screens (a back button, a swipe).
    case pathChanged([ScreenID])
    /// A recorded meeting, with its id and date, is ready to be kept.
    case meetingMade(syncUpID: SyncUp.ID, Meeting)

    /// An event of the file of sync-ups.
    case file(Persisted<IdentifiedArray<SyncUp>>.Event)
  }

  /// What the app's work does.
  public enum Decision: Equatable, Sendable {
    /// A decision of a detail screen.
    case detail(id: ScreenID, SyncUpDetail.Decision)
    /// A decision of a meeting recorder.
    case record(id: ScreenID, RecordMeeting.Decision)
    /// Give a recorded meeting an id and a date.
    case makeMeeting(syncUpID: SyncUp.ID, transcript: String)
    /// The file work of the sync-ups.
    case file(Persisted<IdentifiedArray<SyncUp>>.Decision)
  }

  /// What the app's work needs.
  public struct Deps: Sendable {
    /// The file of sync-ups.
    public var file: Persisted<IdentifiedArray<SyncUp>>.Deps
    /// The time now, for a meeting's date.
    public var now: @Sendable () -> Date
    /// A new id, for a meeting.
    public var uuid: @Sendable () -> UUID
    /// The detail screen's deps.
    public var detail: SyncUpDetail.Deps
    /// The meeting recorder's deps.
    public var record: RecordMeeting.Deps

    /// Deps from their parts.
    public init(
      file: Persisted<IdentifiedArray<SyncUp>>.Deps, now: @escaping @Sendable () -> Date,
      uuid: @escaping @Sendable () -> UUID,
      detail: SyncUpDetail.Deps, record: RecordMeeting.Deps
    ) {
      self.file = file
      self.now = now
      self.uuid = uuid
      self.detail = detail
      self.record = record
    }
  }

  /// The file of sync-ups.
  public static let file = embed(
    Persisted<IdentifiedArray<SyncUp>>.self, state: \.syncUps, event: Event.file,
    decision: Decision.file)
  /// The add sheet's form.
  public static let addForm = embed(SyncUpForm.self, presented: \.$addSheet, event: Event.add)
  /// The detail screens, each showing and editing a sync-up of the list.
  public static let details = embed(
    SyncUpDetail.self, stack: \.path, case: Screen.detail,
    sharing: .element(\.syncUp, in: \.syncUps.value), event: Event.detail,
    decision: Decision.detail,
    request: { if case .request(let request) = $1 { .detailAsked(id: $0, request) } else { nil } })
  /// The meeting recorders.
  public static let recorders = embed(
    RecordMeeting.self, stack: \.path, case: Screen.record, event: Event.record,
    decision: Decision.record,
    request: { if case .end(let ending) = $1 { .recordEnded(id: $0, ending) } else { nil } })
  /// Each child's work ends when it leaves the state.
  public static let childWork = [file.work, details.work, recorders.work]

  /// The app starts by reading its file.
  public static func makeStartDecisions(state: inout State) -> [Decision] {
    file.start(in: &state)
  }

  /// Decides what an event changes and what work follows; a change of the sync-ups is saved
  /// after a quiet period.
  public static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    file.savingChanges(in: &state) { decide(event, &$0) }
  }

  private static func decide(_ event: Event, _ state: inout State) -> [Decision] {
    switch event {
    case .addTapped(let syncUpID, let attendeeID):
      guard state.syncUps.isLoaded else { return [] }
      state.addSheet = SyncUpForm.State(syncUp: SyncUp(id: syncUpID), newAttendeeID: attendeeID)
      return []

    case .add(let event):
      return addForm.makeDecisions(event: event, in: &state)

    case .confirmAddTapped:
      guard let form = addForm.state(in: state) else { return [] }
      state.syncUps.value.append(form.syncUp.droppingBlankAttendees())
      state.addSheet = nil
      return []

    case .dismissAddTapped:
      state.addSheet = nil
      return []

    case .syncUpTapped(let id):
      guard let syncUp = state.syncUps.value[id: id] else { return [] }
      state.path.push(.detail(SyncUpDetail.State(syncUp: syncUp)))
      return []

    case .detail(let id, let event):
      return details.makeDecisions(event: event, id: id, in: &state)

    case .detailAsked(let id, let request):
      guard let syncUp = details.state(id: id, in: state)?.syncUp else { return [] }
      switch request {
      case .delete:
        state.syncUps.value.remove(id: syncUp.id)  // the screen is popped with it
        return []
      case .startMeeting:
        let recorder = state.path.push(.record(RecordMeeting.State(syncUp: syncUp)))
        return recorders.makeDecisions(event: .appeared, id: recorder, in: &state)
      case .showMeeting(let meeting):
        state.path.push(.meeting(meeting, syncUp: syncUp))
        return []
      }

    case .record(let id, let event):
      return recorders.makeDecisions(event: event, id: id, in: &state)

    case .recordEnded(let id, let ending):
      guard let syncUp = recorders.state(id: id, in: state)?.syncUp else { return [] }
      state.path.pop(from: id)
      guard case .save(let transcript) = ending else { return [] }
      return [.makeMeeting(syncUpID: syncUp.id, transcript: transcript)]

    case .pathChanged(let ids):
      state.path.keep(ids)
      return []

    case .meetingMade(let syncUpID, let meeting):
      state.syncUps.value[id: syncUpID]?.meetings.insert(meeting, at: 0)
      details.share(in: &state)  // a detail screen of the sync-up shows the meeting too
      return []

    case .file(let event):
      return file.makeDecisions(event: event, in: &state)
    }
  }

  /// Performs a decision through the deps.
  public static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .detail(let id, let decision):
      details.execute(decision, id: id, deps: deps.detail, effects: effects)
    case .record(let id, let decision):
      recorders.execute(decision, id: id, deps: deps.record, effects: effects)
    case .makeMeeting(let syncUpID, let transcript):
      effects.send(
        .meetingMade(
          syncUpID: syncUpID, Meeting(id: deps.uuid(), date: deps.now(), transcript: transcript)))
    case .file(let decision):
      file.execute(decision, deps: deps.file, effects: effects)
    }
  }
}
