import Decisions
import ExampleSupport
import Foundation
import SyncUps

/// One command of a session: a line of standard input, or one `;`-separated part of `--script`.
enum Command: Equatable {
  /// Opens the form that adds a sync-up (the list).
  case add
  /// Opens the sync-up at this place in the list, from 1 (the list).
  case open(Int)
  /// Sets the title (a form).
  case title(String)
  /// Sets the length, in minutes (a form).
  case minutes(Int)
  /// Sets the theme (a form).
  case theme(Theme)
  /// Adds an attendee with this name (a form).
  case attendee(String)
  /// Renames the attendee at this place, from 1 (a form).
  case name(Int, String)
  /// Removes the attendee at this place, from 1 (a form).
  case remove(Int)
  /// Confirms the form.
  case done
  /// Dismisses the form.
  case cancel
  /// Edits the sync-up (its screen).
  case edit
  /// Deletes the sync-up, after an alert (its screen).
  case delete
  /// Starts a meeting (its screen).
  case start
  /// Opens the past meeting at this place, from 1 (a sync-up's screen).
  case meeting(Int)
  /// Deletes the past meeting at this place, from 1 (a sync-up's screen).
  case forget(Int)
  /// Moves on to the next speaker (a meeting).
  case next
  /// Ends the meeting, after an alert (a meeting).
  case end
  /// Taps the alert's button at this place, from 1 (an alert).
  case choose(Int)
  /// Goes back to the screen below (a sync-up's screen, a past meeting).
  case back
  /// Reads the file again, after it did not load.
  case retry
  /// Starts with no sync-ups, keeping the file that did not load as a backup.
  case startOver
  /// Lets this many seconds pass.
  case wait(Int)
  /// Prints the screen again.
  case show
  /// Prints the commands.
  case help
  /// Saves and quits.
  case quit

  /// The longest command, in UTF-8 bytes: a longer one is refused rather than held in memory.
  static let maxBytes = 1_000
  /// The longest `wait`, in seconds: an hour.
  static let maxWaitSeconds = 3_600
  /// The longest meeting, in minutes: a day.
  static let maxMinutes = 1_440

  /// The commands, as `help` prints them.
  static let summary = """
    On the list:        add, open N
    In a form:          title TEXT, minutes N, theme NAME, attendee NAME, name N TEXT, remove N,
                        done, cancel
    On a sync-up:       start, edit, delete, meeting N, forget N, back
    In a meeting:       next, end
    In an alert:        choose N
    In a past meeting:  back
    When the file did not load: retry, start-over
    Anywhere:           wait SECONDS, show, help, quit (or q)
    """

  /// Why a command could not be read, in one sentence.
  struct ParseError: Error, Equatable, CustomStringConvertible {
    /// What is wrong.
    var description: String
  }

  /// Reads one command.
  /// - Parameter input: A line, or a part of a script, without its separator.
  /// - Throws: ``ParseError`` for an unknown or malformed command, or one that is too long.
  /// - Returns: The command.
  static func parse(_ input: some StringProtocol) throws(ParseError) -> Command {
    guard input.utf8.count <= maxBytes else {
      throw ParseError(description: "a command may be at most \(maxBytes) bytes long")
    }
    let trimmed = input.trimmingCharacters(in: .whitespaces)
    let word = trimmed.prefix { $0 != " " }
    let rest = trimmed.dropFirst(word.count).trimmingCharacters(in: .whitespaces)
    func none(_ command: Command) throws(ParseError) -> Command {
      guard rest.isEmpty else { throw ParseError(description: "\(word) takes nothing after it") }
      return command
    }
    func text() throws(ParseError) -> String {
      guard !rest.isEmpty else { throw ParseError(description: "\(word) needs a text") }
      return rest
    }
    func number(_ text: String, in range: ClosedRange<Int>, of what: String) throws(ParseError)
      -> Int
    {
      guard let number = Int(text), range.contains(number) else {
        throw ParseError(
          description:
            "\(word) takes \(what) from \(range.lowerBound) to \(range.upperBound), not "
            + shown(text))
      }
      return number
    }
    func place() throws(ParseError) -> Int {
      try number(rest, in: 1...9_999, of: "a place in the list")
    }
    switch word {
    case "add": return try none(.add)
    case "open": return .open(try place())
    case "title": return .title(try text())
    case "minutes": return .minutes(try number(rest, in: 1...maxMinutes, of: "minutes"))
    case "theme":
      guard let theme = Theme(rawValue: rest.lowercased()) else {
        throw ParseError(
          description:
            "theme takes one of \(Theme.allCases.map(\.rawValue).joined(separator: ", ")), not "
            + shown(rest))
      }
      return .theme(theme)
    case "attendee": return .attendee(try text())
    case "name":
      let place = rest.prefix { $0 != " " }
      let name = rest.dropFirst(place.count).trimmingCharacters(in: .whitespaces)
      let number = try number(String(place), in: 1...9_999, of: "a place in the list")
      guard !name.isEmpty else { throw ParseError(description: "name needs a place and a name") }
      return .name(number, name)
    case "remove": return .remove(try place())
    case "done": return try none(.done)
    case "cancel": return try none(.cancel)
    case "edit": return try none(.edit)
    case "delete": return try none(.delete)
    case "start": return try none(.start)
    case "meeting": return .meeting(try place())
    case "forget": return .forget(try place())
    case "next": return try none(.next)
    case "end": return try none(.end)
    case "choose": return .choose(try place())
    case "back": return try none(.back)
    case "retry": return try none(.retry)
    case "start-over": return try none(.startOver)
    case "wait": return .wait(try number(rest, in: 0...maxWaitSeconds, of: "seconds"))
    case "show": return try none(.show)
    case "help": return try none(.help)
    case "quit", "q": return try none(.quit)
    default:
      throw ParseError(description: "unknown command \(shown(trimmed)); help lists them")
    }
  }

  /// Reads the commands of a script, separated by `;`.
  /// - Parameter script: The script, such as `add;title Design;done;quit`.
  /// - Throws: ``ParseError`` naming the first bad command and its number.
  /// - Returns: The commands, in order.
  static func parseScript(_ script: String) throws(ParseError) -> [Command] {
    var commands: [Command] = []
    for (index, text) in script.split(separator: ";").enumerated() {
      do {
        commands.append(try parse(text))
      } catch {
        throw ParseError(description: "command \(index + 1): \(error)")
      }
    }
    return commands
  }

  /// Outside text as a message echoes it: short, quoted, and with no control characters left.
  private static func shown(_ text: some StringProtocol) -> String {
    sanitizedForTerminal(excerpt(text).debugDescription, keepingNewlines: false)
  }
}

extension Command {
  /// Why a command does nothing on the screen shown.
  struct Refusal: Error, Equatable, CustomStringConvertible {
    /// What is wrong, in one sentence.
    var description: String
  }

  /// The app's events that this command sends on the screen that `state` shows; empty for the
  /// commands the session handles itself (`wait`, `show`, `help`, `quit`).
  /// - Parameters:
  ///   - state: The app's state.
  ///   - newID: Makes a new id, for a sync-up or an attendee.
  /// - Throws: ``Refusal`` when the command does not belong on the screen shown.
  /// - Returns: The events, in order.
  func events(in state: SyncUpsApp.State, newID: () -> UUID) throws(Refusal) -> [SyncUpsApp.Event] {
    switch self {
    case .wait, .show, .help, .quit: return []
    default: break
    }
    let place = Place(state)
    func refuse() -> Refusal {
      Refusal(description: "\(self.word) does nothing on \(place.name); help lists the commands")
    }
    switch (self, place) {
    case (.retry, .loadFailed): return [.file(.retryTapped)]
    case (.startOver, .loadFailed): return [.file(.startOverTapped)]

    case (.add, .list): return [.addTapped(syncUpID: newID(), attendeeID: newID())]
    case (.open(let number), .list):
      guard state.syncUps.value.indices.contains(number - 1) else {
        throw Refusal(description: "there is no sync-up \(number)")
      }
      return [.syncUpTapped(state.syncUps.value[number - 1].id)]

    case (.done, .addForm): return [.confirmAddTapped]
    case (.cancel, .addForm): return [.dismissAddTapped]
    case (.done, .editForm(let id)): return [.detail(id: id, .doneEditingTapped)]
    case (.cancel, .editForm(let id)): return [.detail(id: id, .cancelEditTapped)]
    case (_, .addForm), (_, .editForm):
      let form: SyncUpForm.State
      let embed: (SyncUpForm.Event) -> SyncUpsApp.Event
      if case .editForm(let id) = place, case .detail(let detail) = state.path[id: id],
        case .edit(let edited) = detail.destination
      {
        form = edited
        embed = { .detail(id: id, .edit($0)) }
      } else if let added = state.addSheet {
        form = added
        embed = { .add($0) }
      } else {
        throw refuse()
      }
      return try formEvents(form, newID: newID).map(embed)

    case (.edit, .detail(let id)): return [.detail(id: id, .editTapped(newAttendeeID: newID()))]
    case (.delete, .detail(let id)): return [.detail(id: id, .deleteTapped)]
    case (.start, .detail(let id)): return [.detail(id: id, .startMeetingTapped)]
    case (.meeting(let number), .detail(let id)):
      guard case .detail(let detail) = state.path[id: id],
        detail.syncUp.meetings.indices.contains(number - 1)
      else { throw Refusal(description: "there is no meeting \(number)") }
      return [.detail(id: id, .meetingTapped(detail.syncUp.meetings[number - 1].id))]
    case (.forget(let number), .detail(let id)):
      guard case .detail(let detail) = state.path[id: id],
        detail.syncUp.meetings.indices.contains(number - 1)
      else { throw Refusal(description: "there is no meeting \(number)") }
      return [.detail(id: id, .deleteMeetings(atOffsets: [number - 1]))]
    case (.back, .detail), (.back, .meeting):
      return [.pathChanged(Array(state.path.ids.dropLast()))]

    case (.next, .record(let id)): return [.record(id: id, .nextTapped)]
    case (.end, .record(let id)): return [.record(id: id, .endMeetingTapped)]

    case (.choose(let number), .detailDialog(let id, let dialog)):
      return [.detail(id: id, .dialog(try Self.response(number, dialog)))]
    case (.choose(let number), .recordDialog(let id, let dialog)):
      return [.record(id: id, .dialog(try Self.response(number, dialog)))]

    default:
      throw refuse()
    }
  }

  /// The form's events for a form command.
  private func formEvents(_ form: SyncUpForm.State, newID: () -> UUID) throws(Refusal)
    -> [SyncUpForm.Event]
  {
    let attendees = form.syncUp.attendees
    func attendee(_ number: Int) throws(Refusal) -> Attendee {
      guard attendees.indices.contains(number - 1) else {
        throw Refusal(description: "there is no attendee \(number)")
      }
      return attendees[number - 1]
    }
    switch self {
    case .title(let title): return [.titleChanged(title)]
    case .minutes(let minutes): return [.durationChanged(seconds: minutes * 60)]
    case .theme(let theme): return [.themeChanged(theme)]
    case .attendee(let name):
      // NB: the form's empty row takes the name first, as a user would type into it.
      if let empty = attendees.last(where: { $0.name.isEmpty }) {
        return [.attendeeNameChanged(id: empty.id, name: name)]
      }
      let id = newID()
      return [.addAttendeeTapped(newID: id), .attendeeNameChanged(id: id, name: name)]
    case .name(let number, let name):
      return [.attendeeNameChanged(id: try attendee(number).id, name: name)]
    case .remove(let number):
      _ = try attendee(number)
      return [.deleteAttendees(atOffsets: [number - 1], replacementID: newID())]
    default:
      throw Refusal(description: "\(word) does nothing in a form; help lists the commands")
    }
  }

  /// The answer of tapping the button at `number` of `dialog`.
  private static func response<Action>(_ number: Int, _ dialog: Dialog<Action>) throws(Refusal)
    -> DialogResponse<Action>
  {
    guard dialog.buttons.indices.contains(number - 1) else {
      throw Refusal(description: "the alert has no button \(number)")
    }
    return dialog.buttons[number - 1].action.map { .chose($0) } ?? .dismissed
  }

  /// The command's word, as typed.
  var word: String {
    switch self {
    case .add: "add"
    case .open: "open"
    case .title: "title"
    case .minutes: "minutes"
    case .theme: "theme"
    case .attendee: "attendee"
    case .name: "name"
    case .remove: "remove"
    case .done: "done"
    case .cancel: "cancel"
    case .edit: "edit"
    case .delete: "delete"
    case .start: "start"
    case .meeting: "meeting"
    case .forget: "forget"
    case .next: "next"
    case .end: "end"
    case .choose: "choose"
    case .back: "back"
    case .retry: "retry"
    case .startOver: "start-over"
    case .wait: "wait"
    case .show: "show"
    case .help: "help"
    case .quit: "quit"
    }
  }
}

/// What the app shows on top: where a command goes.
enum Place: Equatable {
  case loading
  case loadFailed
  case list
  case addForm
  case detail(SyncUpsApp.ScreenID)
  case editForm(SyncUpsApp.ScreenID)
  case detailDialog(SyncUpsApp.ScreenID, Dialog<SyncUpDetail.DialogAction>)
  case record(SyncUpsApp.ScreenID)
  case recordDialog(SyncUpsApp.ScreenID, Dialog<RecordMeeting.DialogAction>)
  case meeting(SyncUpsApp.ScreenID)

  /// The place `state` shows on top.
  init(_ state: SyncUpsApp.State) {
    switch state.syncUps.status {
    case .loading, .movingAside:
      self = .loading
      return
    case .failed:
      self = .loadFailed
      return
    case .loaded:
      break
    }
    if state.addSheet != nil {
      self = .addForm
      return
    }
    guard let top = state.path.last else {
      self = .list
      return
    }
    switch top.screen {
    case .detail(let detail):
      switch detail.destination {
      case .edit?: self = .editForm(top.id)
      case .dialog(let dialog)?: self = .detailDialog(top.id, dialog)
      case nil: self = .detail(top.id)
      }
    case .record(let record):
      if let dialog = record.dialog {
        self = .recordDialog(top.id, dialog)
      } else {
        self = .record(top.id)
      }
    case .meeting:
      self = .meeting(top.id)
    }
  }

  /// The place, as a refusal names it.
  var name: String {
    switch self {
    case .loading: "the screen while the file loads"
    case .loadFailed: "the screen of a file that did not load"
    case .list: "the list"
    case .addForm, .editForm: "a form"
    case .detail: "a sync-up's screen"
    case .detailDialog, .recordDialog: "an alert"
    case .record: "a meeting"
    case .meeting: "a past meeting"
    }
  }
}
