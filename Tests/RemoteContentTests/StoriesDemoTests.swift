import TestSupport
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

/// Runs the `stories` demo.
private func runStories(_ arguments: [String], input: String = "") throws -> ProductRun {
  try runProduct("stories", arguments, input: input)
}
