import Decisions

/// A book's screen: it shows and edits the list's book, times the reading, and asks the list to
/// delete the book or to show its notes.
public enum BookDetail: Feature {
  public enum Action: Equatable, Sendable {
    case confirmDelete
  }

  public struct State: Equatable, Sendable {
    public var book: Book
    public var dialog: Dialog<Action>?
    public var isReading = false
  }

  public enum Event: Equatable, Sendable {
    case titleChanged(String)
    case noteAdded(String)
    case deleteTapped
    case dialog(DialogResponse<Action>)
    case notesTapped
    case readingToggled
    case minutePassed
  }

  /// What the screen asks of the list.
  public enum Request: Equatable, Sendable {
    case delete
    case openNotes
  }

  public enum Decision: Equatable, Sendable {
    case startTimer(every: Duration)
    case stopTimer
    case request(Request)
  }

  public struct Deps: Sendable {
    public var clock: any Clock<Duration>
  }

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
          .init("Delete", role: .destructive, action: .confirmDelete), .init("Cancel", role: .cancel),
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
  public struct State: Equatable, Sendable {
    public var title = ""
    public var author = ""
  }

  public enum Event: Equatable, Sendable {
    case titleChanged(String)
    case authorChanged(String)
  }

  public typealias Decision = Never

  public static func makeDecisions(event: Event, state: inout State) -> [Never] {
    switch event {
    case .titleChanged(let title): state.title = title
    case .authorChanged(let author): state.author = author
    }
    return []
  }
}
