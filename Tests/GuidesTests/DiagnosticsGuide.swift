// The examples of Docs/Diagnostics.md, compiled.

import Decisions
import Synchronization

// MARK: - A logging hook

/// A diagnostics hook, for any feature, that writes a line per event, decision and problem.
func diagnosticLines<F: Feature & SendableMetatype>(
  of feature: F.Type, write: @escaping @Sendable (String) -> Void
) -> @Sendable (StoreDiagnostic<F>) -> Void {
  { diagnostic in
    switch diagnostic {
    case .received(let event):
      write("event: \(event)")
    case .state:
      break  // states can be large: log them when you need them
    case .decided(let decision):
      write("  decided: \(decision)")
    case .ignored(let event, let reason):
      write("ignored: \(event) (\(reason))")
    case .workFailed(let id, let error):
      write("work \(id.map { "\($0)" } ?? "without an id") failed: \(error)")
    default:
      break  // work started and finished: the decisions around them tell the story
    }
  }
}

// MARK: - Work without a catch: handler

/// Saves the draft after every edit; a failed save is worth a diagnostic, not an event.
enum Autosave: Feature {
  struct State: Equatable, Sendable {
    var draft = ""
  }

  enum Event: Equatable, Sendable {
    case edited(String)
  }

  enum Decision: Equatable, Sendable {
    case save(String)
  }

  struct Deps: Sendable {
    var save: @Sendable (String) async throws -> Void
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .edited(let text):
      state.draft = text
      return [.save(text)]
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .save(let text):
      // Latest wins: a new edit replaces a save in flight. Without `catch:`, an error is reported to
      // the diagnostics hook as `.workFailed`.
      effects.run(id: "save") { _ in try await deps.save(text) }
    }
  }
}

// MARK: - A bounded recording for apps

/// Keeps the last `limit` events a store processed and the state before the first of them: a
/// recording that replays to the store's state, however long the app has run.
final class RecentEvents<F: Feature>: Sendable {
  /// What replays the window: the state before its first event, and its events.
  struct Snapshot {
    var initialState: F.State
    var events: [F.Event]
  }

  private struct Window {
    var start: F.State
    var steps: [(event: F.Event, state: F.State)] = []
    var received: F.Event?
  }

  private let window: Mutex<Window>
  private let limit: Int

  init(initialState: F.State, limit: Int) {
    self.window = Mutex(Window(start: initialState))
    self.limit = limit
  }

  /// Records one diagnostic: pass this method as the store's diagnostics hook, or call it from one.
  @Sendable func record(_ diagnostic: StoreDiagnostic<F>) {
    window.withLock { window in
      switch diagnostic {
      case .received(let event):
        window.received = event
      case .state(let state):
        guard let event = window.received else { return }
        window.received = nil
        window.steps.append((event, state))
        if window.steps.count > limit {
          window.start = window.steps.removeFirst().state
        }
      default:
        break
      }
    }
  }

  /// The window, ready to encode or replay.
  var snapshot: Snapshot {
    window.withLock { Snapshot(initialState: $0.start, events: $0.steps.map(\.event)) }
  }
}

extension RecentEvents.Snapshot: Codable where F.State: Codable, F.Event: Codable {}
