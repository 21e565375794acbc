import Decisions
import Dispatch
import Foundation
import Testing

/// Runs the built `facts` demo as a process, as a user would, and checks what it prints.
@Suite(.timeLimit(.minutes(1))) struct FactsDemoTests {
  @Test func scriptedTapsPrintEachStateChange() throws {
    let run = try runDemo(["--taps", "2", "--delay", "0", "--seed", "3"])
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
    let run = try runDemo(["--taps", "1", "--delay", "0", "--failure-rate", "1"])
    #expect(run.status == 0)
    #expect(run.output == "state: idle\nstate: loading\nstate: idle\nsnackbar: Went wrong\n")
    #expect(run.errors.contains("log: Failed to load a fact: simulated failure (--failure-rate)"))
  }

  @Test func commandsOnStandardInputDriveTheScreen() throws {
    let run = try runDemo(["--delay", "0", "--seed", "5"], input: "\nbogus\n")
    #expect(run.status == 0)
    #expect(run.output.hasPrefix("state: idle\nstate: loading\nstate: loaded \""))
    #expect(run.errors.contains("facts: unknown command \"bogus\""))
  }

  @Test func quitStopsAtOnce() throws {
    let run = try runDemo(["--delay", "60000"], input: "\nq\n")
    #expect(run.status == 0)
    #expect(run.output == "state: idle\nstate: loading\n")
  }

  @Test func anUnreachableServerShowsTheSnackbar() throws {
    // Port 9 (discard) on the loopback address: nothing listens there, so the connection is refused.
    let run = try runDemo(["--taps", "1", "--source", "http://127.0.0.1:9/fact.json"])
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
    let run = try runDemo(arguments)
    #expect(run.status == 2)
    #expect(run.errors.hasPrefix("facts: \(message)\n"))
    #expect(run.errors.contains("USAGE: facts [options]"))
  }

  @Test func helpPrintsTheUsage() throws {
    let run = try runDemo(["--help"])
    #expect(run.status == 0)
    #expect(run.output.hasPrefix("USAGE: facts [options]"))
  }
}

/// What a run of the demo printed, and how it ended.
struct DemoRun {
  var status: Int32
  var output: String
  var errors: String
}

/// Runs a built product of this package, feeding it `input` and collecting its output.
func runDemo(_ arguments: [String], product: String = "facts", input: String = "") throws -> DemoRun
{
  let process = Process()
  process.executableURL = productsDirectory.appendingPathComponent(product)
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
  // NB: read both pipes to the end before waiting, so a chatty process cannot fill a pipe and block.
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
  return DemoRun(
    status: process.terminationStatus,
    output: String(decoding: output, as: UTF8.self),
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
