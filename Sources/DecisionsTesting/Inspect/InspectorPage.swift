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
/// Given an ``Exploration``, the page draws its states and transitions too, with the states the
/// run visited highlighted and the run's path on them.
///
/// The page needs no network: its styles and its script are inline, and its content security
/// policy forbids loading anything else. Every recorded text (events, states, decisions, notes) is
/// escaped, as HTML in the header and as JSON without `<`, `>` or `&` in the steps' data, and the
/// script shows it only as text, so a payload such as `<script>` shows as text.
///
/// The page stays small and quick for long runs: it holds each distinct text once and a few
/// numbers per step, and its script draws only the chosen step and the timeline's rows in view,
/// so 100,000 steps of a small feature take a few megabytes and a click takes the same time as at
/// 10 steps. Docs/Recording.md shows the page and the `decisions-inspect` command that writes it.
public enum InspectorPage {
  /// How large a page may be: more steps or more bytes is an ``InspectorPageError``, not a page a
  /// browser chokes on; more explored states or arrows than a diagram can show leaves the diagram
  /// out.
  public struct Limits: Sendable, Hashable {
    /// The most steps a page shows.
    public var steps: Int
    /// The most bytes of UTF-8 a page may take.
    public var bytes: Int
    /// The most explored states a page draws as a diagram.
    ///
    /// An exploration with more is only listed, and the page says why its diagram is left out.
    public var diagramStates: Int
    /// The most arrows a page's diagram draws: its transitions between distinct pairs of states,
    /// and the moves of the run's path.
    ///
    /// With more, the exploration is only listed, and the page says why its diagram is left out.
    public var diagramEdges: Int

    /// Creates limits; by default 100,000 steps and 64 MiB, the most a flight recording is read
    /// from, and a diagram of at most 300 states and 1,500 arrows.
    /// - Parameters:
    ///   - steps: The most steps a page shows.
    ///   - bytes: The most bytes a page may take.
    ///   - diagramStates: The most explored states a page draws as a diagram.
    ///   - diagramEdges: The most arrows a page's diagram draws.
    public init(
      steps: Int = 100_000, bytes: Int = 64 << 20, diagramStates: Int = 300,
      diagramEdges: Int = 1_500
    ) {
      self.steps = steps
      self.bytes = bytes
      self.diagramStates = diagramStates
      self.diagramEdges = diagramEdges
    }
  }
}
