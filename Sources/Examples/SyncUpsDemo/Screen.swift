import Decisions
import ExampleSupport
import Foundation
import SyncUps

/// Shows the app as text: the screen on top, drawn again whenever what it shows changes.
///
/// Every title, name and transcript comes from the user or the file, so each has its control
/// characters escaped: nothing printed can act on the terminal.
final class Screen: Sendable {
  /// The lines on screen.
  private let shown = LockedValue<[String]>([])
  private let output: TextOutput
  private let fail: @Sendable (WriteFailure) -> Never

  /// Creates a screen that draws to `output`, and calls `fail` when drawing fails.
  init(output: TextOutput, fail: @escaping @Sendable (WriteFailure) -> Never) {
    self.output = output
    self.fail = fail
  }

  /// Shows `state`, if its lines differ from those on screen, or whatever they are when `always`.
  func show(_ state: SyncUpsApp.State, always: Bool = false) {
    let lines = Self.lines(for: state)
    let changed = shown.withLock { shown in
      defer { shown = lines }
      return shown != lines
    }
    guard changed || always else { return }
    do {
      try output.write(lines.joined(separator: "\n") + "\n")
    } catch {
      fail(error)
    }
  }

  /// The screen on top, as lines.
  static func lines(for state: SyncUpsApp.State) -> [String] {
    var lines: [String]
    switch Place(state) {
    case .loading:
      return ["== Sync-ups ==", "(loading)"]
    case .loadFailed:
      guard case .failed(let error) = state.syncUps.status else { return [] }
      return [
        "== Sync-ups ==",
        "The sync-ups could not be read: \(clean(String(describing: error)))",
        "retry: read the file again; start-over: start with none, keeping the file as a backup",
      ]
    case .list:
      lines = list(state)
    case .addForm:
      lines = form(state.addSheet, heading: "New sync-up")
    case .editForm(let id):
      guard case .detail(let detail) = state.path[id: id], case .edit(let edit) = detail.destination
      else { return [] }
      lines = form(edit, heading: "Edit \(clean(detail.syncUp.title))")
    case .detail(let id), .detailDialog(let id, _):
      guard case .detail(let detail) = state.path[id: id] else { return [] }
      lines = self.detail(detail.syncUp)
    case .record(let id), .recordDialog(let id, _):
      guard case .record(let record) = state.path[id: id] else { return [] }
      lines = self.record(record)
    case .meeting(let id):
      guard case .meeting(let meeting, let syncUp) = state.path[id: id] else { return [] }
      lines = [
        "== \(clean(syncUp.title)): meeting of \(date(meeting.date)) ==",
        meeting.transcript.isEmpty ? "(no transcript)" : clean(meeting.transcript),
      ]
    }
    switch Place(state) {
    case .detailDialog(_, let dialog): lines += self.dialog(dialog)
    case .recordDialog(_, let dialog): lines += self.dialog(dialog)
    default: break
    }
    if let error = state.syncUps.saveError {
      lines.append("(the last save failed: \(clean(String(describing: error))))")
    }
    return lines
  }

  private static func list(_ state: SyncUpsApp.State) -> [String] {
    var lines = ["== Sync-ups (\(state.syncUps.value.count)) =="]
    if state.syncUps.value.isEmpty { lines.append("(none yet: add makes one)") }
    for (index, syncUp) in state.syncUps.value.enumerated() {
      lines.append(
        "\(index + 1). \(title(syncUp)): \(minutes(syncUp.durationInSeconds)), "
          + "\(count(syncUp.attendees.count, "attendee")), \(syncUp.theme.name)")
    }
    if let backup = state.syncUps.backup {
      lines.append("(the file that did not load was kept at \(clean(backup.path)))")
    }
    return lines
  }

  private static func form(_ form: SyncUpForm.State?, heading: String) -> [String] {
    guard let form else { return [] }
    let syncUp = form.syncUp
    var lines = [
      "== \(heading) ==",
      "title: \(clean(syncUp.title).debugDescription)\(form.focus == .title ? " (editing)" : "")",
      "length: \(minutes(syncUp.durationInSeconds)), theme: \(syncUp.theme.name)",
      "attendees:",
    ]
    for (index, attendee) in syncUp.attendees.enumerated() {
      let editing = form.focus == .attendee(attendee.id) ? " (editing)" : ""
      lines.append("  \(index + 1). \(clean(attendee.name).debugDescription)\(editing)")
    }
    return lines
  }

  private static func detail(_ syncUp: SyncUp) -> [String] {
    var lines = [
      "== \(title(syncUp)) ==",
      "length: \(minutes(syncUp.durationInSeconds)), theme: \(syncUp.theme.name)",
      "attendees: " + syncUp.attendees.map { clean($0.name) }.joined(separator: ", "),
      syncUp.meetings.isEmpty ? "past meetings: none" : "past meetings:",
    ]
    for (index, meeting) in syncUp.meetings.enumerated() {
      lines.append("  \(index + 1). \(date(meeting.date))")
    }
    return lines
  }

  private static func record(_ record: RecordMeeting.State) -> [String] {
    let syncUp = record.syncUp
    let attendees = syncUp.attendees
    let speaker =
      attendees.indices.contains(record.speakerIndex)
      ? clean(attendees[record.speakerIndex].name) : "nobody"
    return [
      "== Meeting: \(title(syncUp)) ==",
      "\(clock(record.secondsElapsed)) elapsed, \(clock(record.secondsRemaining)) remaining",
      "speaker \(record.speakerIndex + 1) of \(attendees.count): \(speaker)",
      "transcript: " + (record.transcript.isEmpty ? "(none)" : clean(record.transcript)),
    ]
  }

  private static func dialog<Action>(_ dialog: Dialog<Action>) -> [String] {
    var lines = ["[alert] \(clean(dialog.title))"]
    if let message = dialog.message { lines.append(clean(message)) }
    for (index, button) in dialog.buttons.enumerated() {
      lines.append("  choose \(index + 1): \(clean(button.title))")
    }
    return lines
  }

  private static func title(_ syncUp: SyncUp) -> String {
    syncUp.title.isEmpty ? "Untitled" : clean(syncUp.title)
  }

  private static func clean(_ text: String) -> String {
    sanitizedForTerminal(text, keepingNewlines: false)
  }

  private static func count(_ number: Int, _ noun: String) -> String {
    number == 1 ? "1 \(noun)" : "\(number) \(noun)s"
  }

  private static func minutes(_ seconds: Int) -> String {
    seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds) s"
  }

  private static func clock(_ seconds: Int) -> String {
    let seconds = max(0, seconds)
    let minutes = String(seconds / 60)
    let rest = String(seconds % 60)
    return (minutes.count < 2 ? "0" + minutes : minutes) + ":"
      + (rest.count < 2 ? "0" + rest : rest)
  }

  private static func date(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    func two(_ number: Int?) -> String {
      let text = String(number ?? 0)
      return text.count < 2 ? "0" + text : text
    }
    return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) "
      + "\(two(parts.hour)):\(two(parts.minute)) UTC"
  }
}
