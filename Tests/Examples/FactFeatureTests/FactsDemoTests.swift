import Foundation
import TestSupport
import Testing

/// Runs the built `facts` demo as a process, as a user would, and checks what it prints.
@Suite(.timeLimit(.minutes(3))) struct FactsDemoTests {
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
    (["--taps", "x"], #"--taps takes a whole number of 0 or more, not "x""#),
    (["--failure-rate", "2"], #"--failure-rate takes a number from 0 to 1, not "2""#),
    (
      ["--source", "ftp://example.com"],
      #"--source takes an http or https URL, not "ftp://example.com""#
    ),
    (["--delay"], "--delay needs a value"),
    (["--delay", "60001"], #"--delay takes milliseconds from 0 to 60000, not "60001""#),
    (["--log", "logs/"], #"--log takes the path of a file, not "logs/""#),
    (["--what"], #"unknown option "--what""#),
    (["--timeout", "0.0009"], #"--timeout must be at least 0.001 s (1 ms), not "0.0009""#),
    (["--timeout", "3601"], #"--timeout must be at most 3600 s (an hour), not "3601""#),
    (
      ["--source", "http://127.0.0.1:99999/x"],
      #"--source: the port must be a number from 1 to 65535, not "99999""#
    ),
    (
      ["--source", "http://[::1]:8000/x"],
      #"--source: IPv6 addresses are not supported, use a host name or an IPv4 address, "#
        + #"not "http://[::1]:8000/x""#
    ),
    (
      ["--max-bytes", "0"],
      #"--max-bytes takes a whole number of bytes from 1 to 1073741824, not "0""#
    ),
  ])
  func badArgumentsFailWithAClearMessage(arguments: [String], message: String) throws {
    let run = try runFacts(arguments)
    #expect(run.status == 2)
    #expect(run.errors.hasPrefix("facts: \(message)\n"))
    #expect(run.errors.contains("USAGE: facts [options]"))
  }

  @Test func anUpperCaseSchemeIsAccepted() throws {
    // Before: accepted, then every load failed as "unsupported URL".
    let run = try runFacts(["--taps", "1", "--source", "HTTP://127.0.0.1:9/fact.json"])
    #expect(run.status == 0)
    #expect(run.errors.contains("log: Failed to load a fact: server unreachable"))
    #expect(!run.errors.contains("unsupported URL"))
  }

  @Test func aLogThatIsADirectorySaysSo() throws {
    let directory = FileManager.default.temporaryDirectory.path
    let run = try runFacts(["--taps", "1", "--log", directory])
    #expect(run.status == 1)
    #expect(run.errors == "facts: cannot open the log \(directory): Is a directory\n")
  }

  @Test func helpPrintsTheUsage() throws {
    let run = try runFacts(["--help"])
    #expect(run.status == 0)
    #expect(run.output.hasPrefix("USAGE: facts [options]"))
  }
}

/// Runs the `facts` demo against the misbehaving server of `.ci/hostile_server.py`.
@Suite(.timeLimit(.minutes(3)), .enabled(if: HostileServer.isAvailable))
struct FactsDemoHostileServerTests {
  @Test func aServerThatDripsBytesIsCutOffAtTheTimeout() throws {
    let server = try HostileServer()
    // Before: the timeout was an idle timeout, and a byte every 0.25 s kept the load going for
    // 250 s.
    let run = try runFacts(
      ["--taps", "1", "--timeout", "1", "--source", "\(server.base)/drip"], timeLimit: .seconds(20))
    #expect(run.status == 0)
    #expect(run.duration < .seconds(10))
    #expect(run.output.hasSuffix("state: idle\nsnackbar: Went wrong\n"))
    #expect(run.errors.contains("log: Failed to load a fact: no answer within 1 s"))
  }

  @Test(arguments: ["endless", "chunked", "huge", "length-huge-lie"])
  func aBodyLargerThan8MiBIsRefused(misbehaviour: String) throws {
    let server = try HostileServer()
    let run = try runFacts(
      ["--taps", "1", "--source", "\(server.base)/\(misbehaviour)"], timeLimit: .seconds(20))
    #expect(run.status == 0)
    #expect(run.duration < .seconds(10))
    #expect(run.errors.contains("log: Failed to load a fact: response larger than 8 MiB"))
  }

  @Test func maxBytesSetsTheLimit() throws {
    let server = try HostileServer()
    let small = try runFacts(
      ["--taps", "1", "--max-bytes", "1000", "--source", "\(server.base)/padded/2000"],
      timeLimit: .seconds(20))
    #expect(small.errors.contains("log: Failed to load a fact: response larger than 1000 bytes"))
    let large = try runFacts(
      ["--taps", "1", "--max-bytes", "3000", "--source", "\(server.base)/padded/2000"],
      timeLimit: .seconds(20))
    #expect(large.output.hasSuffix("state: loaded \"A padded fact.\"\n"))
  }

  @Test func aRedirectLoopEndsWithAMessage() throws {
    let server = try HostileServer()
    let run = try runFacts(
      ["--taps", "1", "--timeout", "5", "--source", "\(server.base)/redirect"],
      timeLimit: .seconds(20))
    #expect(run.status == 0)
    #expect(run.errors.contains("log: Failed to load a fact: "))
  }

  @Test func escapeSequencesInAFactReachNeitherTheScreenNorTheLog() throws {
    let server = try HostileServer()
    let run = try runFacts(["--taps", "1", "--source", "\(server.base)/escape"])
    #expect(run.status == 0)
    #expect(run.output.hasSuffix(#"state: loaded "\u{1B}[2J\u{1B}[31mred\u{07}\u{9B}""# + "\n"))
    #expect(run.errors.contains(#"log: \u{1B}[2J\u{1B}[31mred\u{07}\u{9B}"#))
    for text in [run.output, run.errors] {
      #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" })
    }
  }
}

/// Runs the `facts` demo with output it cannot write.
@Suite(.timeLimit(.minutes(3))) struct FactsDemoWriteFailureTests {
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
  func aFullDiskForTheOutputIsReported() throws {
    // Before: SIGILL, from FileHandle.write's uncaught exception.
    let run = try runFacts(["--taps", "1", "--delay", "0"], output: .file("/dev/full"))
    #expect(!run.wasSignalled)
    #expect(run.status == 1)
    #expect(
      run.errors.hasSuffix("facts: cannot write to standard output: No space left on device\n"))
  }

  @Test func aClosedPipeForTheOutputIsReported() throws {
    let run = try runFacts(["--taps", "1", "--delay", "0"], output: .brokenPipe)
    #expect(!run.wasSignalled)
    #expect(run.status == 1)
    #expect(run.errors.hasSuffix("facts: cannot write to standard output: Broken pipe\n"))
  }

  @Test func aClosedOutputIsReported() throws {
    let run = try runFacts(["--taps", "1", "--delay", "0"], output: .closed)
    #expect(run.status == 1)
    #expect(run.errors == "facts: cannot write to standard output: it is closed\n")
  }

  @Test func aClosedStandardErrorIsReportedOnStandardOutput() throws {
    let run = try runFacts(["--taps", "1", "--delay", "0"], errors: .closed)
    #expect(run.status == 1)
    #expect(run.output.hasSuffix("facts: cannot write to standard error: it is closed\n"))
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
  func aFullLogIsReported() throws {
    let run = try runFacts(["--taps", "1", "--delay", "0", "--log", "/dev/full"])
    #expect(!run.wasSignalled)
    #expect(run.status == 1)
    #expect(
      run.errors == "facts: cannot write to the log /dev/full: No space left on device\n")
  }
}

/// Runs the `facts` demo.
private func runFacts(
  _ arguments: [String], input: String = "", output: OutputDestination = .pipe,
  errors: OutputDestination = .pipe, timeLimit: Duration? = nil
) throws -> ProductRun {
  try runProduct(
    "facts", arguments, input: input, output: output, errors: errors, timeLimit: timeLimit)
}
