import Decisions
import DecisionsTesting
import Foundation
import SyncUps
import TestSupport
import Testing

private typealias ScreenID = SyncUpsApp.ScreenID

/// What the unused file closures throw after failing the test.
private let unused = JSONFileError.unreadable(path: "sync-ups.json", reason: "not in this test")

/// Deps for the app whose every closure fails the test if called; each test sets what it uses.
private func unusedDeps(clock: any Clock<Duration> = TestClock()) -> SyncUpsApp.Deps {
  SyncUpsApp.Deps(
    file: .init(
      clock: clock, load: unimplemented("load", throwing: unused),
      save: unimplemented("save", throwing: unused),
      moveAside: unimplemented("moveAside", throwing: unused)),
    now: { Date(timeIntervalSince1970: 1_000) }, uuid: { UUID(77) },
    detail: SyncUpDetail.Deps(authorizationStatus: { .authorized }, openSettings: {}),
    record: RecordMeeting.Deps(
      clock: clock,
      speech: SpeechRecognizer(
        authorizationStatus: { .denied }, requestAuthorization: { .denied },
        transcripts: { AsyncThrowingStream { $0.finish() } })))
}

/// The scenarios of TCA's SyncUpsListTests and AppFeatureTests, on the app's core.
@Suite struct SyncUpsAppCoreTests {
  @Test func addingASyncUpKeepsItAndSavesAfterAQuietPeriod() {
    var test = CoreTest<SyncUpsApp>(state: .init())
    test.send(.addTapped(syncUpID: UUID(1), attendeeID: UUID(2))) {
      $0.addSheet = SyncUpForm.State(syncUp: SyncUp(id: UUID(1)), newAttendeeID: UUID(2))
    }
    test.send(.add(.titleChanged("Engineering"))) { $0.addSheet?.syncUp.title = "Engineering" }
    test.send(.add(.attendeeNameChanged(id: UUID(2), name: "Ada"))) {
      $0.addSheet?.syncUp.attendees[id: UUID(2)]?.name = "Ada"
    }
    let added = SyncUp(
      id: UUID(1), attendees: [Attendee(id: UUID(2), name: "Ada")], title: "Engineering")
    test.send(.confirmAddTapped, decisions: [.file(.waitToSave(.seconds(1)))]) {
      $0.addSheet = nil
      $0.syncUps.value = [added]
      $0.syncUps.hasUnsavedChanges = true
      $0.syncUps.isWaitingToSave = true
    }
    test.send(.file(.quietPeriodEnded), decisions: [.file(.write([added]))]) {
      $0.syncUps.hasUnsavedChanges = false
      $0.syncUps.isWaitingToSave = false
      $0.syncUps.isWriting = true
    }
    test.send(.file(.saved)) { $0.syncUps.isWriting = false }
  }

  @Test func addingDropsAttendeesWithBlankNames() {
    var test = CoreTest<SyncUpsApp>(state: .init())
    test.send(.addTapped(syncUpID: UUID(1), attendeeID: UUID(2))) {
      $0.addSheet = SyncUpForm.State(syncUp: SyncUp(id: UUID(1)), newAttendeeID: UUID(2))
    }
    test.send(.add(.titleChanged("Design"))) { $0.addSheet?.syncUp.title = "Design" }
    test.send(.add(.addAttendeeTapped(newID: UUID(3)))) {
      $0.addSheet?.syncUp.attendees.append(Attendee(id: UUID(3)))
      $0.addSheet?.focus = .attendee(UUID(3))
    }
    test.send(.add(.attendeeNameChanged(id: UUID(3), name: "Bob"))) {
      $0.addSheet?.syncUp.attendees[id: UUID(3)]?.name = "Bob"
    }
    test.send(.confirmAddTapped, decisions: [.file(.waitToSave(.seconds(1)))]) {
      $0.addSheet = nil
      $0.syncUps.value = [
        SyncUp(id: UUID(1), attendees: [Attendee(id: UUID(3), name: "Bob")], title: "Design")
      ]
      $0.syncUps.hasUnsavedChanges = true
      $0.syncUps.isWaitingToSave = true
    }
  }

  @Test func dismissingTheFormAddsNothing() {
    var test = CoreTest<SyncUpsApp>(state: .init())
    test.send(.addTapped(syncUpID: UUID(1), attendeeID: UUID(2))) {
      $0.addSheet = SyncUpForm.State(syncUp: SyncUp(id: UUID(1)), newAttendeeID: UUID(2))
    }
    test.send(.dismissAddTapped) { $0.addSheet = nil }
    test.send(.confirmAddTapped)
  }

  @Test func deletingFromTheDetailRemovesTheSyncUpAndClosesItsScreen() {
    var test = CoreTest<SyncUpsApp>(state: .init(syncUps: [designSyncUp]))
    test.send(.syncUpTapped(designSyncUp.id)) {
      $0.path.push(.detail(SyncUpDetail.State(syncUp: designSyncUp)))
    }
    test.send(.detail(id: ScreenID(0), .deleteTapped)) {
      $0.path[id: ScreenID(0), case: SyncUpsApp.Screen.detail]?.destination = .dialog(
        .deleteSyncUp)
    }
    test.send(
      .detail(id: ScreenID(0), .dialog(.chose(.confirmDeletion))),
      decisions: [.file(.waitToSave(.seconds(1)))]
    ) {
      $0.syncUps.value = []
      $0.path = ScreenStack()
      $0.syncUps.hasUnsavedChanges = true
      $0.syncUps.isWaitingToSave = true
    }
  }

  @Test func editingInTheDetailUpdatesTheList() {
    var test = CoreTest<SyncUpsApp>(state: .init(syncUps: [designSyncUp]))
    test.send(.syncUpTapped(designSyncUp.id)) {
      $0.path.push(.detail(SyncUpDetail.State(syncUp: designSyncUp)))
    }
    let form = SyncUpForm.State(syncUp: designSyncUp, newAttendeeID: UUID(9))
    test.send(.detail(id: ScreenID(0), .editTapped(newAttendeeID: UUID(9)))) {
      $0.path[id: ScreenID(0), case: SyncUpsApp.Screen.detail]?.destination = .edit(form)
    }
    var edited = form
    edited.syncUp.title = "Blob"
    test.send(.detail(id: ScreenID(0), .edit(.titleChanged("Blob")))) {
      $0.path[id: ScreenID(0), case: SyncUpsApp.Screen.detail]?.destination = .edit(edited)
    }
    test.send(
      .detail(id: ScreenID(0), .doneEditingTapped),
      decisions: [.file(.waitToSave(.seconds(1)))]
    ) {
      $0.path[id: ScreenID(0)] = .detail(SyncUpDetail.State(syncUp: edited.syncUp))
      $0.syncUps.value[id: designSyncUp.id] = edited.syncUp
      $0.syncUps.hasUnsavedChanges = true
      $0.syncUps.isWaitingToSave = true
    }
  }

  @Test func startingAMeetingPushesTheRecorderWhichStarts() {
    var test = CoreTest<SyncUpsApp>(state: .init(syncUps: [designSyncUp]))
    test.send(.syncUpTapped(designSyncUp.id)) {
      $0.path.push(.detail(SyncUpDetail.State(syncUp: designSyncUp)))
    }
    test.send(
      .detail(id: ScreenID(0), .startMeetingTapped),
      decisions: [.detail(id: ScreenID(0), .checkSpeechAuthorization)])
    test.send(
      .detail(id: ScreenID(0), .speechAuthorization(.authorized)),
      decisions: [
        .record(id: ScreenID(1), .startTimer(every: RecordMeeting.tick)),
        .record(id: ScreenID(1), .checkSpeechAuthorization),
      ]
    ) {
      $0.path.push(.record(RecordMeeting.State(syncUp: designSyncUp)))
    }
  }

  @Test func aMeetingThatEndsIsClosedAndKeptInTheListAndTheDetail() {
    var state = SyncUpsApp.State(syncUps: [designSyncUp])
    state.path = [
      .detail(SyncUpDetail.State(syncUp: designSyncUp)),
      .record(RecordMeeting.State(syncUp: designSyncUp, secondsElapsed: 59, transcript: "Hello")),
    ]
    var test = CoreTest<SyncUpsApp>(state: state)
    test.send(
      .record(id: ScreenID(1), .timerTicked),
      decisions: [.makeMeeting(syncUpID: designSyncUp.id, transcript: "Hello")]
    ) {
      $0.path.pop()
    }
    let meeting = Meeting(id: UUID(5), date: Date(timeIntervalSince1970: 9), transcript: "Hello")
    var withMeeting = designSyncUp
    withMeeting.meetings.insert(meeting, at: 0)
    test.send(
      .meetingMade(syncUpID: designSyncUp.id, meeting),
      decisions: [.file(.waitToSave(.seconds(1)))]
    ) {
      $0.syncUps.value[id: designSyncUp.id] = withMeeting
      $0.path[id: ScreenID(0)] = .detail(SyncUpDetail.State(syncUp: withMeeting))
      $0.syncUps.hasUnsavedChanges = true
      $0.syncUps.isWaitingToSave = true
    }
  }

  @Test func aDiscardedMeetingIsClosedAndNotKept() {
    var state = SyncUpsApp.State(syncUps: [designSyncUp])
    state.path = [
      .detail(SyncUpDetail.State(syncUp: designSyncUp)),
      .record(
        RecordMeeting.State(
          syncUp: designSyncUp, dialog: RecordMeeting.endMeetingDialog(discardable: true))),
    ]
    var test = CoreTest<SyncUpsApp>(state: state)
    test.send(.record(id: ScreenID(1), .dialog(.chose(.discard)))) {
      $0.path.pop()
    }
  }

  @Test func aPastMeetingOpensOnTheStackAndTheBackButtonPopsIt() {
    var test = CoreTest<SyncUpsApp>(state: .init(syncUps: [designSyncUp]))
    test.send(.syncUpTapped(designSyncUp.id)) {
      $0.path.push(.detail(SyncUpDetail.State(syncUp: designSyncUp)))
    }
    test.send(.detail(id: ScreenID(0), .meetingTapped(designSyncUp.meetings[0].id))) {
      $0.path.push(.meeting(designSyncUp.meetings[0], syncUp: designSyncUp))
    }
    test.send(.pathChanged([ScreenID(0)])) { $0.path.pop() }
    test.send(.pathChanged([])) { $0.path.pop() }
  }

  @Test func nothingIsEditedOrSavedUntilTheFileHasLoaded() {
    var test = CoreTest<SyncUpsApp>(state: .init(file: .loading))
    test.send(.addTapped(syncUpID: UUID(1), attendeeID: UUID(2)))
    test.send(.file(.loadFailed(.corrupt(path: "s.json", reason: "bad")))) {
      $0.syncUps.status = .failed(.corrupt(path: "s.json", reason: "bad"))
    }
    test.send(.addTapped(syncUpID: UUID(1), attendeeID: UUID(2)))
    test.send(.file(.saveNowRequested))
    test.send(.file(.startOverTapped), decisions: [.file(.moveAside)]) {
      $0.syncUps.status = .movingAside
    }
    let backup = URL(fileURLWithPath: "/tmp/syncups.json.backup")
    test.send(.file(.movedAside(to: backup))) {
      $0.syncUps.status = .loaded
      $0.syncUps.backup = backup
    }
  }
}

/// The app's store on a real file, with a TestClock: TCA's AppFeatureTests' recording scenario,
/// and persistence.
@Suite(.timeLimit(.minutes(3))) struct SyncUpsAppStoreTests {
  private func file(in folder: TemporaryFolder) -> JSONFile<IdentifiedArray<SyncUp>> {
    JSONFile<IdentifiedArray<SyncUp>>(url: folder.url.appending(path: "syncups.json"), version: 1)
  }

  private func deps(file: JSONFile<IdentifiedArray<SyncUp>>, clock: TestClock) -> SyncUpsApp.Deps {
    var deps = unusedDeps(clock: clock)
    deps.file = .file(file, clock: clock)
    return deps
  }

  @Test func theSyncUpsLoadAtStartAndAChangeIsSavedAfterAQuietPeriod() async throws {
    let folder = try TemporaryFolder("SyncUpsAppStoreTests")
    let file = file(in: folder)
    try file.save([designSyncUp])
    let clock = TestClock()
    let test = StoreTest<SyncUpsApp>(
      state: .init(file: .loading), deps: deps(file: file, clock: clock))
    await test.expectStart(decisions: [.file(.load)])
    await test.receive(.file(.loaded([designSyncUp]))) {
      $0.syncUps.status = .loaded
      $0.syncUps.value = [designSyncUp]
    }
    await test.send(.syncUpTapped(designSyncUp.id)) {
      $0.path.push(.detail(SyncUpDetail.State(syncUp: designSyncUp)))
    }
    await test.send(
      .detail(id: ScreenID(0), .deleteMeetings(atOffsets: [0])),
      decisions: [.file(.waitToSave(.seconds(1)))]
    ) {
      $0.path[id: ScreenID(0)] = .detail(
        SyncUpDetail.State(
          syncUp: SyncUp(
            id: designSyncUp.id, attendees: designSyncUp.attendees, durationInSeconds: 60,
            theme: .orange, title: "Design")))
      $0.syncUps.value[id: designSyncUp.id]?.meetings = []
      $0.syncUps.hasUnsavedChanges = true
      $0.syncUps.isWaitingToSave = true
    }
    await clock.advance(by: .milliseconds(999))
    #expect(try file.load()?.first?.meetings.count == 1)  // not yet
    await clock.advance(by: .milliseconds(1))
    var saved = designSyncUp
    saved.meetings = []
    await test.receive(.file(.quietPeriodEnded), decisions: [.file(.write([saved]))]) {
      $0.syncUps.hasUnsavedChanges = false
      $0.syncUps.isWaitingToSave = false
      $0.syncUps.isWriting = true
    }
    await test.receive(.file(.saved)) { $0.syncUps.isWriting = false }
    #expect(try file.load() == [saved])
    await test.finish()
  }

  @Test func aFileThatDoesNotLoadIsKeptAndNeverOverwritten() async throws {
    let folder = try TemporaryFolder("SyncUpsAppStoreTests")
    let file = file(in: folder)
    let url = folder.url.appending(path: "syncups.json")
    try Data("{ not json".utf8).write(to: url)
    let test = StoreTest<SyncUpsApp>(
      state: .init(file: .loading), deps: deps(file: file, clock: TestClock()))
    await test.expectStart(decisions: [.file(.load)])
    let error: JSONFileError
    do {
      _ = try file.load()
      Issue.record("the file loaded")
      return
    } catch let thrown {
      error = thrown
    }
    await test.receive(.file(.loadFailed(error))) { $0.syncUps.status = .failed(error) }
    await test.send(.file(.saveNowRequested))
    await test.send(.file(.startOverTapped), decisions: [.file(.moveAside)]) {
      $0.syncUps.status = .movingAside
    }
    let backup = folder.url.appending(path: "syncups.json.backup")
    await test.receive(.file(.movedAside(to: backup))) {
      $0.syncUps.status = .loaded
      $0.syncUps.backup = backup
    }
    #expect(try Data(contentsOf: backup) == Data("{ not json".utf8))
    #expect(try folder.names() == ["syncups.json.backup"])
    await test.finish()
  }

  @Test func aMeetingRecordedToTheEndIsSavedWithItsTranscript() async throws {
    let folder = try TemporaryFolder("SyncUpsAppStoreTests")
    let clock = TestClock()
    var syncUp = designSyncUp
    syncUp.durationInSeconds = 4
    syncUp.meetings = []
    try file(in: folder).save([syncUp])
    var deps = deps(file: file(in: folder), clock: clock)
    deps.record.speech = .fake(lines: ["Hello", "world"], every: .seconds(1), on: clock)
    let test = StoreTest<SyncUpsApp>(
      state: .init(syncUps: [syncUp], path: [.detail(SyncUpDetail.State(syncUp: syncUp))]),
      deps: deps, exhaustivity: .off)
    await test.send(.detail(id: ScreenID(0), .speechAuthorization(.authorized)))
    #expect(await test.state.path.count == 2)
    await clock.advance(by: .seconds(4))
    await test.settle()
    let state = await test.state
    #expect(state.path.count == 1)
    let meeting = Meeting(
      id: UUID(77), date: Date(timeIntervalSince1970: 1_000), transcript: "Hello world")
    #expect(state.syncUps.value[id: syncUp.id]?.meetings == [meeting])
    #expect(
      state.path[id: ScreenID(0)] == .detail(SyncUpDetail.State(syncUp: state.syncUps.value[0])))
    #expect(clock.sleeperCount == 1)  // only the wait to save: the meeting's work ended with it
    await clock.advance(by: .seconds(1))
    await test.settle()
    #expect(try file(in: folder).load()?.first?.meetings == [meeting])
    await test.finish()
  }

  @Test func aRecorderPoppedByTheBackButtonEndsItsTimer() async throws {
    let folder = try TemporaryFolder("SyncUpsAppStoreTests")
    let clock = TestClock()
    try file(in: folder).save([designSyncUp])
    let test = StoreTest<SyncUpsApp>(
      state: .init(
        syncUps: [designSyncUp],
        path: [.detail(SyncUpDetail.State(syncUp: designSyncUp))]),
      deps: deps(file: file(in: folder), clock: clock), exhaustivity: .off)
    await test.send(.detail(id: ScreenID(0), .speechAuthorization(.authorized)))
    await test.settle()
    #expect(clock.sleeperCount == 1)  // the meeting's timer
    await test.send(.pathChanged([ScreenID(0)]))
    await test.settle()
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(5))
    #expect(await test.state.syncUps.value[id: designSyncUp.id]?.meetings == designSyncUp.meetings)
    await test.finish()
  }
}
