import Decisions
import DecisionsTesting
import Foundation
import SearchFeature
import TestSupport
import Testing

/// Runs the built `search` demo as a process, as a user would, and checks what it prints.
@Suite(.timeLimit(.minutes(3))) struct SearchDemoTests {
  @Test func quickKeystrokesSearchOnceForTheLastQuery() throws {
    let run = try runSearch(["--script", "c;cu;cub;cube", "--delay", "0"])
    #expect(run.status == 0)
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(
      Array(lines.prefix(7)) == [
        #"state: idle """#,
        #"state: debouncing "c""#,
        #"state: debouncing "cu""#,
        #"state: debouncing "cub""#,
        #"state: debouncing "cube""#,
        #"state: searching "cube""#,
        #"state: loaded "cube": 8 results"#,
      ])
    #expect(lines.dropFirst(7).first == #"result: "27 is the cube of 3.""#)
    #expect(lines.dropFirst(7).allSatisfy { $0.hasPrefix("result: ") && $0.contains("cube") })
    #expect(lines.count == 15)
    #expect(run.errors == "")
  }

  @Test func settleLetsEachQuerySearchAndAnEmptyQueryClears() throws {
    let run = try runSearch([
      "--script", "perfect;:settle;nothing like it;:settle;", "--delay", "0",
    ])
    #expect(run.status == 0)
    #expect(
      run.output == """
        state: idle ""
        state: debouncing "perfect"
        state: searching "perfect"
        state: loaded "perfect": 4 results
        result: "6 is a perfect number: it is the sum of its proper divisors."
        result: "28 is a perfect number: it is the sum of its proper divisors."
        result: "496 is a perfect number: it is the sum of its proper divisors."
        result: "8128 is a perfect number: it is the sum of its proper divisors."
        state: debouncing "nothing like it"
        state: searching "nothing like it"
        state: loaded "nothing like it": no results
        state: idle ""

        """)
  }

  @Test func aPauseLongerThanTheQuietPeriodSearchesInBetween() throws {
    let run = try runSearch(["--script", "perfect;:wait 1500;cube of 3", "--delay", "0"])
    #expect(run.status == 0)
    #expect(run.output.contains("state: loaded \"perfect\": 4 results\n"))
    #expect(run.output.hasSuffix("result: \"27 is the cube of 3.\"\n"))
  }

  @Test func manyResultsShowTheFirstTenAndCountTheRest() throws {
    let run = try runSearch(["--script", "prime", "--delay", "0"])
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.hasPrefix("result: \"") }.count == 10)
    let shown = lines.first { $0.hasPrefix("state: loaded") }
    let count = shown.flatMap { Int($0.split(separator: " ")[3]) } ?? 0
    #expect(count > 10)
    #expect(lines.last == "result: (\(count - 10) more)")
  }

  @Test func aFailureRateOf1ShowsTheErrorAndRetryTriesAgain() throws {
    let run = try runSearch(
      ["--script", "prime;:settle;:retry", "--delay", "0", "--failure-rate", "1"])
    #expect(run.status == 0)
    let failed =
      #"state: failed "prime": simulated failure (--failure-rate); :retry searches again"#
    #expect(
      run.output == """
        state: idle ""
        state: debouncing "prime"
        state: searching "prime"
        \(failed)
        state: searching "prime"
        \(failed)

        """)
  }

  @Test func aSeedMakesTheFailuresRepeatable() throws {
    let arguments = [
      "--script", "1;:settle;2;:settle;3;:settle;4;:settle;5;:settle;6;:settle;7;:settle",
      "--delay", "0", "--failure-rate", "0.5", "--seed", "11",
    ]
    let first = try runSearch(arguments)
    #expect(first.output.contains("state: failed"))
    #expect(first.output.contains("state: loaded"))
    #expect(try runSearch(arguments).output == first.output)
  }

  @Test func linesOnStandardInputAreTheQueryAndCommands() throws {
    let run = try runSearch(
      ["--delay", "0"], input: "perfect\n:settle\n:bogus\n::colon\r\n\n")
    #expect(run.status == 0)
    #expect(run.output.contains("state: loaded \"perfect\": 4 results\n"))
    #expect(run.output.contains("state: debouncing \":colon\"\n"))
    #expect(run.output.hasSuffix("state: idle \"\"\n"))
    #expect(run.errors.hasPrefix("search: line 3: unknown command \":bogus\""))
  }

  @Test func aLineThatIsTooLongIsSkippedWithAMessage() throws {
    let run = try runSearch(
      ["--delay", "0"], input: String(repeating: "x", count: 100_000) + "\ncube of 3\n")
    #expect(run.status == 0)
    #expect(run.errors == "search: line 1: a step may be at most 1000 bytes long\n")
    #expect(
      run.output.hasSuffix(
        "state: loaded \"cube of 3\": 1 result\nresult: \"27 is the cube of 3.\"\n"))
  }

  @Test func quitStopsAtOnceWithASearchInFlight() throws {
    let run = try runSearch(["--delay", "60000", "--script", "perfect;:wait 1000;:quit"])
    #expect(run.status == 0)
    #expect(run.duration < .seconds(30))
    #expect(run.output.hasPrefix("state: idle \"\"\nstate: debouncing \"perfect\"\n"))
    #expect(!run.output.contains("loaded"))
  }

  @Test func controlCharactersInAQueryAreShownEscaped() throws {
    let run = try runSearch(["--script", "\u{1B}[2Jred\u{07}\u{9B}", "--delay", "0"])
    #expect(run.status == 0)
    #expect(run.output.contains(#"state: debouncing "\u{1B}[2Jred\u{07}\u{9B}""# + "\n"))
    #expect(
      !run.output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" })
  }

  @Test func anUnreachableServerShowsTheError() throws {
    // Port 9 (discard) on the loopback address: nothing listens there, so the connection is refused.
    let run = try runSearch(["--script", "prime", "--source", "http://127.0.0.1:9/facts.json"])
    #expect(run.status == 0)
    #expect(run.output.hasPrefix(#"state: idle ""\#nstate: debouncing "prime""#))
    #expect(run.output.contains(#"state: failed "prime": server unreachable"#))
  }

  @Test(arguments: [
    (["--what"], #"unknown option "--what""#),
    (["--script"], "--script needs a value"),
    (["--script", ":wait"], "--script, step 1: :wait needs milliseconds, from 0 to 60000"),
    (
      ["--script", "a;:wait 70000"],
      "--script, step 2: :wait takes milliseconds from 0 to 60000, not \"70000\""
    ),
    (
      ["--script", "a;b;:again"],
      #"--script, step 3: unknown command ":again" (commands: :retry, :wait MS, :settle, :quit; "#
        + #"type a query that starts with ":" as "::…")"#
    ),
    (["--failure-rate", "2"], #"--failure-rate takes a number from 0 to 1, not "2""#),
    (["--delay", "60001"], #"--delay takes milliseconds from 0 to 60000, not "60001""#),
    (["--seed", "-1"], #"--seed takes a whole number of 0 or more, not "-1""#),
    (
      ["--source", "ftp://example.com"],
      #"--source takes an http or https URL, not "ftp://example.com""#
    ),
    (["--timeout", "3601"], #"--timeout must be at most 3600 s (an hour), not "3601""#),
    (
      ["--max-bytes", "0"],
      #"--max-bytes takes a whole number of bytes from 1 to 1073741824, not "0""#
    ),
    (["--record", ""], #"--record takes the path of a file, not """#),
    (["--record", "/tmp/"], #"--record takes the path of a file, not "/tmp/""#),
  ])
  func badArgumentsFailWithAClearMessage(arguments: [String], message: String) throws {
    let run = try runSearch(arguments)
    #expect(run.status == 2)
    #expect(run.errors.hasPrefix("search: \(message)\n"))
    #expect(run.errors.contains("USAGE: search [options]"))
    #expect(run.output == "")
  }

  @Test func helpPrintsTheUsage() throws {
    let run = try runSearch(["--help"])
    #expect(run.status == 0)
    #expect(run.output.hasPrefix("USAGE: search [options]"))
    #expect(run.output.contains("--script STEPS"))
  }
}

/// `search --record FILE`: the session's flight recording, written when the demo ends.
@Suite(.timeLimit(.minutes(3))) struct SearchDemoRecordingTests {
  @Test func aRecordingReplaysToTheStateTheSessionEndedIn() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("search-record-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("session.json")
    let run = try runSearch(
      ["--script", "c;cu;cube;:settle;prime;:q", "--delay", "0", "--record", file.path])
    #expect(run.status == 0)
    #expect(run.errors == "")

    let recording = try FlightRecording<SearchFeature>(json: Data(contentsOf: file))
    #expect(recording.trigger == .requested(note: "search --record"))
    #expect(recording.eventsBefore == 0)
    #expect(
      recording.events.prefix(3) == [
        .view(.queryChanged("c")), .view(.queryChanged("cu")), .view(.queryChanged("cube")),
      ])
    #expect(recording.events.contains(.view(.queryChanged("prime"))))
    let replay = Replay(recording)
    #expect(replay.steps.last?.state == recording.finalState)
    #expect(recording.finalState.query == "prime")
  }

  @Test func aRecordingOfAQuitSessionIsWrittenToo() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("search-record-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("quit.json")
    let run = try runSearch(["--script", "pr;:q", "--delay", "0", "--record", file.path])
    #expect(run.status == 0)
    let recording = try FlightRecording<SearchFeature>(json: Data(contentsOf: file))
    #expect(recording.events == [.view(.queryChanged("pr"))])
  }

  @Test func aFileInAFolderThatDoesNotExistFailsAtOnce() throws {
    let run = try runSearch(
      ["--script", "c", "--delay", "0", "--record", "/nonexistent-folder/session.json"])
    #expect(run.status == 2)
    #expect(
      run.errors
        == "search: --record: there is no folder /nonexistent-folder to write "
        + "/nonexistent-folder/session.json in\n")
    #expect(run.output == "")
  }

  @Test func aFolderIsNotAFile() throws {
    let folder = FileManager.default.temporaryDirectory
    let run = try runSearch(["--script", "c", "--delay", "0", "--record", folder.path])
    #expect(run.status == 2)
    #expect(run.errors.hasSuffix("is a folder, not a file\n"))
  }
}

/// Runs the `search` demo against the misbehaving server of `.ci/hostile_server.py`, which also
/// answers 404 for any path it does not know.
@Suite(.timeLimit(.minutes(3)), .enabled(if: HostileServer.isAvailable))
struct SearchDemoHostileServerTests {
  @Test func oneFactOverHTTPIsSearched() throws {
    let server = try HostileServer()
    let run = try runSearch(
      ["--script", "padded;:settle;nothing", "--source", "\(server.base)/padded/10"],
      timeLimit: .seconds(20))
    #expect(run.status == 0)
    #expect(
      run.output.contains(#"state: loaded "padded": 1 result"# + "\nresult: \"A padded fact.\"\n"))
    #expect(run.output.hasSuffix(#"state: loaded "nothing": no results"# + "\n"))
  }

  @Test func aMissingListShowsTheStatus() throws {
    let server = try HostileServer()
    let run = try runSearch(["--script", "prime", "--source", "\(server.base)/missing.json"])
    #expect(
      run.output.hasSuffix(#"state: failed "prime": HTTP status 404; :retry searches again"# + "\n")
    )
  }

  @Test func aServerThatDripsBytesIsCutOffAtTheTimeout() throws {
    let server = try HostileServer()
    let run = try runSearch(
      ["--script", "prime", "--timeout", "1", "--source", "\(server.base)/drip"],
      timeLimit: .seconds(20))
    #expect(run.status == 0)
    #expect(run.duration < .seconds(10))
    #expect(run.output.contains(#"state: failed "prime": no answer within 1 s"#))
  }

  @Test func aBodyLargerThanMaxBytesIsRefused() throws {
    let server = try HostileServer()
    let huge = try runSearch(
      ["--script", "prime", "--source", "\(server.base)/huge"], timeLimit: .seconds(20))
    #expect(huge.duration < .seconds(10))
    #expect(huge.output.contains(#"state: failed "prime": response larger than 8 MiB"#))
    let small = try runSearch(
      ["--script", "fact", "--max-bytes", "1000", "--source", "\(server.base)/padded/2000"],
      timeLimit: .seconds(20))
    #expect(small.output.contains(#"state: failed "fact": response larger than 1000 bytes"#))
  }

  @Test func escapeSequencesInAFactDoNotReachTheScreen() throws {
    let server = try HostileServer()
    let run = try runSearch(["--script", "red", "--source", "\(server.base)/escape"])
    #expect(run.status == 0)
    #expect(run.output.hasSuffix(#"result: "\u{1B}[2J\u{1B}[31mred\u{07}\u{9B}""# + "\n"))
    #expect(
      !run.output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" })
  }
}

/// Runs the `search` demo with output it cannot write.
@Suite(.timeLimit(.minutes(3))) struct SearchDemoWriteFailureTests {
  @Test func aClosedPipeForTheOutputIsReported() throws {
    let run = try runSearch(["--script", "prime", "--delay", "0"], output: .brokenPipe)
    #expect(!run.wasSignalled)
    #expect(run.status == 1)
    #expect(run.errors.hasSuffix("search: cannot write to standard output: Broken pipe\n"))
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
  func aFullDiskForTheOutputIsReported() throws {
    let run = try runSearch(["--script", "prime", "--delay", "0"], output: .file("/dev/full"))
    #expect(!run.wasSignalled)
    #expect(run.status == 1)
    #expect(
      run.errors.hasSuffix("search: cannot write to standard output: No space left on device\n"))
  }

  @Test func aClosedOutputIsReported() throws {
    let run = try runSearch(["--script", "prime", "--delay", "0"], output: .closed)
    #expect(run.status == 1)
    #expect(run.errors == "search: cannot write to standard output: it is closed\n")
  }
}

/// Runs the `search` demo.
private func runSearch(
  _ arguments: [String], input: String = "", output: OutputDestination = .pipe,
  timeLimit: Duration? = nil
) throws -> ProductRun {
  try runProduct("search", arguments, input: input, output: output, timeLimit: timeLimit)
}
