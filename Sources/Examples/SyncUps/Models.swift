// The data of SyncUps: Apple's Scrumdinger, as Point-Free's TCA rebuilt it, rebuilt here.
//
// Ids and dates are plain values: the cores never make them. The shell (a view, the terminal app)
// or a dependency does, and hands them in with an event, so every test is deterministic.

import Decisions
import Foundation

/// A recurring meeting: who attends, how long it lasts, and the meetings held so far.
public struct SyncUp: Hashable, Identifiable, Codable, Sendable {
  /// The sync-up's id.
  public var id: UUID
  /// The attendees, in speaking order.
  public var attendees: IdentifiedArray<Attendee>
  /// How long a meeting lasts, in seconds.
  public var durationInSeconds: Int
  /// The meetings held, most recent first.
  public var meetings: IdentifiedArray<Meeting>
  /// The colour theme.
  public var theme: Theme
  /// The title.
  public var title: String

  /// Creates a sync-up.
  public init(
    id: UUID, attendees: IdentifiedArray<Attendee> = [], durationInSeconds: Int = 5 * 60,
    meetings: IdentifiedArray<Meeting> = [], theme: Theme = .bubblegum, title: String = ""
  ) {
    self.id = id
    self.attendees = attendees
    self.durationInSeconds = durationInSeconds
    self.meetings = meetings
    self.theme = theme
    self.title = title
  }

  /// Each attendee's share of the meeting, in whole seconds (at least 1).
  public var secondsPerAttendee: Int {
    max(1, durationInSeconds / max(1, attendees.count))
  }
}

/// Someone who attends a sync-up.
public struct Attendee: Hashable, Identifiable, Codable, Sendable {
  /// The attendee's id.
  public var id: UUID
  /// The attendee's name.
  public var name: String

  /// Creates an attendee.
  public init(id: UUID, name: String = "") {
    self.id = id
    self.name = name
  }
}

/// A meeting that was held, with what was said.
public struct Meeting: Hashable, Identifiable, Codable, Sendable {
  /// The meeting's id.
  public var id: UUID
  /// When it ended.
  public var date: Date
  /// What the speech recogniser heard.
  public var transcript: String

  /// Creates a meeting.
  public init(id: UUID, date: Date, transcript: String) {
    self.id = id
    self.date = date
    self.transcript = transcript
  }
}

/// A sync-up's colour theme.
public enum Theme: String, CaseIterable, Equatable, Codable, Sendable {
  case bubblegum, buttercup, indigo, lavender, magenta, navy, orange, oxblood, periwinkle, poppy
  case purple, seafoam, sky, tan, teal, yellow

  /// The theme's name, as shown.
  public var name: String { rawValue.capitalized }
}

extension UUID {
  /// A fixed id for tests and sample data: `UUID(0)` is `00000000-0000-0000-0000-000000000000`.
  public init(_ number: Int) {
    let digits = String(UInt64(truncatingIfNeeded: number), radix: 16)
    let padded = String(repeating: "0", count: 12 - min(12, digits.count)) + digits.suffix(12)
    self.init(uuidString: "00000000-0000-0000-0000-\(padded)")!
  }
}
