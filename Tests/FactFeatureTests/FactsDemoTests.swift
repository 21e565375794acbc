import TestSupport
import Testing

/// Runs the built `facts` demo as a process, as a user would, and checks what it prints.
@Suite(.timeLimit(.minutes(1))) struct FactsDemoTests {
  @Test func scriptedTapsPrintEachStateChange() throws {
    let run = try runFacts(["--taps", "2", "--delay", "0", "--seed", "3"])
    #expect(run.status == 0)
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 5)
    #expect(lines.first == "state: idle")
    #expect(lines[1] == "state: loading")
    #expect(lines[2].hasPrefix("state: loaded \""))
    #expect(lines[3].hasPrefix("state: loading (showing \""))
    #expect(lines[4].hasPrefix("state: loaded \""))
    #expect(run.errors.components(separatedBy: "track: view.didTapButton").count - 1 == 2)
  }

  @Test func aFailureShowsTheSnackbarAndLogsTheCause() throws {
    let run = try runFacts(["--taps", "1", "--delay", "0", "--failure-rate", "1"])
    #expect(run.status == 0)
    #expect(run.output == "state: idle\nstate: loading\nstate: idle\nsnackbar: Went wrong\n")
    #expect(run.errors.contains("log: Failed to load a fact: simulated failure (--failure-rate)"))
  }

  @Test func commandsOnStandardInputDriveTheScreen() throws {
    let run = try runFacts(["--delay", "0", "--seed", "5"], input: "\nbogus\n")
    #expect(run.status == 0)
    #expect(run.output.hasPrefix("state: idle\nstate: loading\nstate: loaded \""))
    #expect(run.errors.contains("facts: unknown command \"bogus\""))
  }

  @Test func quitStopsAtOnce() throws {
    let run = try runFacts(["--delay", "60000"], input: "\nq\n")
    #expect(run.status == 0)
    #expect(run.output == "state: idle\nstate: loading\n")
  }

  @Test func anUnreachableServerShowsTheSnackbar() throws {
    // Port 9 (discard) on the loopback address: nothing listens there, so the connection is refused.
    let run = try runFacts(["--taps", "1", "--source", "http://127.0.0.1:9/fact.json"])
    #expect(run.status == 0)
    #expect(run.output == "state: idle\nstate: loading\nstate: idle\nsnackbar: Went wrong\n")
    #expect(run.errors.contains("log: Failed to load a fact: server unreachable"))
  }

  @Test(arguments: [
    (["--taps", "x"], "--taps takes a whole number of 0 or more, not x"),
    (["--failure-rate", "2"], "--failure-rate takes a number from 0 to 1, not 2"),
    (
      ["--source", "ftp://example.com"],
      "--source takes an http or https URL, not ftp://example.com"
    ),
    (["--delay"], "--delay needs a value"),
    (["--what"], "unknown option --what"),
  ])
  func badArgumentsFailWithAClearMessage(arguments: [String], message: String) throws {
    let run = try runFacts(arguments)
    #expect(run.status == 2)
    #expect(run.errors.hasPrefix("facts: \(message)\n"))
    #expect(run.errors.contains("USAGE: facts [options]"))
  }

  @Test func helpPrintsTheUsage() throws {
    let run = try runFacts(["--help"])
    #expect(run.status == 0)
    #expect(run.output.hasPrefix("USAGE: facts [options]"))
  }
}

/// Runs the `facts` demo.
private func runFacts(_ arguments: [String], input: String = "") throws -> ProductRun {
  try runProduct("facts", arguments, input: input)
}
