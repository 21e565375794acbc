import DecisionsTesting
import TestSupport

/// A safe's keypad that opens when the last four digits typed are the owner's code, with a
/// planted bug: the factory code, 7 3 9 1, still opens it too.
enum Keypad: Core {
  struct State: Equatable, Sendable, Codable {
    /// The last four digits typed, oldest first.
    var lastDigits: [Int] = []
    /// Whether the safe is open.
    var isOpen = false
    /// Whether the keypad's light is on.
    var isLit = false
  }

  enum Event: Equatable, Sendable, Codable {
    /// A digit key was pressed.
    case digit(Int)
    /// The clear key was pressed: the digits typed are forgotten.
    case clear
    /// The door was closed.
    case close
    /// The light was switched on or off.
    case light(Bool)
  }

  enum Decision: Equatable, Sendable {
    /// Unlock the safe's door.
    case unlock
    /// Beep once.
    case beep
  }

  static let ownerCode = [2, 5, 8, 0]
  static let factoryCode = [7, 3, 9, 1]

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .digit(let digit):
      state.lastDigits = Array((state.lastDigits + [digit]).suffix(4))
      // The bug: the factory code should stop working once the owner has set a code.
      let opens = state.lastDigits == ownerCode || state.lastDigits == factoryCode
      guard opens && !state.isOpen else { return [] }
      state.isOpen = true
      return [.unlock]
    case .clear:
      state.lastDigits = []
      return [.beep]
    case .close:
      state.isOpen = false
      return []
    case .light(let isOn):
      state.isLit = isOn
      return []
    }
  }

  /// The rule the bug breaks: the safe opens only when the last four digits are the owner's code.
  static func opensOnlyOnTheOwnersCode(_ step: CoreStep<Keypad>) -> Bool {
    step.before.isOpen || !step.after.isOpen || step.after.lastDigits == ownerCode
  }

  /// A recording of `count` events, random but for a seed, with the factory code's four digits
  /// planted at random places in its second half.
  ///
  /// The random events are digits that are not in the factory code, clears, closes and the
  /// light; between the planted digits there are only closes and the light, which leave the
  /// digits typed alone.
  static func recording(count: Int = 1_000, seed: UInt64) -> [Event] {
    var random = SeededRandom(seed: seed)
    let otherDigits = [0, 2, 4, 5, 6, 8]
    var places: [Int] = []
    while places.count < factoryCode.count {
      let place = count / 2 + random.next(below: count / 2)
      if !places.contains(place) { places.append(place) }
    }
    places.sort()
    return (0..<count).map { index in
      if let needle = places.firstIndex(of: index) { return .digit(factoryCode[needle]) }
      let betweenNeedles = index > places[0] && index < places[places.count - 1]
      switch random.next(below: 10) {
      case 0: return .close
      case 1: return .light(random.next(below: 2) == 0)
      case 2 where !betweenNeedles: return .clear
      case _ where betweenNeedles: return .light(random.next(below: 2) == 0)
      default: return .digit(otherDigits[random.next(below: otherDigits.count)])
      }
    }
  }
}

/// The keypad run by a store, so that a flight recorder can record it in the field: its decisions
/// do nothing here.
extension Keypad: Feature {
  static func execute(_ decision: Decision, deps: Void, effects: Effects<Event>) {}
}

/// The keypad as it was before the bug: only the owner's code opens it.
///
/// Its steps stand for a recording made with an older version of the feature.
enum KeypadBeforeTheBug: Core {
  static func makeDecisions(event: Keypad.Event, state: inout Keypad.State) -> [Keypad.Decision] {
    var after = state
    let decisions = Keypad.makeDecisions(event: event, state: &after)
    if decisions == [.unlock] && after.lastDigits != Keypad.ownerCode {
      state.lastDigits = after.lastDigits
      return []
    }
    state = after
    return decisions
  }
}

/// A chat whose log should keep every message sent, with a planted bug: a message with "@@" in it
/// is dropped.
enum Chat: Core {
  struct State: Equatable, Sendable {
    /// How many messages were sent.
    var sent = 0
    /// The messages logged.
    var log: [String] = []
  }

  enum Event: Equatable, Sendable {
    /// A message was sent.
    case send(String)
  }

  static func makeDecisions(event: Event, state: inout State) -> [String] {
    switch event {
    case .send(let text):
      state.sent += 1
      guard !text.contains("@@") else { return [] }  // the bug
      state.log.append(text)
      return ["posted"]
    }
  }

  /// Simpler messages: the empty one, then each with one character fewer.
  static func simpler(_ event: Event) -> [Event] {
    guard case .send(let text) = event, !text.isEmpty else { return [] }
    let characters = Array(text)
    return [.send("")]
      + characters.indices.map { index in
        var shorter = characters
        shorter.remove(at: index)
        return .send(String(shorter))
      }
  }
}
