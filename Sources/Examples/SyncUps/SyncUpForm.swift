import Decisions
import Foundation

/// The form that creates or edits a sync-up: its title, length, theme and attendees.
///
/// A pure core: every change is a field's new value, and nothing is performed, so its ``Decision`` is
/// `Never`, and it writes no ``Deps`` and no executor: the library's defaults for a feature
/// without work. Its events keep two rules:
/// - **There is always an attendee.** A form for a sync-up without attendees starts with one
///   empty attendee, and deleting the last attendee puts an empty one in its place.
/// - **Focus names something on screen.** It is the title, an attendee that is in the form, or
///   nothing. Adding an attendee focuses it; deleting attendees focuses the one that took the
///   first deleted one's place, or the last one when the deleted ones were at the end, wherever
///   the focus was (as TCA's SyncUps does).
///
/// The core never makes ids: an event that adds an attendee carries its id, made by the shell.
///
/// When the form is confirmed, its parent saves ``SyncUp/droppingBlankAttendees()``, not the
/// sync-up as typed.
public enum SyncUpForm: Feature {
  /// The sync-up as edited so far, and which field has the keyboard.
  public struct State: Equatable, Sendable, Codable {
    /// The sync-up as edited so far.
    public var syncUp: SyncUp
    /// The field that has the keyboard, or `nil` when none has.
    public var focus: Field?

    /// Creates a form for `syncUp`, with one empty attendee with id `newAttendeeID` if it has none.
    ///
    /// A new sync-up has no attendees, and the form shows it with one row to type a name in;
    /// `newAttendeeID` is that row's id, made by the caller, and is not used when `syncUp` has
    /// attendees.
    /// - Parameters:
    ///   - syncUp: The sync-up to edit.
    ///   - newAttendeeID: The id of the attendee added when `syncUp` has none.
    ///   - focus: The field that has the keyboard at first; the title unless told.
    public init(syncUp: SyncUp, newAttendeeID: UUID, focus: Field? = .title) {
      self.syncUp = syncUp
      self.focus = focus
      if self.syncUp.attendees.isEmpty {
        self.syncUp.attendees.append(Attendee(id: newAttendeeID))
      }
    }

    /// The name of the attendee with `id`, or `""` when there is none: what a row's text field
    /// shows.
    ///
    /// A key path to it makes the row's binding:
    /// `store.binding(\.[attendeeName: id]) { .attendeeNameChanged(id: id, name: $0) }`.
    public subscript(attendeeName id: UUID) -> String {
      syncUp.attendees[id: id]?.name ?? ""
    }
  }

  /// A field of the form that can have the keyboard.
  public enum Field: Hashable, Sendable, Codable {
    /// The title.
    case title
    /// The name of the attendee with this id.
    case attendee(UUID)
  }

  /// Something the user did in the form.
  public enum Event: Equatable, Sendable, Codable {
    /// The title is now this text (the whole of it, as typed).
    case titleChanged(String)
    /// The meeting's length is now this many seconds; less than 1 is refused.
    case durationChanged(seconds: Int)
    /// The theme is now this one.
    case themeChanged(Theme)
    /// The attendee with `id` is now called `name`; a name for an attendee no longer in the form
    /// is dropped.
    case attendeeNameChanged(id: UUID, name: String)
    /// The keyboard moved to this field, or away from every field; a field of an attendee that is
    /// not in the form is refused.
    case focusChanged(Field?)
    /// The user asked for a new attendee: an empty one with id `newID` is added at the end and
    /// focused. An id already in the form is refused.
    case addAttendeeTapped(newID: UUID)
    /// The user deleted the attendees at these positions; offsets past the end are ignored.
    ///
    /// If no attendee is left, an empty one with id `replacementID` takes their place, so the
    /// shell sends a fresh id with every deletion, used only when the last attendee goes.
    case deleteAttendees(atOffsets: IndexSet, replacementID: UUID)
  }

  /// Nothing: the form only changes its state, so a parent embeds it with no decision case.
  public typealias Decision = Never

  /// Decides what one event does to the form.
  public static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .titleChanged(let title):
      state.syncUp.title = title

    case .durationChanged(let seconds):
      guard seconds >= 1 else { return [] }
      state.syncUp.durationInSeconds = seconds

    case .themeChanged(let theme):
      state.syncUp.theme = theme

    case .attendeeNameChanged(let id, let name):
      // NB: `update` returns nil for an id that is not in the form: a late write from a row
      // that was deleted.
      _ = state.syncUp.attendees.update(id: id) { $0.name = name }

    case .focusChanged(let focus):
      if case .attendee(let id) = focus, state.syncUp.attendees[id: id] == nil { return [] }
      state.focus = focus

    case .addAttendeeTapped(let id):
      guard state.syncUp.attendees[id: id] == nil else { return [] }
      state.syncUp.attendees.append(Attendee(id: id))
      state.focus = .attendee(id)

    case .deleteAttendees(let offsets, let replacementID):
      let attendees = state.syncUp.attendees
      let deleted = offsets.filter { attendees.indices.contains($0) }
      guard let first = deleted.first else { return [] }
      let ids = Set(deleted.map { attendees[$0].id })
      state.syncUp.attendees.removeAll { ids.contains($0.id) }
      if state.syncUp.attendees.isEmpty {
        state.syncUp.attendees.append(Attendee(id: replacementID))
      }
      let focused = min(first, state.syncUp.attendees.count - 1)
      state.focus = .attendee(state.syncUp.attendees[focused].id)
    }
    return []
  }

}

extension SyncUp {
  /// The sync-up to save when its form is confirmed: without the attendees whose names are blank.
  ///
  /// A name that is empty or only white space is blank. When every attendee's name is blank, the
  /// first attendee is kept as it is, so a sync-up that had attendees keeps one (as TCA's SyncUps
  /// does). A sync-up with no attendees at all stays without: the form always has one, so only a
  /// sync-up made by hand can.
  public func droppingBlankAttendees() -> SyncUp {
    var syncUp = self
    syncUp.attendees.removeAll { $0.name.allSatisfy(\.isWhitespace) }
    if syncUp.attendees.isEmpty, let first = attendees.first {
      syncUp.attendees.append(first)
    }
    return syncUp
  }
}
