import Decisions
import ExampleSupport
import Foundation
import RemoteContent

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The `stories` demo: opens deep links in a coordinator and prints the screens as text.

let usage = """
  USAGE: stories [options] [link ...]

  Opens each deep link in turn (app://stories/ID, app://users/ID, app://messages/ID) and prints the
  screen on top once it has loaded. With no links, reads commands from standard input: a link,
  "back", "retry", or "q" to quit.

  OPTIONS:
    --server URL     Fetch from an HTTP server laid out as /stories/ID.json, /users/ID.json and
                     /messages/ID.json, instead of the bundled content.
    --delay MS       How long a bundled fetch takes, in milliseconds, from 0 to 60000
                     (default 300).
    --timeout S      How long a whole HTTP fetch may take, in seconds, from 0.001 to 3600
                     (default 5).
    --max-bytes N    The largest HTTP response accepted, in bytes (default 8388608, 8 MiB).
    --export DIR     Write the bundled content in the server's layout under DIR, and exit.
    -h, --help       Show this help.

  Exits with 1 if a link was malformed or the output could not be written, 2 if the options were
  malformed.
  """

// NB: first, before anything opens a file or a socket.
let streams = StandardStreams.prepare()

/// Reports a failed write on standard error, or standard output if that is what failed, and exits
/// with status 1.
func failWriting(_ failure: WriteFailure) -> Never {
  StandardStreams.exit(reporting: failure, program: "stories", on: [streams.error, streams.output])
}

func fail(_ message: String, status: Int32) -> Never {
  do { try streams.error.write("stories: \(message)\n") } catch { failWriting(error) }
  exit(status)
}

/// Writes `text` and a newline to standard output, or fails.
func say(_ text: String, terminator: String = "\n") {
  do { try streams.output.write(text + terminator) } catch { failWriting(error) }
}

// MARK: - Options

var links: [String] = []
var server: URL?
var delay = 300
var timeout = Duration.seconds(5)
var maxBytes = defaultMaxResponseBytes
var exportDirectory: String?
var reader = ArgumentReader(Array(CommandLine.arguments.dropFirst()))
do throws(OptionError) {
  while let argument = reader.next() {
    switch argument {
    case "--server":
      server = try parseHTTPURL(reader.value(for: argument), option: argument)
    case "--delay":
      delay = try reader.wholeNumber(
        for: argument, in: 0...maxDelayMilliseconds, of: "milliseconds")
    case "--timeout":
      timeout = try parseTimeout(reader.value(for: argument))
    case "--max-bytes":
      maxBytes = try parseByteCount(reader.value(for: argument))
    case "--export":
      exportDirectory = try reader.value(for: argument)
    case "-h", "--help":
      say(usage)
      exit(0)
    case let option where option.hasPrefix("--"):
      throw ArgumentReader.unknownOption(option)
    default:
      links.append(argument)
    }
  }
} catch {
  fail("\(error)\n\n\(usage)", status: 2)
}

// MARK: - Running

let deps: ContentScreen.Deps
if let server {
  deps = .server(server, timeout: timeout, maxBytes: maxBytes)
} else {
  let library: ContentLibrary
  do {
    library = try ContentLibrary.bundled()
  } catch {
    fail("the bundled content is unreadable: \(error)", status: 1)
  }
  if let exportDirectory {
    do {
      try library.export(to: URL(fileURLWithPath: exportDirectory))
    } catch {
      fail("could not export to \(exportDirectory): \(error)", status: 1)
    }
    exit(0)
  }
  deps = .library(library, delay: .milliseconds(delay))
}

let store = Store<Coordinator>(state: .init(), deps: deps)
var sawMalformedLink = false

/// Sends an event, waits for its work, and prints what is on screen.
@MainActor func run(_ event: Coordinator.Event) async {
  await store.send(event)
  await store.settle()
  let state = await store.state
  // NB: the screen's text and the link come from outside: their control characters must not act on
  // the terminal.
  if let error = state.linkError {
    sawMalformedLink = true
    say("error: \(sanitizedForTerminal(error))\n")
  } else if let top = state.top {
    say("── \(top.route) ──\n\(sanitizedForTerminal(top.screen.plainText))\n")
  } else {
    say("(no screen open)\n")
  }
}

if !links.isEmpty {
  for link in links { await run(.open(link)) }
} else {
  let interactive = isatty(STDIN_FILENO) == 1
  if interactive { say("Type a link (app://stories/12345), back, retry or q.") }
  while true {
    if interactive { say("> ", terminator: "") }
    guard let line = readLine() else { break }
    switch line.trimmingCharacters(in: .whitespaces) {
    case "": continue
    case "q", "quit": exit(sawMalformedLink ? 1 : 0)
    case "back": await run(.back)
    case "retry":
      guard let top = await store.state.top else {
        say("(no screen open)\n")
        continue
      }
      await run(.screen(id: top.id, .retry))
    case let link: await run(.open(link))
    }
  }
}
exit(sawMalformedLink ? 1 : 0)
