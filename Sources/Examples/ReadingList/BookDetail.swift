import Decisions

/// A book's screen: it shows and edits the list's book, times the reading, and asks the list to
/// delete the book or to show its notes.
public enum BookDetail: Feature {
  /// The actions of the screen's alert.
  public enum Action: Equatable, Sendable {
    /// Delete the book.
    case confirmDelete
  }

  /// The screen.
  public struct State: Equatable, Sendable {
    /// The list's book, kept in step with the list by the list's declaration.
    public var book: Book
    /// The alert on show.
    public var dialog: Dialog<Action>?
    /// Whether the reading timer runs.
    public var isReading = false
  }

  /// What the user did, and the timer's ticks.
  public enum Event: Equatable, Sendable {
    /// The title field changed.
    case titleChanged(String)
    /// The user added a note.
    case noteAdded(String)
    /// The user tapped "Delete".
    case deleteTapped
    /// The alert's answer.
    case dialog(DialogResponse<Action>)
    /// The user asked for the notes screen.
    case notesTapped
    /// The user started or stopped the reading timer.
    case readingToggled
    /// A minute of reading passed.
    case minutePassed
  }

  /// What the screen asks of the list.
  public enum Request: Equatable, Sendable {
    /// Delete the book, which closes the screen.
    case delete
    /// Push the notes screen.
    case openNotes
  }

  /// The screen's work, and its requests.
  public enum Decision: Equatable, Sendable {
    /// Send `.minutePassed` once per period.
    case startTimer(every: Duration)
    /// Stop the timer.
    case stopTimer
    /// Ask the list something; answered by the list's core.
    case request(Request)
  }

  /// What the screen's work needs.
  public struct Deps: Sendable {
    /// The timer's clock.
    public var clock: any Clock<Duration>
  }

  /// The screen's rules.
  public static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .titleChanged(let title):
      state.book.title = title
      return []
    case .noteAdded(let note):
      state.book.notes.append(note)
      return []
    case .deleteTapped:
      state.dialog = Dialog(
        title: "Delete “\(state.book.title)”?",
        buttons: [
          .init("Delete", role: .destructive, action: .confirmDelete),
          .init("Cancel", role: .cancel),
        ])
      return []
    case .dialog(let response):
      return state.dialog.respond(to: response) == .confirmDelete ? [.request(.delete)] : []
    case .notesTapped:
      return [.request(.openNotes)]
    case .readingToggled:
      state.isReading.toggle()
      return state.isReading ? [.startTimer(every: .seconds(60))] : [.stopTimer]
    case .minutePassed:
      state.book.minutesRead += 1
      return []
    }
  }

  /// Runs the timer.
  public static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .startTimer(let period):
      effects.timer(id: "reading", every: period, on: deps.clock, send: .minutePassed)
    case .stopTimer:
      effects.cancel(id: "reading")
    case .request:
      break  // answered by the list's core, never performed
    }
  }
}

/// The add sheet's form: fields and no work.
public enum AddBook: Feature {
  /// The fields.
  public struct State: Equatable, Sendable {
    /// The title field.
    public var title = ""
    /// The author field.
    public var author = ""
  }

  /// The fields' changes.
  public enum Event: Equatable, Sendable {
    /// The title field changed.
    case titleChanged(String)
    /// The author field changed.
    case authorChanged(String)
  }

  /// No work.
  public typealias Decision = Never

  /// Keeps the fields.
  public static func makeDecisions(event: Event, state: inout State) -> [Never] {
    switch event {
    case .titleChanged(let title): state.title = title
    case .authorChanged(let author): state.author = author
    }
    return []
  }
}
