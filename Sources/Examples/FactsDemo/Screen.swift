import Decisions
import ExampleSupport
import FactFeature
import Foundation

/// Shows the fact screen in a terminal: redrawn in place with a spinner on a terminal, or as one line
/// per change when the output is a pipe or a file (scripted runs, tests, CI).
final class Screen: Sendable {
  private struct Contents {
    var state: FactFeature.State
    var snackbar: String?
    var frame = 0
  }

  private let contents: LockedValue<Contents>
  /// Whether to redraw in place (a terminal) rather than print lines.
  let isInteractive: Bool
  private let output: TextOutput
  private let fail: @Sendable (WriteFailure) -> Never

  /// Creates a screen showing `state`.
  /// - Parameters:
  ///   - state: The state to show first.
  ///   - isInteractive: Whether to redraw in place rather than print lines.
  ///   - output: Where to draw.
  ///   - fail: Called when drawing fails: reports and exits.
  init(
    state: FactFeature.State, isInteractive: Bool, output: TextOutput,
    fail: @escaping @Sendable (WriteFailure) -> Never
  ) {
    self.contents = LockedValue(Contents(state: state))
    self.isInteractive = isInteractive
    self.output = output
    self.fail = fail
    draw(Contents(state: state), changed: .state)
  }

  private enum Change {
    case state
    case snackbar
    case frame
  }

  /// Shows a new state; the snackbar goes away when a new load starts.
  func show(_ state: FactFeature.State) {
    let contents = self.contents.withLock { contents -> Contents? in
      guard contents.state != state else { return nil }
      if state.isLoading { contents.snackbar = nil }
      contents.state = state
      return contents
    }
    if let contents { draw(contents, changed: .state) }
  }

  /// Shows a snackbar.
  func showSnackbar(_ text: String) {
    let contents = self.contents.withLock { contents in
      contents.snackbar = text
      return contents
    }
    draw(contents, changed: .snackbar)
  }

  /// Advances the spinner, if a load is in flight.
  func tick() {
    let contents = self.contents.withLock { contents -> Contents? in
      guard contents.state.isLoading else { return nil }
      contents.frame += 1
      return contents
    }
    if let contents { draw(contents, changed: .frame) }
  }

  private func draw(_ contents: Contents, changed: Change) {
    if isInteractive {
      let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
      var lines = ["Decisions · number facts", ""]
      // NB: the fact comes from outside: its control characters must not act on the terminal.
      lines.append(contents.state.text.map { "  \(sanitizedForTerminal($0))" } ?? "  (no fact yet)")
      lines.append("")
      lines.append(
        contents.state.isLoading
          ? "  \(spinner[contents.frame % spinner.count]) loading…"
          : "  [Enter] load a fact   [q] quit")
      lines.append(contents.snackbar.map { "  ▌\(sanitizedForTerminal($0))" } ?? "")
      // Clear the screen, move home, draw.
      write("\u{1B}[2J\u{1B}[H" + lines.joined(separator: "\n") + "\n")
    } else {
      switch changed {
      case .state:
        // NB: `debugDescription` escapes C0 controls, not C1 ones such as U+009B (CSI).
        write("state: \(sanitizedForTerminal(Self.describe(contents.state)))\n")
      case .snackbar:
        write(
          "snackbar: \(sanitizedForTerminal(contents.snackbar ?? "", keepingNewlines: false))\n")
      case .frame: break
      }
    }
  }

  /// A state as one line: `idle`, `loading`, `loading (showing "…")`, `loaded "…"`.
  static func describe(_ state: FactFeature.State) -> String {
    switch state {
    case .idle: "idle"
    case .loading(nil): "loading"
    case .loading(let previous?): "loading (showing \(previous.debugDescription))"
    case .loaded(let text): "loaded \(text.debugDescription)"
    }
  }

  private func write(_ text: String) {
    do {
      try output.write(text)
    } catch {
      fail(error)
    }
  }
}

/// Where tracking and log lines go: standard error, or a file.
final class LogSink: Sendable {
  /// Where the lines go.
  let output: TextOutput
  private let fail: @Sendable (WriteFailure) -> Never

  /// Opens the log: appends to `path`, creating it, or writes to `standardError` when nil.
  /// - Parameters:
  ///   - path: The log file, or nil for `standardError`.
  ///   - standardError: Standard error.
  ///   - fail: Called when writing fails: reports and exits.
  /// - Throws: ``WriteFailure`` when the file cannot be created or opened.
  init(
    path: String?, standardError: TextOutput, fail: @escaping @Sendable (WriteFailure) -> Never
  ) throws(WriteFailure) {
    output =
      try path.map { path throws(WriteFailure) in
        try TextOutput.appending(toFile: path, name: "the log \(path)")
      } ?? standardError
    self.fail = fail
  }

  /// Writes one line; control characters and newlines in it are escaped, so it stays one line.
  func write(_ line: String) {
    do {
      try output.write(sanitizedForTerminal(line, keepingNewlines: false) + "\n")
    } catch {
      fail(error)
    }
  }
}
