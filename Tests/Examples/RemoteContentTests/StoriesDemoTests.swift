import Foundation
import TestSupport
import Testing

/// Runs the built `stories` demo as a process and checks what it prints.
@Suite(.timeLimit(.minutes(3))) struct StoriesDemoTests {
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
    #expect(run.errors.hasPrefix(#"stories: --server takes an http or https URL, not "ftp://x""#))
  }
}

@Suite(.timeLimit(.minutes(3))) struct StoriesDemoHardeningTests {
  @Test func backWithNothingOpenDoesNotRepeatTheLastLinkError() throws {
    let run = try runStories(["--delay", "0"], input: "app://nope/1\nback\nq\n")
    #expect(run.status == 1)
    #expect(
      run.output
        == "error: app://nope/1: unknown kind \"nope\" (expected stories, users or messages)\n\n"
        + "(no screen open)\n\n")
  }

  @Test func aHugeLinkMakesAShortError() throws {
    // NB: on standard input: an argument that long is more than exec allows.
    let link = "app://stories/" + String(repeating: "1/", count: 500_000)
    let run = try runStories(["--delay", "0"], input: link + "\nq\n")
    #expect(run.status == 1)
    #expect(run.output.count < 200)
  }

  @Test(arguments: [
    (
      ["--delay", "99999999999"], #"--delay takes milliseconds from 0 to 60000, not "99999999999""#
    ),
    (["--timeout", "0.0009"], #"--timeout must be at least 0.001 s (1 ms), not "0.0009""#),
    (["--timeout", "3601"], #"--timeout must be at most 3600 s (an hour), not "3601""#),
    (
      ["--server", "http://127.0.0.1:99999"],
      #"--server: the port must be a number from 1 to 65535, not "99999""#
    ),
    (
      ["--max-bytes", "x"],
      #"--max-bytes takes a whole number of bytes from 1 to 1073741824, not "x""#
    ),
  ])
  func badOptionsSayWhatIsWrong(arguments: [String], message: String) throws {
    let run = try runStories(arguments)
    #expect(run.status == 2)
    #expect(run.errors.hasPrefix("stories: \(message)\n"))
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
  func aFullDiskForTheOutputIsReported() throws {
    // Before: exit 0, the screens lost.
    let run = try runStories(["--delay", "0", "app://users/007"], output: .file("/dev/full"))
    #expect(run.status == 1)
    #expect(run.errors == "stories: cannot write to standard output: No space left on device\n")
  }

  @Test func aClosedPipeForTheOutputIsReported() throws {
    let run = try runStories(["--delay", "0", "app://users/007"], output: .brokenPipe)
    #expect(!run.wasSignalled)
    #expect(run.status == 1)
    #expect(run.errors == "stories: cannot write to standard output: Broken pipe\n")
  }

  @Test func aClosedStandardErrorIsReportedOnStandardOutput() throws {
    let run = try runStories(["--what"], errors: .closed)
    #expect(run.status == 1)
    #expect(run.output == "stories: cannot write to standard error: it is closed\n")
  }
}

/// Runs the `stories` demo against the misbehaving server of `.ci/hostile_server.py`.
@Suite(.timeLimit(.minutes(3)), .enabled(if: HostileServer.isAvailable))
struct StoriesDemoHostileServerTests {
  @Test func aServerThatDripsBytesIsCutOffAtTheTimeout() throws {
    let server = try HostileServer()
    let run = try runStories(
      ["--timeout", "1", "--server", "\(server.base)/drip", "app://users/007"],
      timeLimit: .seconds(20))
    #expect(run.status == 0)
    #expect(run.duration < .seconds(10))
    #expect(run.output.contains("! Could not load user: no answer within 1 s."))
  }

  @Test func aHugeBodyIsRefused() throws {
    let server = try HostileServer()
    let run = try runStories(
      ["--server", "\(server.base)/chunked", "app://users/007"], timeLimit: .seconds(20))
    #expect(run.output.contains("! Could not load user: response larger than 8 MiB."))
    let small = try runStories(
      ["--max-bytes", "1000", "--server", "\(server.base)/padded/2000", "app://users/007"],
      timeLimit: .seconds(20))
    #expect(small.output.contains("! Could not load user: response larger than 1000 bytes."))
  }

  @Test func escapeSequencesInContentDoNotReachTheScreen() throws {
    let server = try HostileServer()
    let run = try runStories(["--server", "\(server.base)/escape", "app://users/007"])
    #expect(run.output.contains(#"\u{1B}[2J\u{1B}[31mred\u{07}\u{9B}"#))
    #expect(!run.output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" })
  }
}

/// Runs the `stories` demo.
private func runStories(
  _ arguments: [String], input: String = "", output: OutputDestination = .pipe,
  errors: OutputDestination = .pipe, timeLimit: Duration? = nil
) throws -> ProductRun {
  try runProduct(
    "stories", arguments, input: input, output: output, errors: errors, timeLimit: timeLimit)
}
