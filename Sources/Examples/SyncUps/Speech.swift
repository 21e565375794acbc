// Speech recognition as a dependency: the capabilities the meeting and detail screens need, as
// closures. The live recogniser (Apple's Speech framework) belongs to the app, which builds one of
// these from it; this file only defines the shape and a fake that needs no microphone.

import ExampleSupport

/// Whether the user lets the app recognise speech.
public enum SpeechAuthorization: Sendable, Equatable, Codable {
  /// The user has not been asked yet.
  case notDetermined
  /// The user said no.
  case denied
  /// The device does not allow it, whatever the user says.
  case restricted
  /// The user said yes.
  case authorized
}

/// The speech recognition a sync-up needs: asking for permission, and a running transcript.
public struct SpeechRecognizer: Sendable {
  /// Returns the authorisation as it stands, without asking the user.
  public var authorizationStatus: @Sendable () async -> SpeechAuthorization
  /// Asks the user for authorisation, and returns their answer.
  public var requestAuthorization: @Sendable () async -> SpeechAuthorization
  /// Starts recognising speech: each element is the whole transcript so far, and the stream throws
  /// when recognition fails.
  public var transcripts: @Sendable () -> AsyncThrowingStream<String, any Error>

  /// Creates a speech recogniser from its three capabilities.
  public init(
    authorizationStatus: @escaping @Sendable () async -> SpeechAuthorization,
    requestAuthorization: @escaping @Sendable () async -> SpeechAuthorization,
    transcripts: @escaping @Sendable () -> AsyncThrowingStream<String, any Error>
  ) {
    self.authorizationStatus = authorizationStatus
    self.requestAuthorization = requestAuthorization
    self.transcripts = transcripts
  }
}

/// What a fake recogniser throws when it was told to fail.
public struct SpeechRecognitionFailed: Error, Equatable, CustomStringConvertible {
  /// Creates the error.
  public init() {}

  /// A short description, for logs.
  public var description: String { "speech recognition failed" }
}

extension SpeechRecognizer {
  /// A recogniser that hears the given lines, one per period on `clock`, and is authorised.
  ///
  /// Each transcript is the lines heard so far, joined by spaces, as a live recogniser reports the
  /// whole transcript each time. After the last line the stream ends, or, with `failing`, throws
  /// ``SpeechRecognitionFailed`` one period later. The terminal app's `--speech` option uses it;
  /// on a `TestClock`, each line comes when the test advances the clock.
  /// - Parameters:
  ///   - lines: What is said, in order.
  ///   - period: How long each line takes to say.
  ///   - clock: The clock the periods pass on: the meeting's clock.
  ///   - failing: Whether recognition fails after the last line.
  /// - Returns: A recogniser whose status is `.authorized` and that never asks.
  public static func fake(
    lines: [String], every period: Duration, on clock: any Clock<Duration>, failing: Bool = false
  ) -> Self {
    Self(
      authorizationStatus: { .authorized },
      requestAuthorization: { .authorized },
      transcripts: {
        let heard = LockedValue(0)
        // NB: `unfolding` runs each wait in the task that reads the stream, so cancelling that
        // task ends the wait, and a test clock counts the wait as that work's.
        return AsyncThrowingStream(unfolding: {
          let count = heard.withLock { $0 }
          guard count < lines.count || failing else { return nil }
          try await clock.sleep(for: period)
          guard count < lines.count else { throw SpeechRecognitionFailed() }
          heard.withLock { $0 = count + 1 }
          return lines.prefix(count + 1).joined(separator: " ")
        })
      })
  }
}
