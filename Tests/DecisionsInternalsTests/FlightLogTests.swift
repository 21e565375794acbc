import Testing

@testable import Decisions

/// The flight recorder's ring on its own, without a store: for every small capacity and interval,
/// after every number of events, the window is the last events from a checkpoint, and no more
/// than the ring's room is held.
@Suite struct FlightLogTests {
  @Test func everyWindowStartsAtACheckpointAndHoldsTheLastEvents() throws {
    for capacity in 1...6 {
      for interval in 1...6 {
        let log = FlightLog<Int, Int>(capacity: capacity, interval: interval)
        var state = 0  // the state is the number of events applied
        #expect(log.window() == nil)
        for event in 0..<40 {
          if log.record(event) { log.keepCheckpoint(&state) }
          state += 1
          let window = try #require(log.window())
          let context = "capacity \(capacity), interval \(interval), after \(state) events"
          #expect(window.eventsBefore % interval == 0, "\(context)")
          #expect(window.start == window.eventsBefore, "\(context)")
          #expect(window.events == Array(window.eventsBefore..<state), "\(context)")
          #expect(window.events.count >= min(state, capacity), "\(context)")
          #expect(window.events.count <= capacity + interval - 1, "\(context)")
          #expect(log.heldEvents <= capacity + interval - 1, "\(context)")
          #expect(log.heldCheckpoints <= (capacity + interval - 1) / interval + 2, "\(context)")
        }
      }
    }
  }

  /// The invariant reports a break once, when it breaks, and again only after it held.
  @Test func anInvariantBreaksOncePerBreak() {
    let log = FlightLog<Int, Int>(capacity: 2, interval: 1, invariant: { $0 < 3 })
    var breaks: [Int] = []
    for state in [0, 1, 3, 4, 5, 1, 7, 2, 9] {
      var state = state
      if log.invariantJustBroke(in: &state) { breaks.append(state) }
    }
    #expect(breaks == [3, 7, 9])
    #expect(log.checksInvariant)
    #expect(!FlightLog<Int, Int>(capacity: 1, interval: 1).checksInvariant)
  }

  /// Events and states the ring lets go of are released: a class instance recorded long ago is
  /// freed once the ring has moved past it.
  @Test func theRingLetsGoOfWhatFallsOut() {
    final class Token {}
    weak var oldest: Token?
    let log = FlightLog<Token, Token>(capacity: 2, interval: 2)
    do {
      let first = Token()
      oldest = first
      var state = first
      if log.record(first) { log.keepCheckpoint(&state) }
    }
    #expect(oldest != nil)
    for _ in 0..<10 {
      var state = Token()
      if log.record(Token()) { log.keepCheckpoint(&state) }
    }
    #expect(oldest == nil)
  }
}
