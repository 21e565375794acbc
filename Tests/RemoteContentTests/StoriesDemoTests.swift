import Decisions
import Dispatch
import Foundation
import Testing

/// Runs the built `stories` demo as a process and checks what it prints.
@Suite(.timeLimit(.minutes(1))) struct StoriesDemoTests {
  @Test func eachLinkPrintsItsScreen() throws {
    let run = try runStories([
      "--delay", "0", "app://stories/12345", "app://users/007", "app://messages/9876",
    ])
    #expect(run.status == 0)
    let screens = run.output.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(screens.count == 3)
    #expect(screens[0].hasPrefix("── app://stories/12345 ──\n"))
    #expect(
      screens[0].contains("\nFrom: ") && screens[0].contains("\nTo: ")
        && screens[0].contains(" UTC"))
    #expect(screens[1].hasPrefix("── app://users/007 ──\n"))
    #expect(screens[2].hasPrefix("── app://messages/9876 ──\nMessage from "))
  }

  @Test func aMissingIDShowsTheNotFoundScreen() throws {
    let run = try runStories(["--delay", "0", "app://stories/99999"])
    #expect(run.status == 0)
    #expect(
      run.output == "── app://stories/99999 ──\nStory 99999\n! Could not find story.\n[retry]\n\n")
  }

  @Test func aMalformedLinkSaysWhyAndExitsWithOne() throws {
    let run = try runStories(["--delay", "0", "app://stories/1/comments"])
    #expect(run.status == 1)
    #expect(
      run.output == "error: app://stories/1/comments: unexpected \"comments\" after the id\n\n")
  }

  @Test func commandsOnStandardInputNavigate() throws {
    let run = try runStories(
      ["--delay", "0"], input: "app://users/007\napp://stories/12345\nback\nback\nq\n")
    #expect(run.status == 0)
    let screens = run.output.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(screens.count == 4)
    #expect(screens[2].hasPrefix("── app://users/007 ──"))
    #expect(screens[3] == "(no screen open)")
  }

  @Test func anUnreachableServerShowsAnErrorScreen() throws {
    let run = try runStories(["--server", "http://127.0.0.1:9", "app://users/007"])
    #expect(run.status == 0)
    #expect(
      run.output.hasPrefix(
        "── app://users/007 ──\nUser 007\n! Could not load user: server unreachable"))
  }

  @Test func badOptionsExitWithTwo() throws {
    let run = try runStories(["--server", "ftp://x"])
    #expect(run.status == 2)
    #expect(run.errors.hasPrefix("stories: --server takes an http or https URL, not ftp://x"))
  }
}

/// What a run of a demo printed, and how it ended.
struct StoriesRun {
  var status: Int32
  var output: String
  var errors: String
}

/// Runs the `stories` product, feeding it `input`.
func runStories(_ arguments: [String], input: String = "") throws -> StoriesRun {
  let process = Process()
  process.executableURL = productsDirectory.appendingPathComponent("stories")
  process.arguments = arguments
  let stdin = Pipe()
  let stdout = Pipe()
  let stderr = Pipe()
  process.standardInput = stdin
  process.standardOutput = stdout
  process.standardError = stderr
  try process.run()
  stdin.fileHandleForWriting.write(Data(input.utf8))
  try stdin.fileHandleForWriting.close()
  let errors = Protected(Data())
  let errorsRead = DispatchSemaphore(value: 0)
  Thread.detachNewThread {
    let data = stderr.fileHandleForReading.readDataToEndOfFile()
    errors.withLock { $0 = data }
    errorsRead.signal()
  }
  let output = stdout.fileHandleForReading.readDataToEndOfFile()
  errorsRead.wait()
  process.waitUntilExit()
  return StoriesRun(
    status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
    errors: String(decoding: errors.withLock { $0 }, as: UTF8.self))
}

/// The folder the package's products are built into (the test bundle sits there too).
var productsDirectory: URL {
  #if os(macOS)
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      return bundle.bundleURL.deletingLastPathComponent()
    }
    return Bundle.main.bundleURL
  #else
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  #endif
}
