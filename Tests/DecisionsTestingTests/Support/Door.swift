import Decisions

/// A door with a lock and a bug: kicking a locked door jams it for good.
enum Door: Core {
  enum State: Hashable, Sendable {
    case closed
    case open
    case locked
    case jammed
  }

  enum Event: Equatable, Sendable {
    case open
    case close
    case lock
    case unlock
    case kick
  }

  enum Decision: Equatable, Sendable {
    case chime
    case log(String)
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch (event, state) {
    case (.open, .closed):
      state = .open
      return [.chime]
    case (.close, .open):
      state = .closed
      return []
    case (.lock, .closed):
      state = .locked
      return [.log("locked")]
    case (.unlock, .locked):
      state = .closed
      return [.log("unlocked")]
    case (.kick, .locked):
      state = .jammed
      return [.log("jammed")]
    default:
      return []
    }
  }

  static let allEvents: [Event] = [.open, .close, .lock, .unlock, .kick]
}

/// An odometer that counts without bound: its whole state space is infinite.
enum Odometer: Core {
  struct State: Hashable, Sendable {
    var count = 0
  }

  enum Event: Equatable, Sendable {
    case add
  }

  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    state.count += 1
    return []
  }
}

/// A core that is not pure: it reads and bumps a global counter.
enum Impure: Core {
  nonisolated(unsafe) static var calls = 0

  enum Event: Equatable, Sendable {
    case poke
  }

  static func makeDecisions(event: Event, state: inout Bool) -> [Int] {
    calls += 1
    state = true
    return [calls]
  }
}
