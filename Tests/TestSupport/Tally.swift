import Decisions

/// Counts events per sender and notes any that arrive out of the order each sender sent them in:
/// the feature of the ordering and stress tests.
public enum Tally: Feature {
  /// How many events arrived, and from each sender the sequence number expected next.
  public struct State: Equatable, Sendable {
    /// Every event processed.
    public var total = 0
    /// The sequence number each sender's next event should have.
    public var next: [Int: Int] = [:]
    /// How many events arrived out of their sender's order.
    public var outOfOrder = 0

    /// Creates an empty tally.
    public init() {}
  }

  /// The events of a tally.
  public enum Event: Equatable, Sendable {
    /// Event number `sequence` of sender `sender`, numbered from 0.
    case tick(sender: Int, sequence: Int)
  }

  /// A tally decides nothing.
  public typealias Decision = Never
  /// A tally needs no deps.
  public typealias Deps = Void

  /// Counts the event and checks its sender's order.
  public static func makeDecisions(event: Event, state: inout State) -> [Never] {
    switch event {
    case .tick(let sender, let sequence):
      state.total += 1
      if state.next[sender, default: 0] != sequence { state.outOfOrder += 1 }
      state.next[sender] = sequence + 1
      return []
    }
  }

  /// Never called: a tally decides nothing.
  public static func execute(_ decision: Never, deps: Void, effects: Effects<Event>) {}
}
