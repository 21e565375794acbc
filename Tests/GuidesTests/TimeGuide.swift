// The examples of Docs/Time.md, compiled. Their tests are in TimeGuideTests.swift.

import DecisionsTesting
import Foundation

// MARK: - Debounce: search once typing pauses

/// Searches cities as the user types, once the query has not changed for 300 ms.
enum CitySearch: Feature {
  struct State: Equatable, Sendable {
    var query = ""
    var results: [String] = []
  }

  enum Event: Equatable, Sendable {
    /// The user changed the query.
    case queryChanged(String)
    /// The search for a query found these cities.
    case found(String, results: [String])
  }

  enum Decision: Equatable, Sendable {
    /// Search for the query once it has not changed for the quiet period; replaces a pending search.
    case search(String, after: Duration)
    /// Drop the pending or running search.
    case cancelSearch
  }

  struct Deps: Sendable {
    var clock: any Clock<Duration>
    var search: @Sendable (String) async throws -> [String]
  }

  /// How long the query must stay the same before it is searched.
  static let quietPeriod = Duration.milliseconds(300)

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .queryChanged(let query):
      state.query = query
      guard !query.isEmpty else {
        state.results = []
        return [.cancelSearch]
      }
      return [.search(query, after: quietPeriod)]
    case .found(_, let results):
      state.results = results
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .search(let query, let quietPeriod):
      // NB: the wait and the search are one piece of work, so a newer query cancels both.
      effects.run(id: "search") { send in
        try await deps.clock.sleep(for: quietPeriod)
        await send(.found(query, results: try await deps.search(query)))
      }
    case .cancelSearch:
      effects.cancel(id: "search")
    }
  }
}

extension CitySearch.Deps {
  /// The app's deps: the real clock and the app's search.
  static func live(search: @escaping @Sendable (String) async throws -> [String]) -> Self {
    Self(clock: ContinuousClock(), search: search)
  }
}

// MARK: - Throttle: at most one report per second

/// Reports the scroll offset at most once a second: the first offset at once (leading), and the
/// last offset of each second when the second ends (trailing).
enum ScrollReporter: Feature {
  struct State: Equatable, Sendable {
    /// Whether a report went out less than an interval ago.
    var isThrottling = false
    /// The latest offset not yet reported, sent when the interval ends.
    var pending: Int?
  }

  enum Event: Equatable, Sendable {
    /// The user scrolled.
    case scrolled(to: Int)
    /// An interval since the last report has passed.
    case intervalEnded
  }

  enum Decision: Equatable, Sendable {
    /// Report the offset.
    case report(Int)
    /// Send `.intervalEnded` after the duration.
    case wait(Duration)
  }

  struct Deps: Sendable {
    var clock: any Clock<Duration>
    var report: @Sendable (Int) -> Void
  }

  /// The shortest time between two reports.
  static let interval = Duration.seconds(1)

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .scrolled(let offset):
      guard !state.isThrottling else {
        state.pending = offset  // trailing: the last offset of the interval wins
        return []
      }
      state.isThrottling = true
      return [.report(offset), .wait(interval)]  // leading: the first offset goes at once
    case .intervalEnded:
      guard let offset = state.pending else {
        state.isThrottling = false
        return []
      }
      state.pending = nil
      return [.report(offset), .wait(interval)]
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .report(let offset):
      deps.report(offset)
    case .wait(let interval):
      effects.run(id: "interval") { send in
        try await deps.clock.sleep(for: interval)
        await send(.intervalEnded)
      }
    }
  }
}

// MARK: - A repeating timer: stops on pause and when the screen goes away

/// Counts seconds while it runs: pause stops it, and so does leaving the screen.
enum Stopwatch: Feature {
  struct State: Equatable, Sendable {
    var seconds = 0
    var isRunning = false
  }

  enum Event: Equatable, Sendable {
    /// The user tapped start.
    case startTapped
    /// The user tapped pause.
    case pauseTapped
    /// A second passed while running.
    case ticked
    /// The screen went away.
    case disappeared
  }

  enum Decision: Equatable, Sendable {
    /// Send `.ticked` once per period until stopped.
    case tick(every: Duration)
    /// Stop ticking.
    case stopTicking
    /// Cancel all of the screen's work.
    case cancelAll
  }

  struct Deps: Sendable {
    var clock: any Clock<Duration>
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .startTapped:
      guard !state.isRunning else { return [] }
      state.isRunning = true
      return [.tick(every: .seconds(1))]
    case .pauseTapped:
      guard state.isRunning else { return [] }
      state.isRunning = false
      return [.stopTicking]
    case .ticked:
      state.seconds += 1
      return []
    case .disappeared:
      state.isRunning = false
      return [.cancelAll]
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .tick(let period):
      effects.timer(id: "tick", every: period, on: deps.clock, send: .ticked)
    case .stopTicking:
      effects.cancel(id: "tick")
    case .cancelAll:
      effects.cancelAll()
    }
  }
}

// MARK: - A timeout around a load

/// Loads a profile, and gives up if it takes longer than 10 seconds.
enum ProfileLoader: Feature {
  enum State: Equatable, Sendable {
    case idle
    case loading
    case loaded(String)
    case failed(String)
    case timedOut
  }

  enum Event: Equatable, Sendable {
    /// The user asked for the profile.
    case loadTapped
    /// The load finished.
    case loaded(String)
    /// The load failed.
    case failed(String)
    /// The timeout passed before the load finished.
    case timedOut
  }

  enum Decision: Equatable, Sendable {
    /// Load the profile.
    case load
    /// Send `.timedOut` after the duration.
    case startTimeout(Duration)
    /// Cancel the load.
    case cancelLoad
    /// Cancel the timeout.
    case cancelTimeout
  }

  struct Deps: Sendable {
    var clock: any Clock<Duration>
    var load: @Sendable () async throws -> String
  }

  /// How long a load may take.
  static let timeout = Duration.seconds(10)

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch (event, state) {
    case (.loadTapped, .loading):
      return []
    case (.loadTapped, _):
      state = .loading
      return [.load, .startTimeout(timeout)]
    case (.loaded(let profile), .loading):
      state = .loaded(profile)
      return [.cancelTimeout]
    case (.failed(let reason), .loading):
      state = .failed(reason)
      return [.cancelTimeout]
    case (.timedOut, .loading):
      state = .timedOut
      return [.cancelLoad]
    case (.loaded, _), (.failed, _), (.timedOut, _):
      return []  // the other side of the race came first
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load:
      effects.run(id: "load") { send in
        await send(.loaded(try await deps.load()))
      } catch: { error in
        .failed("\(error)")
      }
    case .startTimeout(let timeout):
      effects.run(id: "timeout") { send in
        try await deps.clock.sleep(for: timeout)
        await send(.timedOut)
      }
    case .cancelLoad:
      effects.cancel(id: "load")
    case .cancelTimeout:
      effects.cancel(id: "timeout")
    }
  }
}

// MARK: - Retry with exponential backoff and jitter

/// Loads a quote, and retries a failed load up to three times, waiting longer before each retry.
enum QuoteLoader: Feature {
  enum State: Equatable, Sendable {
    case idle
    case loading(attempt: Int)
    case waitingToRetry(attempt: Int)
    case loaded(String)
    case failed(String)
  }

  enum Event: Equatable, Sendable {
    /// The user asked for a quote.
    case loadTapped
    /// The load finished.
    case loaded(String)
    /// The load failed; `jitter`, drawn from 0...1 by the executor, places the retry's delay.
    case failed(String, jitter: Double)
    /// The wait before a retry is over.
    case retryDelayEnded
  }

  enum Decision: Equatable, Sendable {
    /// Load the quote.
    case load
    /// Send `.retryDelayEnded` after the delay.
    case wait(Duration)
  }

  struct Deps: Sendable {
    var clock: any Clock<Duration>
    var random: @Sendable (ClosedRange<Double>) -> Double
    var load: @Sendable () async throws -> String
  }

  /// How many loads to try in all: the first and three retries.
  static let maximumAttempts = 4
  /// The longest wait before the first retry.
  static let baseDelay = Duration.seconds(1)
  /// The longest wait before any retry.
  static let maximumDelay = Duration.seconds(30)

  /// The wait before the retry that follows a failed attempt: between half and all of
  /// `baseDelay × 2^(attempt − 1)`, capped at `maximumDelay`, placed by `jitter` (0...1).
  static func retryDelay(afterAttempt attempt: Int, jitter: Double) -> Duration {
    let ceiling = min(baseDelay * (1 << (attempt - 1)), maximumDelay)
    return ceiling * (0.5 + jitter / 2)
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch (event, state) {
    case (.loadTapped, .loading), (.loadTapped, .waitingToRetry):
      return []
    case (.loadTapped, _):
      state = .loading(attempt: 1)
      return [.load]
    case (.loaded(let quote), .loading):
      state = .loaded(quote)
      return []
    case (.failed(let reason, _), .loading(let attempt)) where attempt >= maximumAttempts:
      state = .failed(reason)
      return []
    case (.failed(_, let jitter), .loading(let attempt)):
      state = .waitingToRetry(attempt: attempt + 1)
      return [.wait(retryDelay(afterAttempt: attempt, jitter: jitter))]
    case (.retryDelayEnded, .waitingToRetry(let attempt)):
      state = .loading(attempt: attempt)
      return [.load]
    case (.loaded, _), (.failed, _), (.retryDelayEnded, _):
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load:
      effects.run(id: "load") { send in
        await send(.loaded(try await deps.load()))
      } catch: { error in
        .failed("\(error)", jitter: deps.random(0...1))
      }
    case .wait(let delay):
      effects.run(id: "retry") { send in
        try await deps.clock.sleep(for: delay)
        await send(.retryDelayEnded)
      }
    }
  }
}

extension QuoteLoader.Deps {
  /// The app's deps: the real clock, the system's random numbers and the app's load.
  static func live(load: @escaping @Sendable () async throws -> String) -> Self {
    Self(clock: ContinuousClock(), random: { Double.random(in: $0) }, load: load)
  }
}

// MARK: - Now, for timestamps

/// Saves a draft once editing pauses for a second, and shows when it was last saved.
enum Draft: Feature {
  struct State: Equatable, Sendable {
    var text = ""
    /// The text as last saved.
    var savedText = ""
    var savedAt: Date?
  }

  enum Event: Equatable, Sendable {
    /// The user edited the text.
    case edited(String)
    /// The text was saved at a time.
    case saved(String, at: Date)
  }

  enum Decision: Equatable, Sendable {
    /// Save the text once it has not changed for the delay; replaces a pending save.
    case save(String, after: Duration)
  }

  struct Deps: Sendable {
    var clock: any Clock<Duration>
    var now: @Sendable () -> Date
    var save: @Sendable (String) async throws -> Void
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .edited(let text):
      state.text = text
      return [.save(text, after: .seconds(1))]
    case .saved(let text, let date):
      state.savedText = text
      state.savedAt = date
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .save(let text, let delay):
      effects.run(id: "save") { send in
        try await deps.clock.sleep(for: delay)
        try await deps.save(text)
        await send(.saved(text, at: deps.now()))
      }
    }
  }
}

extension Draft.Deps {
  /// The app's deps: the real clock, the system's time and the app's save.
  static func live(save: @escaping @Sendable (String) async throws -> Void) -> Self {
    Self(clock: ContinuousClock(), now: { Date() }, save: save)
  }
}
