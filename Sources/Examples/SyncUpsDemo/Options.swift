import ExampleSupport
import Foundation
import SyncUps

/// The app's command-line options.
struct Options: Equatable {
  /// Run these commands instead of reading standard input, on a scripted clock.
  var script: [Command]?
  /// The file the sync-ups are kept in.
  var data: URL?
  /// What the fake speech recogniser hears in a meeting, one word a second.
  var speech: String?
  /// Whether speech recognition is allowed.
  var speechAccess: SpeechAuthorization?
  /// Write the session's flight recording to this file when the app ends.
  var record: String?
  /// Print the usage and exit.
  var help = false

  /// Where the sync-ups are kept unless `--data` says: the user's application support folder.
  static var defaultData: URL {
    let support =
      FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
      ?? URL(fileURLWithPath: NSHomeDirectory()).appending(path: ".local/share")
    return support.appending(path: "Decisions/SyncUps/syncups.json")
  }

  /// The usage text.
  static let usage = """
    USAGE: syncups [options]

    SyncUps, Apple's Scrumdinger as TCA rebuilt it, rebuilt on Decisions: a list of recurring
    meetings kept in a file, each with its attendees, a timer that moves from speaker to speaker,
    and a transcript of past meetings. Each line of standard input is a command; the screen is
    printed again when it changes. The commands:

    \(Command.summary.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))

    Places count from 1, as the screen shows them. Meetings run on the real clock; with --script,
    time passes only when a `wait` says, so a script's output is the same on every run.

    OPTIONS:
      --data PATH         Keep the sync-ups in this JSON file (default: \(defaultData.path)). A
                          file that does not load is never overwritten: the app says why, and
                          start-over keeps it as a backup.
      --script COMMANDS   Run these commands instead of reading standard input, separated by ";",
                          such as "add;title Design;attendee Ada;done;quit".
      --speech TEXT       In a meeting, hear TEXT, one word a second, as a speech recogniser
                          would. Without it, speech recognition is restricted, as on a device
                          without one.
      --speech-access A   Speech recognition's authorisation: authorized, denied or restricted
                          (default: authorized with --speech, restricted without).
      --record FILE       Keep the session's last 10,000 events in a flight recorder, and write
                          them as a JSON recording to FILE when the app ends (replace FILE);
                          private data (titles, names, transcripts) is kept too.
      -h, --help          Show this help.

    Exits with 0 when the input or script ends or on quit, once the sync-ups are saved; 1 if the
    sync-ups, the recording or the output cannot be written; 2 if the options are malformed.
    """

  /// Parses the arguments after the program name.
  /// - Parameter arguments: The arguments, without the program name.
  /// - Throws: ``OptionError`` naming the offending option or value.
  /// - Returns: The options.
  static func parse(_ arguments: [String]) throws(OptionError) -> Options {
    var options = Options()
    var reader = ArgumentReader(arguments)
    while let argument = reader.next() {
      switch argument {
      case "--script":
        options.script = try reader.parsed(for: argument, by: Command.parseScript)
      case "--data":
        options.data = URL(
          fileURLWithPath: try reader.filePath(for: argument), isDirectory: false)
      case "--speech":
        let text = try reader.value(for: argument)
        guard text.utf8.count <= Command.maxBytes else {
          throw OptionError("--speech may be at most \(Command.maxBytes) bytes long")
        }
        options.speech = text
      case "--speech-access":
        options.speechAccess = try reader.choice(
          for: argument,
          among: ["authorized": .authorized, "denied": .denied, "restricted": .restricted])
      case "--record":
        options.record = try reader.filePath(for: argument)
      case "-h", "--help":
        options.help = true
      default:
        throw ArgumentReader.unknownOption(argument)
      }
    }
    return options
  }
}
