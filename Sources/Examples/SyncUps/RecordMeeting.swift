import Decisions

/// The meeting screen: a timer that gives each attendee their share of the meeting, and a
/// transcript of what was said.
///
/// The core never dismisses the screen. When the meeting is over it sets ``State/ending``, from
/// then on ignores every event, and decides ``Decision/end(_:)``: alone, that stops the timer and
/// the transcription; embedded, it is the parent's request, which pops the screen (ending its
/// work) and, for ``Ending/save(transcript:)``, adds a meeting with an id and a date its own
/// executor makes.
public enum RecordMeeting: Feature {
  /// What the screen shows.
  public struct State: Hashable, Sendable, Codable {
    /// The sync-up being held: a copy, which this screen only reads.
    public var syncUp: SyncUp
    /// The seconds of the meeting that have passed, at most its duration.
    public var secondsElapsed: Int
    /// The attendee speaking: an index into the sync-up's attendees.
    public var speakerIndex: Int
    /// The transcript so far; empty without speech recognition.
    public var transcript: String
    /// The alert on show, if any: while one shows, the meeting's time stands still.
    public var dialog: Dialog<DialogAction>?
    /// How the meeting ended, once it has: nothing counts after it.
    public var ending: Ending?

    /// Creates the state of a meeting; by default one that has not started.
    public init(
      syncUp: SyncUp, secondsElapsed: Int = 0, speakerIndex: Int = 0, transcript: String = "",
      dialog: Dialog<DialogAction>? = nil, ending: Ending? = nil
    ) {
      self.syncUp = syncUp
      self.secondsElapsed = secondsElapsed
      self.speakerIndex = speakerIndex
      self.transcript = transcript
      self.dialog = dialog
      self.ending = ending
    }

    /// The seconds of the meeting still to go.
    public var secondsRemaining: Int {
      max(0, syncUp.durationInSeconds - secondsElapsed)
    }
  }

  /// How a meeting ended.
  public enum Ending: Hashable, Sendable, Codable {
    /// Keep the meeting, with this transcript.
    case save(transcript: String)
    /// Throw the meeting away.
    case discard
  }

  /// What a button of the screen's alerts does.
  public enum DialogAction: Hashable, Sendable, Codable {
    /// End the meeting and keep it.
    case saveAndEnd
    /// End the meeting and throw it away.
    case discard
  }

  /// Something that happened on the screen or to its work.
  public enum Event: Equatable, Sendable, Codable {
    /// The screen appeared: the meeting starts.
    case appeared
    /// A second passed on the meeting's timer.
    case timerTicked
    /// The user tapped the button that passes to the next speaker.
    case nextTapped
    /// The user tapped "End meeting".
    case endMeetingTapped
    /// The user answered the alert on show.
    case dialog(DialogResponse<DialogAction>)
    /// The speech authorisation, as it stood when the meeting started.
    case speechAuthorizationChecked(SpeechAuthorization)
    /// The user's answer when asked for speech authorisation.
    case speechAuthorizationAnswered(SpeechAuthorization)
    /// Speech recognition heard more: this is the whole transcript so far.
    case transcriptChanged(String)
    /// Speech recognition failed; no more transcript will come.
    case speechFailed
  }

  /// What the executor must do.
  public enum Decision: Equatable, Sendable {
    /// Send ``Event/timerTicked`` once per period, until stopped.
    case startTimer(every: Duration)
    /// Find out whether speech may be recognised; sends ``Event/speechAuthorizationChecked(_:)``.
    case checkSpeechAuthorization
    /// Ask the user to allow speech recognition; sends
    /// ``Event/speechAuthorizationAnswered(_:)``.
    case requestSpeechAuthorization
    /// Recognise speech, sending ``Event/transcriptChanged(_:)`` for each new transcript and
    /// ``Event/speechFailed`` if recognition fails.
    case transcribe
    /// The meeting is over: stop the timer and the speech work; a parent closes the screen.
    case end(Ending)
  }

  /// The timer's period: the meeting counts whole seconds.
  public static let tick = Duration.seconds(1)

  // MARK: - Alerts

  /// The alert that asks how to end the meeting; without "Discard" when the meeting is at its end.
  /// - Parameter discardable: Whether the meeting may be thrown away.
  /// - Returns: The alert.
  public static func endMeetingDialog(discardable: Bool) -> Dialog<DialogAction> {
    Dialog(
      title: "End meeting?",
      message: discardable
        ? "The meeting has time left. Save it as it is, throw it away, or carry on?"
        : "Everyone has spoken. Save the meeting, or carry on?",
      buttons: [.init("Save and end", action: .saveAndEnd)]
        + (discardable ? [.init("Discard", role: .destructive, action: .discard)] : [])
        + [.init("Resume", role: .cancel)])
  }

  /// The alert shown when speech recognition fails: the meeting goes on without a transcript.
  public static let speechFailedDialog = Dialog<DialogAction>(
    title: "Speech recognition failed",
    message: "The rest of the meeting will not be transcribed. Carry on, or throw it away?",
    buttons: [
      .init("Continue meeting", role: .cancel),
      .init("Discard meeting", role: .destructive, action: .discard),
    ])

  // MARK: - Core

  /// Decides what one event does to the meeting, and what must happen.
  public static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    // NB: once the meeting has ended, the parent pops the screen; until it does, nothing counts.
    guard state.ending == nil else { return [] }
    switch event {
    case .appeared:
      return [.startTimer(every: tick), .checkSpeechAuthorization]

    case .timerTicked:
      guard state.dialog == nil else { return [] }  // time stands still while an alert shows
      let duration = state.syncUp.durationInSeconds
      state.secondsElapsed = min(state.secondsElapsed + 1, duration)
      guard state.secondsElapsed < duration else {
        return state.end(.save(transcript: state.transcript))
      }
      state.speakerIndex = state.speaker(at: state.secondsElapsed)
      return []

    case .nextTapped:
      guard state.speakerIndex < state.syncUp.attendees.count - 1 else {
        state.dialog = endMeetingDialog(discardable: false)
        return []
      }
      state.speakerIndex += 1
      state.secondsElapsed = min(
        state.speakerIndex * state.syncUp.secondsPerAttendee, state.syncUp.durationInSeconds)
      return []

    case .endMeetingTapped:
      state.dialog = endMeetingDialog(discardable: true)
      return []

    case .dialog(let response):
      switch state.dialog.respond(to: response) {
      case .saveAndEnd:
        return state.end(.save(transcript: state.transcript))
      case .discard:
        return state.end(.discard)
      case nil:
        return []
      }

    case .speechAuthorizationChecked(.notDetermined):
      return [.requestSpeechAuthorization]

    case .speechAuthorizationChecked(.authorized), .speechAuthorizationAnswered(.authorized):
      return [.transcribe]

    case .speechAuthorizationChecked, .speechAuthorizationAnswered:
      return []  // not allowed: the meeting goes on without a transcript

    case .transcriptChanged(let transcript):
      state.transcript = transcript
      return []

    case .speechFailed:
      if !state.transcript.isEmpty {
        state.transcript += " ❌"
      }
      state.dialog = speechFailedDialog
      return []
    }
  }
}

extension RecordMeeting.State {
  /// Ends the meeting.
  fileprivate mutating func end(_ ending: RecordMeeting.Ending) -> [RecordMeeting.Decision] {
    self.ending = ending
    return [.end(ending)]
  }

  /// The attendee whose share holds second `seconds`, never past the last attendee.
  fileprivate func speaker(at seconds: Int) -> Int {
    min(seconds / syncUp.secondsPerAttendee, max(0, syncUp.attendees.count - 1))
  }
}

// MARK: - Executor

extension RecordMeeting {
  /// The capabilities the meeting screen needs.
  public struct Deps: Sendable {
    /// The clock the meeting's seconds pass on: `ContinuousClock()` in an app, a test clock in
    /// tests.
    public var clock: any Clock<Duration>
    /// Speech recognition, for the transcript.
    public var speech: SpeechRecognizer

    /// Creates deps from a clock and a speech recogniser.
    public init(clock: any Clock<Duration>, speech: SpeechRecognizer) {
      self.clock = clock
      self.speech = speech
    }
  }

  /// The key of the timer's work.
  static let timerID = "timer"
  /// The key of the speech work: checking, asking, then transcribing, one after another.
  static let speechID = "speech"

  /// Performs one decision through the deps.
  public static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .startTimer(let period):
      effects.timer(id: timerID, every: period, on: deps.clock, send: .timerTicked)
    case .checkSpeechAuthorization:
      effects.run(id: speechID) { send in
        await send(.speechAuthorizationChecked(await deps.speech.authorizationStatus()))
      }
    case .requestSpeechAuthorization:
      effects.run(id: speechID) { send in
        await send(.speechAuthorizationAnswered(await deps.speech.requestAuthorization()))
      }
    case .transcribe:
      effects.run(id: speechID) { send in
        for try await transcript in deps.speech.transcripts() {
          await send(.transcriptChanged(transcript))
        }
      } catch: { _ in
        .speechFailed
      }
    case .end:
      effects.cancel(id: timerID)
      effects.cancel(id: speechID)
    }
  }
}
