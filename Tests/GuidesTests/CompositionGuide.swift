// The examples of Docs/Composition.md, compiled: a dashboard that embeds the tutorial's counter
// (always there), a second counter in a sheet (there only while the sheet is open), a list of
// downloads (identified by id) and a form with no work, each with one `embed` declaration.

import Decisions

/// One file being downloaded: a row of the dashboard.
enum Download: Feature {
  struct State: Equatable, Sendable, Identifiable {
    let id: Int
    var bytes: Int?
    var isDownloading = false
  }

  enum Event: Equatable, Sendable {
    case start
    case finished(bytes: Int)
    case failed(String)
  }

  enum Decision: Equatable, Sendable {
    case fetch(Int)
    case log(String)
  }

  struct Deps: Sendable {
    var fetch: @Sendable (_ id: Int) async throws -> Int
    var log: @Sendable (String) -> Void
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start:
      guard !state.isDownloading, state.bytes == nil else { return [] }
      state.isDownloading = true
      return [.fetch(state.id)]
    case .finished(let bytes):
      guard state.isDownloading else { return [] }
      state.isDownloading = false
      state.bytes = bytes
      return []
    case .failed(let reason):
      guard state.isDownloading else { return [] }
      state.isDownloading = false
      return [.log("failed: \(reason)")]
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .fetch(let id):
      effects.run(id: "fetch") { send in
        await send(.finished(bytes: try await deps.fetch(id)))
      } catch: { error in
        .failed("\(error)")
      }
    case .log(let text):
      deps.log(text)
    }
  }
}

/// A form that edits the dashboard's title: a core and no work, so its decisions are `Never`.
enum TitleForm: Feature {
  struct State: Equatable, Sendable {
    var title: String
  }

  enum Event: Equatable, Sendable {
    case titleChanged(String)
  }

  typealias Decision = Never

  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    switch event {
    case .titleChanged(let title):
      state.title = String(title.prefix(30))
      return []
    }
  }
}

/// A screen with a counter, a counter in a sheet, a list of downloads, and a form for its title.
enum Dashboard: Feature {
  struct State: Equatable, Sendable {
    var counter = Counter.State()  // a child that is always there
    @Presented var sheet: Counter.State?  // a presented child: there while the sheet is open
    var downloads: IdentifiedArray<Download.State> = []  // children identified by id
    var nextDownloadID = 1
    var title = "Dashboard"
    @Presented var titleForm: TitleForm.State?  // a child with a core and no work
  }

  enum Event: Equatable, Sendable {
    case counter(Counter.Event)
    case sheet(Counter.Event)
    case download(id: Int, Download.Event)
    case titleForm(TitleForm.Event)
    case openSheet
    case closeSheet
    case addDownload
    case removeDownload(id: Int)
    case editTitle
    case saveTitle
  }

  enum Decision: Equatable, Sendable {
    case counter(Counter.Decision)
    case sheet(Counter.Decision)
    case download(id: Int, Download.Decision)
  }

  struct Deps: Sendable {
    var loadFact: @Sendable (Int) async throws -> String
    var fetch: @Sendable (_ id: Int) async throws -> Int
    var log: @Sendable (String) -> Void

    /// The deps of both counters.
    var counter: Counter.Deps {
      Counter.Deps(loadFact: loadFact, log: log)
    }

    /// The deps of one download: its log lines say which download they are about.
    func download(_ id: Int) -> Download.Deps {
      Download.Deps(fetch: fetch, log: { [log] in log("download \(id): \($0)") })
    }
  }

  /// The counter: always there, its work in a scope of its own.
  static let counter = embed(
    Counter.self, state: \.counter, event: Event.counter, decision: Decision.counter)

  /// The downloads: each row's work lives while the row is in the list.
  static let downloads = embed(
    Download.self, list: \.downloads, event: Event.download, decision: Decision.download)

  /// The counter in the sheet: its work lives while the sheet is open.
  static let sheet = embed(
    Counter.self, presented: \.$sheet, event: Event.sheet, decision: Decision.sheet)

  /// The title form: no decisions, so no decision case, no executor arm and no `childWork` entry.
  static let titleForm = embed(TitleForm.self, presented: \.$titleForm, event: Event.titleForm)

  static let childWork = [counter.work, downloads.work, sheet.work]

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .counter(let event):
      return counter.makeDecisions(event: event, in: &state)

    case .sheet(let event):
      return sheet.makeDecisions(event: event, in: &state)

    case .download(let id, let event):
      return downloads.makeDecisions(event: event, id: id, in: &state)

    case .titleForm(let event):
      return titleForm.makeDecisions(event: event, in: &state)

    case .openSheet:
      guard state.sheet == nil else { return [] }
      state.sheet = Counter.State(count: state.counter.count)
      return []

    case .closeSheet:
      guard state.sheet != nil else { return [] }
      state.sheet = nil
      return []

    case .addDownload:
      let id = state.nextDownloadID
      state.nextDownloadID += 1
      state.downloads.append(Download.State(id: id))
      return downloads.makeDecisions(event: .start, id: id, in: &state)

    case .removeDownload(let id):
      state.downloads.remove(id: id)
      return []

    case .editTitle:
      state.titleForm = TitleForm.State(title: state.title)
      return []

    case .saveTitle:
      guard let form = titleForm.state(in: state) else { return [] }
      state.title = form.title
      state.titleForm = nil
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .counter(let decision):
      counter.execute(decision, deps: deps.counter, effects: effects)

    case .sheet(let decision):
      sheet.execute(decision, deps: deps.counter, effects: effects)

    case .download(let id, let decision):
      downloads.execute(decision, id: id, deps: deps.download(id), effects: effects)
    }
  }
}
