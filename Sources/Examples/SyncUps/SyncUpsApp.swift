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

  /// Where the file of sync-ups stands.
  public enum FileStatus: Equatable, Sendable, Codable {
    /// The file is being read: the list takes no edits.
    case loading
    /// The sync-ups came from the file, or there was none: edits are saved.
    case loaded
    /// The file did not load: nothing is edited or saved until the user retries or starts over.
    case failed(JSONFileError)
    /// The file that did not load is being moved aside, to start over.
    case movingAside
  }

  /// The app's state.
  public struct State: Equatable, Sendable, Codable {
    /// The sync-ups, as the list shows them.
    public var syncUps: IdentifiedArray<SyncUp>
    /// The form that adds a sync-up, in a sheet.
    @Presented public var addSheet: SyncUpForm.State?
    /// The screens pushed on the list.
    public var path: ScreenStack<Screen>
    /// Where the file stands.
    public var file: FileStatus
    /// Changes that no write has started to save yet.
    public var hasUnsavedChanges = false
    /// A wait for a quiet period runs: a write comes at its end.
    public var isWaitingToSave = false
    /// A write runs: no other starts until it ends.
    public var isWriting = false
    /// Why the last write failed, until one succeeds.
    public var saveError: JSONFileError?
    /// Where a file that did not load was kept, after the user started over.
    public var backup: URL?

    /// The app with these sync-ups and screens, its file loaded.
    public init(
      syncUps: IdentifiedArray<SyncUp> = [], addSheet: SyncUpForm.State? = nil,
      path: ScreenStack<Screen> = ScreenStack(), file: FileStatus = .loaded
    ) {
      self.syncUps = syncUps
      self.addSheet = addSheet
      self.path = path
      self.file = file
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

    /// The file was read: its sync-ups, or `nil` when there was no file.
    case loaded([SyncUp]?)
    /// The file did not load.
    case loadFailed(JSONFileError)
    /// After a failed load, the user asked to try again.
    case retryTapped
    /// After a failed load, the user asked to start with no sync-ups, the file kept as a backup.
    case startOverTapped
    /// The file that did not load was moved aside (`nil`: nothing was there).
    case movedAside(to: URL?)
    /// The file that did not load could not be moved aside.
    case moveAsideFailed(JSONFileError)
    /// No change came for the quiet period.
    case quietPeriodEnded
    /// The app is about to quit: save what is pending now.
    case saveNowRequested
    /// The write finished.
    case saved
    /// The write failed; the file is as it was.
    case saveFailed(JSONFileError)
  }

  /// What the app's work does.
  public enum Decision: Equatable, Sendable {
    /// A decision of a detail screen.
    case detail(id: ScreenID, SyncUpDetail.Decision)
    /// A decision of a meeting recorder.
    case record(id: ScreenID, RecordMeeting.Decision)
    /// Give a recorded meeting an id and a date.
    case makeMeeting(syncUpID: SyncUp.ID, transcript: String)
    /// Read the file.
    case load
    /// Send `.quietPeriodEnded` after a delay; replaces a wait that runs.
    case waitToSave(Duration)
    /// Cancel the wait for a quiet period.
    case cancelWait
    /// Write the sync-ups to the file.
    case write([SyncUp])
    /// Move the file that did not load aside, to a backup.
    case moveAside
  }

  /// What the app's work needs.
  public struct Deps: Sendable {
    /// The clock of the quiet period before a save.
    public var clock: any Clock<Duration>
    /// Reads the file: `nil` when there is none.
    public var load: @Sendable () async throws(JSONFileError) -> [SyncUp]?
    /// Writes the file.
    public var save: @Sendable ([SyncUp]) async throws(JSONFileError) -> Void
    /// Moves the file aside, to a backup.
    public var moveAside: @Sendable () async throws(JSONFileError) -> URL?
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
      clock: any Clock<Duration>,
      load: @escaping @Sendable () async throws(JSONFileError) -> [SyncUp]?,
      save: @escaping @Sendable ([SyncUp]) async throws(JSONFileError) -> Void,
      moveAside: @escaping @Sendable () async throws(JSONFileError) -> URL?,
      now: @escaping @Sendable () -> Date, uuid: @escaping @Sendable () -> UUID,
      detail: SyncUpDetail.Deps, record: RecordMeeting.Deps
    ) {
      self.clock = clock
      self.load = load
      self.save = save
      self.moveAside = moveAside
      self.now = now
      self.uuid = uuid
      self.detail = detail
      self.record = record
    }
  }

  /// How long after the last change the sync-ups are saved.
  public static let quietPeriod = Duration.seconds(1)

  /// The add sheet's form.
  public static let addForm = embed(SyncUpForm.self, presented: \.$addSheet, event: Event.add)
  /// The detail screens, each showing and editing a sync-up of the list.
  public static let details = embed(
    SyncUpDetail.self, stack: \.path, case: Screen.detail,
    sharing: .element(\.syncUp, in: \.syncUps), event: Event.detail, decision: Decision.detail,
    request: { if case .request(let request) = $1 { .detailAsked(id: $0, request) } else { nil } })
  /// The meeting recorders.
  public static let recorders = embed(
    RecordMeeting.self, stack: \.path, case: Screen.record, event: Event.record,
    decision: Decision.record,
    request: { if case .end(let ending) = $1 { .recordEnded(id: $0, ending) } else { nil } })
  /// Each child's work ends when it leaves the state.
  public static let childWork = [details.work, recorders.work]

  /// The app starts by reading its file.
  public static func makeStartDecisions(state: inout State) -> [Decision] {
    state.file = .loading
    return [.load]
  }

  /// Decides what an event changes and what work follows; a change of the sync-ups is saved
  /// after a quiet period.
  public static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    let before = state.syncUps
    // NB: only a change of loaded sync-ups is saved: the ones just read from the file are not
    // written back.
    let wasLoaded = state.file == .loaded
    var decisions = decide(event, &state)
    // NB: a screen's request runs this function again inside the same step, which has saved its
    // own change already.
    if wasLoaded, state.syncUps != before, !decisions.contains(.waitToSave(quietPeriod)) {
      decisions += syncUpsChanged(&state)
    }
    return decisions
  }

  private static func decide(_ event: Event, _ state: inout State) -> [Decision] {
    switch event {
    case .addTapped(let syncUpID, let attendeeID):
      guard state.file == .loaded else { return [] }
      state.addSheet = SyncUpForm.State(syncUp: SyncUp(id: syncUpID), newAttendeeID: attendeeID)
      return []

    case .add(let event):
      return addForm.makeDecisions(event: event, in: &state)

    case .confirmAddTapped:
      guard state.file == .loaded, let form = addForm.state(in: state) else { return [] }
      state.syncUps.append(form.syncUp.droppingBlankAttendees())
      state.addSheet = nil
      return []

    case .dismissAddTapped:
      state.addSheet = nil
      return []

    case .syncUpTapped(let id):
      guard let syncUp = state.syncUps[id: id] else { return [] }
      state.path.push(.detail(SyncUpDetail.State(syncUp: syncUp)))
      return []

    case .detail(let id, let event):
      return details.makeDecisions(event: event, id: id, in: &state)

    case .detailAsked(let id, let request):
      guard let syncUp = details.state(id: id, in: state)?.syncUp else { return [] }
      switch request {
      case .delete:
        state.syncUps.remove(id: syncUp.id)  // the screen is popped with it
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
      state.syncUps[id: syncUpID]?.meetings.insert(meeting, at: 0)
      details.share(in: &state)  // a detail screen of the sync-up shows the meeting too
      return []

    case .loaded(let syncUps):
      guard state.file == .loading else { return [] }
      state.file = .loaded
      state.syncUps = IdentifiedArray(uniqueElements: syncUps ?? [])
      state.hasUnsavedChanges = false
      return []

    case .loadFailed(let error):
      guard state.file == .loading else { return [] }
      state.file = .failed(error)
      return []

    case .retryTapped:
      guard case .failed = state.file else { return [] }
      state.file = .loading
      return [.load]

    case .startOverTapped:
      guard case .failed = state.file else { return [] }
      state.file = .movingAside
      return [.moveAside]

    case .movedAside(let backup):
      guard state.file == .movingAside else { return [] }
      state.file = .loaded
      state.backup = backup
      return []

    case .moveAsideFailed(let error):
      guard state.file == .movingAside else { return [] }
      state.file = .failed(error)
      return []

    case .quietPeriodEnded:
      state.isWaitingToSave = false
      return writeIfIdle(&state)

    case .saveNowRequested:
      guard state.isWaitingToSave else { return writeIfIdle(&state) }
      state.isWaitingToSave = false
      return [.cancelWait] + writeIfIdle(&state)

    case .saved:
      state.isWriting = false
      state.saveError = nil
      return state.isWaitingToSave ? [] : writeIfIdle(&state)

    case .saveFailed(let error):
      state.isWriting = false
      state.saveError = error
      state.hasUnsavedChanges = true
      return []
    }
  }

  /// The sync-ups changed: save them once no change has come for the quiet period.
  private static func syncUpsChanged(_ state: inout State) -> [Decision] {
    guard state.file == .loaded else { return [] }
    state.hasUnsavedChanges = true
    state.isWaitingToSave = true
    return [.waitToSave(quietPeriod)]
  }

  /// Writes the sync-ups if they changed and no write runs; a running write is followed by
  /// another when it ends.
  private static func writeIfIdle(_ state: inout State) -> [Decision] {
    guard state.file == .loaded, state.hasUnsavedChanges, !state.isWriting else { return [] }
    state.hasUnsavedChanges = false
    state.isWriting = true
    return [.write(Array(state.syncUps))]
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
    case .load:
      effects.run(id: "load") { send in
        do throws(JSONFileError) {
          await send(.loaded(try await deps.load()))
        } catch {
          await send(.loadFailed(error))
        }
      }
    case .waitToSave(let delay):
      effects.run(id: "wait to save") { send in
        try await deps.clock.sleep(for: delay)
        await send(.quietPeriodEnded)
      }
    case .cancelWait:
      effects.cancel(id: "wait to save")
    case .write(let syncUps):
      effects.run(id: "write") { send in
        do throws(JSONFileError) {
          try await deps.save(syncUps)
          await send(.saved)
        } catch {
          await send(.saveFailed(error))
        }
      }
    case .moveAside:
      effects.run(id: "move aside") { send in
        do throws(JSONFileError) {
          await send(.movedAside(to: try await deps.moveAside()))
        } catch {
          await send(.moveAsideFailed(error))
        }
      }
    }
  }
}
