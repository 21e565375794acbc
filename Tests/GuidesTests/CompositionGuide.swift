// The example of Docs/Composition.md, compiled: a dashboard that embeds the tutorial's counter
// (always there), a second counter in a sheet (there only while the sheet is open), and a list of
// downloads (identified by id).

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

/// A screen with a counter, a counter in a sheet, and a list of downloads.
enum Dashboard: Feature {
  struct State: Equatable, Sendable {
    var counter = Counter.State()  // a plain child: always there
    @Presented var sheet: Counter.State?  // an optional child: there while the sheet is open
    var downloads: [Download.State] = []  // children identified by id
    var nextDownloadID = 1
  }

  enum Event: Equatable, Sendable {
    case counter(Counter.Event)
    case sheet(Counter.Event)
    case download(id: Int, Download.Event)
    case openSheet
    case closeSheet
    case addDownload
    case removeDownload(id: Int)
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

  /// The work scopes of the children that need one of their own.
  enum Scope: Hashable, Sendable {
    case sheet
    case download(Int)
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .counter(let event):
      return Counter.makeDecisions(event: event, state: &state.counter, embed: Decision.counter)

    case .sheet(let event):
      return Counter.makeDecisions(event: event, state: &state.sheet, embed: Decision.sheet)

    case .download(let id, let event):
      return Download.makeDecisions(
        event: event, id: id, in: &state.downloads, embed: Decision.download)

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
      return Download.makeDecisions(
        event: .start, id: id, in: &state.downloads, embed: Decision.download)

    case .removeDownload(let id):
      guard state.downloads.contains(where: { $0.id == id }) else { return [] }
      state.downloads.removeAll { $0.id == id }
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .counter(let decision):
      Counter.execute(decision, deps: deps.counter, effects: effects, embed: Event.counter)

    case .sheet(let decision):
      Counter.execute(
        decision, deps: deps.counter, effects: effects, scope: Scope.sheet, embed: Event.sheet)

    case .download(let id, let decision):
      Download.execute(
        decision, deps: deps.download(id), effects: effects, scope: Scope.download(id)
      ) { .download(id: id, $0) }
    }
  }

  /// The sheet's work lives while the sheet is open, each download's while it is in the list: the
  /// store cancels the work of a child that an event removed.
  static let childWork: [ChildWork<State>] = [
    .optional(Counter.self, state: \.$sheet, scope: Scope.sheet),
    .children(Download.self, in: \.downloads) { (scope: Scope) in
      if case .download(let id) = scope { id } else { nil }
    },
  ]
}
