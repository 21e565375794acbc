import Decisions
import DecisionsTesting
import Foundation
import SyncUps
import TestSupport
import Testing

@testable import syncups

/// The `syncups` app's commands, read and sent on the screen shown.
@Suite struct SyncUpsCommandTests {
  @Test func commandsAreRead() throws {
    #expect(try Command.parse("add") == .add)
    #expect(try Command.parse("  open 2 ") == .open(2))
    #expect(try Command.parse("title Design review") == .title("Design review"))
    #expect(try Command.parse("minutes 15") == .minutes(15))
    #expect(try Command.parse("theme Orange") == .theme(.orange))
    #expect(try Command.parse("name 2 Ada Lovelace") == .name(2, "Ada Lovelace"))
    #expect(try Command.parse("start-over") == .startOver)
    #expect(try Command.parse("q") == .quit)
    #expect(try Command.parseScript("add;title X;done") == [.add, .title("X"), .done])
  }

  @Test(arguments: [
    ("open", "open takes a place in the list from 1 to 9999, not \"\""),
    ("open 0", "open takes a place in the list from 1 to 9999, not \"0\""),
    ("minutes 99999", "minutes takes minutes from 1 to 1440, not \"99999\""),
    ("wait -1", "wait takes seconds from 0 to 3600, not \"-1\""),
    ("title", "title needs a text"),
    ("done now", "done takes nothing after it"),
    ("name 2", "name needs a place and a name"),
    ("fly", "unknown command \"fly\"; help lists them"),
    (
      "theme \u{1B}[2J",
      "theme takes one of bubblegum, buttercup, indigo, lavender, magenta, navy, orange, oxblood, periwinkle, poppy, purple, seafoam, sky, tan, teal, yellow, not \"\\u{1B}[2J\""
    ),
  ])
  func aMalformedCommandSaysWhy(input: String, message: String) {
    #expect(throws: Command.ParseError(description: message)) { try Command.parse(input) }
  }

  @Test func aScriptNamesItsFirstBadCommand() {
    #expect(throws: Command.ParseError(description: "command 2: done takes nothing after it")) {
      try Command.parseScript("add;done x;quit")
    }
  }

  @Test func aCommandTooLongIsRefused() {
    #expect(throws: Command.ParseError(description: "a command may be at most 1000 bytes long")) {
      try Command.parse("title " + String(repeating: "a", count: 1_000))
    }
  }

  @Test func eachCommandSendsTheEventsOfTheScreenShown() throws {
    var ids = (100...).lazy.map { UUID($0) }.makeIterator()
    func newID() -> UUID { ids.next()! }
    var state = SyncUpsApp.State(syncUps: [designSyncUp])
    #expect(
      try Command.add.events(in: state, newID: newID)
        == [.addTapped(syncUpID: UUID(100), attendeeID: UUID(101))])
    #expect(try Command.open(1).events(in: state, newID: newID) == [.syncUpTapped(UUID(1))])
    #expect(throws: Command.Refusal(description: "there is no sync-up 2")) {
      try Command.open(2).events(in: state, newID: newID)
    }
    #expect(
      throws: Command.Refusal(
        description: "next does nothing on the list; help lists the commands")
    ) {
      try Command.next.events(in: state, newID: newID)
    }

    // In the add form, an attendee's name goes to the empty row first, then to a new row.
    state.addSheet = SyncUpForm.State(syncUp: SyncUp(id: UUID(5)), newAttendeeID: UUID(6))
    #expect(
      try Command.attendee("Ada").events(in: state, newID: newID) == [
        .add(.attendeeNameChanged(id: UUID(6), name: "Ada"))
      ])
    state.addSheet?.syncUp.attendees[id: UUID(6)]?.name = "Ada"
    #expect(
      try Command.attendee("Bob").events(in: state, newID: newID) == [
        .add(.addAttendeeTapped(newID: UUID(102))),
        .add(.attendeeNameChanged(id: UUID(102), name: "Bob")),
      ])
    #expect(try Command.done.events(in: state, newID: newID) == [.confirmAddTapped])
    #expect(throws: Command.Refusal(description: "there is no attendee 3")) {
      try Command.remove(3).events(in: state, newID: newID)
    }

    // On a sync-up's screen with an alert, a button's place picks its action.
    state.addSheet = nil
    state.path = [
      .detail(SyncUpDetail.State(syncUp: designSyncUp, destination: .dialog(.deleteSyncUp)))
    ]
    typealias ID = SyncUpsApp.ScreenID
    #expect(
      try Command.choose(1).events(in: state, newID: newID) == [
        .detail(id: ID(0), .dialog(.chose(.confirmDeletion)))
      ])
    #expect(
      try Command.choose(2).events(in: state, newID: newID) == [
        .detail(id: ID(0), .dialog(.dismissed))
      ])
    #expect(throws: Command.Refusal(description: "the alert has no button 3")) {
      try Command.choose(3).events(in: state, newID: newID)
    }
    state.path = [.detail(SyncUpDetail.State(syncUp: designSyncUp))]
    #expect(try Command.back.events(in: state, newID: newID) == [.pathChanged([])])
    #expect(
      try Command.meeting(1).events(in: state, newID: newID) == [
        .detail(id: ID(0), .meetingTapped(UUID(4)))
      ])
  }

  @Test func theScreenShowsWhatIsOnTopWithOutsideTextEscaped() {
    var syncUp = designSyncUp
    syncUp.title = "Design\u{1B}[2J"
    var state = SyncUpsApp.State(syncUps: [syncUp])
    #expect(
      Screen.lines(for: state) == [
        "== Sync-ups (1) ==", "1. Design\\u{1B}[2J: 1 min, 2 attendees, Orange",
      ])
    state.path = [
      .record(RecordMeeting.State(syncUp: designSyncUp, secondsElapsed: 35, speakerIndex: 1))
    ]
    #expect(
      Screen.lines(for: state) == [
        "== Meeting: Design ==", "00:35 elapsed, 00:25 remaining", "speaker 2 of 2: Bob",
        "transcript: (none)",
      ])
    state.syncUps.status = .failed(.corrupt(path: "/d/s.json", reason: "bad"))
    #expect(Screen.lines(for: state).first == "== Sync-ups ==")
    #expect(Screen.lines(for: state).last?.hasPrefix("retry:") == true)
  }
}

/// The `syncups` app run as a user runs it.
@Suite(.timeLimit(.minutes(3))) struct SyncUpsDemoTests {
  private func run(
    _ arguments: [String], input: String = "", output: OutputDestination = .pipe
  ) throws -> ProductRun {
    try runProduct("syncups", arguments, input: input, output: output, timeLimit: .seconds(60))
  }

  @Test func theSyncUpsSurviveAQuitAndARestart() throws {
    let folder = try TemporaryFolder("SyncUpsDemoTests")
    let data = folder.url.appending(path: "syncups.json").path
    let first = try run([
      "--data", data, "--script", "add;title Design;attendee Ada;attendee Bob;minutes 1;done;quit",
    ])
    #expect(first.status == 0)
    #expect(first.errors == "")
    #expect(
      first.output.hasSuffix("== Sync-ups (1) ==\n1. Design: 1 min, 2 attendees, Bubblegum\n"))
    let second = try run(["--data", data, "--script", "show"])
    #expect(second.status == 0)
    #expect(
      second.output.hasSuffix("== Sync-ups (1) ==\n1. Design: 1 min, 2 attendees, Bubblegum\n"))
  }

  @Test func aMeetingOnTheScriptedClockEndsByItselfWithItsTranscript() throws {
    let folder = try TemporaryFolder("SyncUpsDemoTests")
    let data = folder.url.appending(path: "syncups.json").path
    let run = try run([
      "--data", data, "--speech", "Hello there team",
      "--script", "add;title Daily;attendee Ada;minutes 1;done;open 1;start;wait 60;meeting 1",
    ])
    #expect(run.status == 0)
    #expect(run.errors == "")
    #expect(
      run.output.contains(
        "00:03 elapsed, 00:57 remaining\nspeaker 1 of 1: Ada\ntranscript: Hello there team\n"))
    #expect(run.output.hasSuffix(" UTC ==\nHello there team\n"))
    let file = JSONFile<[SyncUp]>(url: URL(fileURLWithPath: data))
    #expect(try file.load()?.first?.meetings.first?.transcript == "Hello there team")
  }

  @Test func speechDeniedShowsTheAlertAndTheSettingsOpen() throws {
    let folder = try TemporaryFolder("SyncUpsDemoTests")
    let data = folder.url.appending(path: "syncups.json").path
    let run = try run([
      "--data", data, "--speech-access", "denied",
      "--script", "add;title Daily;attendee Ada;done;open 1;start;choose 2",
    ])
    #expect(run.status == 0)
    #expect(run.output.contains("[alert] Speech recognition denied\n"))
    #expect(run.errors == "syncups: (the system's settings would open here)\n")
  }

  @Test func aFileThatDoesNotLoadIsShownAndKept() throws {
    let folder = try TemporaryFolder("SyncUpsDemoTests")
    let url = folder.url.appending(path: "syncups.json")
    try Data("{ not json".utf8).write(to: url)
    let run = try run(["--data", url.path, "--script", "add;start-over;add;title X;done"])
    #expect(run.status == 0)
    #expect(run.output.contains("The sync-ups could not be read: "))
    #expect(run.errors.contains("add does nothing on the screen of a file that did not load"))
    #expect(try Data(contentsOf: url.appendingPathExtension("backup")) == Data("{ not json".utf8))
    #expect(try JSONFile<[SyncUp]>(url: url).load()?.map(\.title) == ["X"])
  }

  @Test func linesOnStandardInputAreCommandsAndABadOneSaysWhyAndGoesOn() throws {
    let folder = try TemporaryFolder("SyncUpsDemoTests")
    let data = folder.url.appending(path: "syncups.json").path
    let run = try run(["--data", data], input: "fly\nadd\ntitle T\ndone\n")
    #expect(run.status == 0)
    #expect(run.errors == "syncups: line 1: unknown command \"fly\"; help lists them\n")
    #expect(run.output.hasSuffix("1. T: 5 min, 1 attendee, Bubblegum\n"))
  }

  // NB: a file of 2,000 sync-ups takes long enough to load that, without the wait for the load,
  // every piped command found the list still loading (five runs of five, debug build).
  @Test func pipedCommandsWaitForALargeFileToLoad() throws {
    let folder = try TemporaryFolder("SyncUpsDemoTests")
    let url = folder.url.appending(path: "syncups.json")
    let syncUps = (1...2_000).map { number in
      SyncUp(
        id: UUID(), attendees: [Attendee(id: UUID(), name: "A\(number)")], title: "S\(number)")
    }
    try JSONFile<[SyncUp]>(url: url, version: 1).save(syncUps)
    let run = try run(["--data", url.path], input: "add\ntitle T\ndone\n")
    #expect(run.status == 0)
    #expect(run.errors == "")
    #expect(run.output.hasSuffix("2001. T: 5 min, 1 attendee, Bubblegum\n"))
  }

  @Test(arguments: [
    (
      ["--speech-access", "maybe"],
      "syncups: --speech-access takes authorized, denied or restricted, not \"maybe\""
    ),
    (["--data"], "syncups: --data needs a value"),
    (["--data", "/tmp/"], "syncups: --data takes the path of a file, not \"/tmp/\""),
    (
      ["--script", "fly"], "syncups: --script, command 1: unknown command \"fly\"; help lists them"
    ),
    (["--fast"], "syncups: unknown option \"--fast\""),
  ])
  func badOptionsExitWith2AndSayWhy(arguments: [String], message: String) throws {
    let run = try run(arguments)
    #expect(run.status == 2)
    #expect(run.errors.hasPrefix(message + "\n"))
  }

  @Test func aRecordingReplaysToTheStateTheSessionEndedIn() throws {
    let folder = try TemporaryFolder("SyncUpsDemoTests")
    let data = folder.url.appending(path: "syncups.json").path
    let file = folder.url.appending(path: "session.json")
    let run = try run([
      "--data", data, "--record", file.path,
      "--script", "add;title Rec;attendee Ada;done;open 1;start;choose 1;wait 3;end;choose 1;quit",
    ])
    #expect(run.status == 0)
    #expect(run.errors == "")
    let recording = try FlightRecording<SyncUpsApp>(json: Data(contentsOf: file))
    #expect(recording.trigger == .requested(note: "syncups --record"))
    #expect(recording.events.first == .file(.loaded(nil)))
    #expect(recording.events.contains(.confirmAddTapped))
    #expect(recording.events.filter { $0 == .record(id: .init(1), .timerTicked) }.count == 3)
    let replay = Replay(recording)
    #expect(replay.steps.last?.state == recording.finalState)
    #expect(recording.finalState.syncUps.value.first?.meetings.count == 1)
  }

  @Test func aRecordingInAFolderThatDoesNotExistFailsAtOnce() throws {
    let run = try run(["--record", "/nonexistent-folder/session.json", "--script", "show"])
    #expect(run.status == 2)
    #expect(
      run.errors
        == "syncups: --record: there is no folder /nonexistent-folder to write "
        + "/nonexistent-folder/session.json in\n")
  }

  @Test func helpPrintsTheUsage() throws {
    let run = try run(["--help"])
    #expect(run.status == 0)
    #expect(run.output.hasPrefix("USAGE: syncups [options]"))
  }

  @Test func aFolderWhereTheFileShouldBeIsRefusedAtOnce() throws {
    let folder = try TemporaryFolder("SyncUpsDemoTests")
    let data = folder.url.appending(path: "syncups.json")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let run = try run(["--data", data.path, "--script", "add;title X;done;quit"])
    #expect(run.status == 2)
    #expect(run.errors == "syncups: --data: \(data.path) is a folder, not a file\n")
  }

  @Test func aClosedPipeForTheOutputIsReported() throws {
    let folder = try TemporaryFolder("SyncUpsDemoTests")
    let data = folder.url.appending(path: "syncups.json").path
    let run = try run(["--data", data, "--script", "show"], output: .brokenPipe)
    #expect(run.status == 1)
    #expect(run.errors.hasSuffix("syncups: cannot write to standard output: Broken pipe\n"))
  }
}
