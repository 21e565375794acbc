import Decisions
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
    --delay MS       How long a bundled fetch takes, in milliseconds (default 300).
    --timeout S      How long an HTTP fetch may take, in seconds (default 5).
    --export DIR     Write the bundled content in the server's layout under DIR, and exit.
    -h, --help       Show this help.

  Exits with 1 if a link was malformed, 2 if the options were.
  """

func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data("stories: \(message)\n".utf8))
  exit(status)
}

// MARK: - Options

var links: [String] = []
var server: URL?
var delay = 300
var timeout = 5.0
var exportDirectory: String?
var arguments = CommandLine.arguments.dropFirst()
@MainActor func value(for option: String) -> String {
  guard let value = arguments.popFirst(), !value.hasPrefix("--") else {
    fail("\(option) needs a value\n\n\(usage)", status: 2)
  }
  return value
}
while let argument = arguments.popFirst() {
  switch argument {
  case "--server":
    let text = value(for: argument)
    guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
      url.host != nil
    else { fail("--server takes an http or https URL, not \(text)\n\n\(usage)", status: 2) }
    server = url
  case "--delay":
    let text = value(for: argument)
    guard let milliseconds = Int(text), milliseconds >= 0 else {
      fail("--delay takes milliseconds, 0 or more, not \(text)\n\n\(usage)", status: 2)
    }
    delay = milliseconds
  case "--timeout":
    let text = value(for: argument)
    guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
      fail("--timeout takes seconds, more than 0, not \(text)\n\n\(usage)", status: 2)
    }
    timeout = seconds
  case "--export":
    exportDirectory = value(for: argument)
  case "-h", "--help":
    print(usage)
    exit(0)
  case let option where option.hasPrefix("--"):
    fail("unknown option \(option)\n\n\(usage)", status: 2)
  default:
    links.append(argument)
  }
}

// MARK: - Running

let deps: ContentScreen.Deps
if let server {
  deps = .server(server, timeout: .milliseconds(Int(timeout * 1000)))
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
  if let error = state.linkError {
    sawMalformedLink = true
    print("error: \(error)\n")
  } else if let top = state.top {
    print("── \(top.route) ──\n\(top.screen.plainText)\n")
  } else {
    print("(no screen open)\n")
  }
}

if !links.isEmpty {
  for link in links { await run(.open(link)) }
} else {
  let interactive = isatty(STDIN_FILENO) == 1
  if interactive { print("Type a link (app://stories/12345), back, retry or q.") }
  while true {
    if interactive { print("> ", terminator: "") }
    guard let line = readLine() else { break }
    switch line.trimmingCharacters(in: .whitespaces) {
    case "": continue
    case "q", "quit": exit(sawMalformedLink ? 1 : 0)
    case "back": await run(.back)
    case "retry":
      guard let top = await store.state.top else {
        print("(no screen open)\n")
        continue
      }
      await run(.screen(id: top.id, .retry))
    case let link: await run(.open(link))
    }
  }
}
exit(sawMalformedLink ? 1 : 0)
