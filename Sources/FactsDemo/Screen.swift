import Decisions
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

  private let contents: Protected<Contents>
  /// Whether to redraw in place (a terminal) rather than print lines.
  let isInteractive: Bool

  /// Creates a screen showing `state`.
  init(state: FactFeature.State, isInteractive: Bool) {
    self.contents = Protected(Contents(state: state))
    self.isInteractive = isInteractive
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
      lines.append(contents.state.text.map { "  \($0)" } ?? "  (no fact yet)")
      lines.append("")
      lines.append(
        contents.state.isLoading
          ? "  \(spinner[contents.frame % spinner.count]) loading…"
          : "  [Enter] load a fact   [q] quit")
      lines.append(contents.snackbar.map { "  ▌\($0)" } ?? "")
      // Clear the screen, move home, draw.
      write("\u{1B}[2J\u{1B}[H" + lines.joined(separator: "\n") + "\n")
    } else {
      switch changed {
      case .state: write("state: \(Self.describe(contents.state))\n")
      case .snackbar: write("snackbar: \(contents.snackbar ?? "")\n")
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
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}

/// Where tracking and log lines go: standard error, or a file.
final class LogSink: Sendable {
  private let handle: FileHandle

  /// Opens the log: appends to `path`, creating it, or writes to standard error when nil.
  /// - Throws: When the file cannot be created or opened.
  init(path: String?) throws {
    guard let path else {
      handle = .standardError
      return
    }
    if !FileManager.default.fileExists(atPath: path) {
      guard FileManager.default.createFile(atPath: path, contents: nil) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
      }
    }
    handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    handle.seekToEndOfFile()
  }

  /// Writes one line.
  func write(_ line: String) {
    handle.write(Data((line + "\n").utf8))
  }
}
