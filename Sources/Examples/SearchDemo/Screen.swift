import ExampleSupport
import SearchFeature

/// Shows the search screen as text: one line per change of state, then the results.
///
/// Every query, result and reason comes from outside, so each line has its control characters
/// escaped: nothing that is printed can act on the terminal.
final class Screen: Sendable {
  /// The state on screen.
  private let shown: LockedValue<SearchFeature.State>
  private let output: TextOutput
  private let fail: @Sendable (WriteFailure) -> Never

  /// How many results are printed, at most; the rest are counted.
  static let resultLimit = 10

  /// Creates a screen showing `state`.
  /// - Parameters:
  ///   - state: The state to show first.
  ///   - output: Where to draw.
  ///   - fail: Called when drawing fails: reports and exits.
  init(
    state: SearchFeature.State, output: TextOutput,
    fail: @escaping @Sendable (WriteFailure) -> Never
  ) {
    self.shown = LockedValue(state)
    self.output = output
    self.fail = fail
    write(Self.lines(for: state))
  }

  /// Shows a new state, if it differs from the one on screen.
  func show(_ state: SearchFeature.State) {
    let changed = shown.withLock { shown in
      defer { shown = state }
      return shown != state
    }
    if changed { write(Self.lines(for: state)) }
  }

  /// A state as lines: `state: searching "pri"`, or `state: loaded "pri": 2 results` and the results.
  static func lines(for state: SearchFeature.State) -> [String] {
    let query = state.query.debugDescription
    switch state.phase {
    case .idle:
      return ["state: idle \(query)"]
    case .debouncing:
      return ["state: debouncing \(query)"]
    case .searching:
      return ["state: searching \(query)"]
    case .failed(let reason):
      return ["state: failed \(query): \(reason); :retry searches again"]
    case .loaded(let results):
      let count =
        switch results.count {
        case 0: "no results"
        case 1: "1 result"
        default: "\(results.count) results"
        }
      var lines = ["state: loaded \(query): \(count)"]
      lines += results.prefix(resultLimit).map { "result: \($0.debugDescription)" }
      if results.count > resultLimit {
        lines.append("result: (\(results.count - resultLimit) more)")
      }
      return lines
    }
  }

  private func write(_ lines: [String]) {
    // NB: `debugDescription` escapes C0 controls, not C1 ones such as U+009B (CSI).
    let text = lines.map { sanitizedForTerminal($0, keepingNewlines: false) + "\n" }.joined()
    do {
      try output.write(text)
    } catch {
      fail(error)
    }
  }
}
