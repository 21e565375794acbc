// The feature of "The whole story, on one real bug" in Docs/Recording.md, compiled; the story
// itself is told, step by step, in RecordingStoryTests.swift.
//
// `MeetingClock` is the shape of SyncUps' meeting screen (Sources/Examples/SyncUps/
// RecordMeeting.swift) cut down to its timer, with TCA's rule for passing to the next speaker
// planted in it. `FixedMeetingClock` is the same clock with the rule RecordMeeting uses, which
// clamps the speaker to the last attendee.

import Decisions
import Synchronization

/// A meeting's clock with TCA's rule planted: each attendee gets an equal share of the meeting, and
/// the speaker passes to the next one at every multiple of the share.
///
/// The share is the meeting's duration divided by the attendees, rounded down: 42 seconds for 300
/// seconds and 7 attendees. At 294 seconds, 7 shares, the speaker becomes attendee 7, one past the
/// last. TCA's tick also ends the meeting at a multiple of the share that is its last second; the
/// copy leaves the ending out.
enum MeetingClock: Feature {
  /// What the meeting's screen shows.
  struct State: Equatable, Sendable, Codable {
    /// How many people attend the meeting; at least one.
    var attendees: Int
    /// How long the meeting lasts, in seconds.
    var duration: Int
    /// The seconds of the meeting that have passed.
    var seconds = 0
    /// The attendee speaking: an index into the attendees, counting from 0.
    var speaker = 0
  }

  /// Something that happened to the meeting.
  enum Event: Equatable, Sendable, Codable {
    /// A second passed on the meeting's timer.
    case timerTicked
    /// The user tapped the button that passes to the next speaker.
    case nextTapped
  }

  typealias Decision = Never

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .timerTicked:
      state.seconds += 1
      // The bug, as in TCA's SyncUps: nothing stops the speaker at the last attendee.
      if state.seconds.isMultiple(of: state.secondsPerAttendee) {
        state.speaker += 1
      }
      return []
    case .nextTapped:
      state.passToTheNextSpeaker()
      return []
    }
  }
}

/// The meeting's clock with the rule SyncUps' `RecordMeeting` uses: the speaker is the attendee
/// whose share holds the current second, never past the last attendee.
enum FixedMeetingClock: Feature {
  typealias State = MeetingClock.State
  typealias Event = MeetingClock.Event
  typealias Decision = Never

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .timerTicked:
      state.seconds = min(state.seconds + 1, state.duration)
      state.speaker = min(state.seconds / state.secondsPerAttendee, state.attendees - 1)
      return []
    case .nextTapped:
      state.passToTheNextSpeaker()
      return []
    }
  }
}

extension MeetingClock.State {
  /// Each attendee's share of the meeting, in whole seconds: at least one.
  var secondsPerAttendee: Int {
    max(1, duration / max(1, attendees))
  }

  /// Passes to the next speaker, at the start of their share; nothing after the last attendee.
  ///
  /// Both clocks do this, as TCA and RecordMeeting do; at the last attendee, the real screens ask
  /// whether to end the meeting.
  mutating func passToTheNextSpeaker() {
    guard speaker < attendees - 1 else { return }
    speaker += 1
    seconds = speaker * secondsPerAttendee
  }
}

extension MeetingClock {
  /// The rule the app's flight recorder checks, and the shrinker keeps broken: written once.
  static let speakerIsAnAttendee = FlightRecorder<MeetingClock>.Invariant(
    "the speaker is an attendee"
  ) { $0.speaker < $0.attendees }

  /// A meeting of 300 seconds for 7 attendees, as it went: each attendee speaks for a while, and
  /// someone taps "next" when they are done, unless their share runs out first.
  ///
  /// The last attendee speaks for a minute, past 294 seconds.
  static let session: [Event] =
    ticks(35) + [.nextTapped]  // attendee 0 finishes early
    + ticks(50) + [.nextTapped]  // 1 runs over, the clock passes to 2, who is brief
    + ticks(20) + [.nextTapped]  // 3
    + ticks(42) + ticks(30) + [.nextTapped]  // 4 speaks a whole share, 5 a part of one
    + ticks(60)  // 6, the last, speaks for a minute

  /// `count` seconds of the meeting's timer.
  static func ticks(_ count: Int) -> [Event] {
    Array(repeating: .timerTicked, count: count)
  }
}

/// Where the app keeps the recordings its store saves.
final class SavedRecordings: Sendable {
  private let recordings = Mutex<[FlightRecording<MeetingClock>]>([])

  /// Keeps a recording.
  func keep(_ recording: FlightRecording<MeetingClock>) {
    recordings.withLock { $0.append(recording) }
  }

  /// The recordings kept, oldest first.
  var all: [FlightRecording<MeetingClock>] { recordings.withLock { $0 } }
}
