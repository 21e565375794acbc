import Decisions

/// A replayed run as one self-contained HTML page: a timeline of its events, and for each step
/// its event, its decisions and the diff of its state, to click or step through with the keyboard.
///
/// Make one from a flight recording, which the page replays through today's core, or from any
/// ``Replay``:
///
/// ```swift
/// let page = try recording.inspectorPage()
/// try page.write(to: URL(fileURLWithPath: "session.html"), atomically: true, encoding: .utf8)
/// ```
///
/// The page needs no network: its styles and its script are inline, and its content security
/// policy forbids loading anything else. Every recorded text (events, states, decisions, notes) is
/// escaped as HTML, so a payload such as `<script>` shows as text. Docs/Recording.md shows the
/// page and the `decisions-inspect` command that writes it.
public enum InspectorPage {
  /// How large a page may be: more steps or more bytes is an ``InspectorPageError``, not a page a
  /// browser chokes on.
  public struct Limits: Sendable, Hashable {
    /// The most steps a page shows.
    public var steps: Int
    /// The most bytes of UTF-8 a page may take.
    public var bytes: Int

    /// Creates limits; by default 100,000 steps and 64 MiB, the most a flight recording is read
    /// from.
    /// - Parameters:
    ///   - steps: The most steps a page shows.
    ///   - bytes: The most bytes a page may take.
    public init(steps: Int = 100_000, bytes: Int = 64 << 20) {
      self.steps = steps
      self.bytes = bytes
    }
  }
}
