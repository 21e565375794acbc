import Decisions
import Foundation
import Testing

/// Session ten's second attack pass on the day's promises.
///
/// Each test fails on the code it was written against, for the bug its comment names.
@Suite struct SessionTenAttack2Tests {
  /// A persisted state that the initializer takes and the store runs encodes, and is refused
  /// when decoded.
  ///
  /// Persisted.swift: `init(from:)` "refusing a quiet period below zero or over 100 years … which
  /// no app writes". Both initializers take any quiet period (a negative one saves at once, and
  /// 150 years sleeps like any other), and the synthesized `encode(to:)` writes it; only
  /// decoding refuses it. So a state a test or an app holds is written (in a flight recording, in
  /// a parent's saved state) and cannot be read back.
  @Test(arguments: [Duration.seconds(-1), .seconds(150 * 365 * 24 * 3600)])
  func aStateThatEncodesDecodes(quietPeriod: Duration) throws {
    let state = Persisted<Int>.State(1, status: .loaded, quietPeriod: quietPeriod)
    let data = try JSONEncoder().encode(state)
    let decoded = try JSONDecoder().decode(Persisted<Int>.State.self, from: data)
    #expect(decoded == state)
  }
}
