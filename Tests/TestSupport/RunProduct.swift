import Decisions
import Dispatch
import Foundation

/// What a run of one of the package's executables printed, and how it ended.
public struct ProductRun: Sendable {
  /// The exit status (or the signal's number, when a signal ended it).
  public var status: Int32
  /// Everything written to standard output (empty unless it went to a pipe).
  public var output: String
  /// Everything written to standard error (empty unless it went to a pipe).
  public var errors: String
  /// How long it ran.
  public var duration: Duration = .zero
  /// Whether a signal ended it (such as the SIGKILL `timeLimit` sends).
  public var wasSignalled = false
}

/// Where a product's standard output or standard error goes.
public enum OutputDestination: Sendable {
  /// A pipe the test reads: the default.
  case pipe
  /// A file, such as /dev/full.
  case file(String)
  /// A pipe whose reading end is closed before the product starts: every write fails with EPIPE.
  case brokenPipe
  /// No descriptor at all: the product starts with it closed.
  case closed
}

/// Runs an executable built by this package, as a user would, feeding it `input`.
/// - Parameters:
///   - product: The executable's name, such as `facts`.
///   - arguments: Its arguments.
///   - input: What to write to its standard input, which is then closed.
///   - output: Where its standard output goes.
///   - errors: Where its standard error goes.
///   - timeLimit: When given, the product is terminated if it runs longer (a hang then fails the
///     test quickly instead of at the suite's time limit).
/// - Throws: When the process cannot be started.
/// - Returns: What it printed and how it ended.
public func runProduct(
  _ product: String, _ arguments: [String], input: String = "",
  output: OutputDestination = .pipe, errors: OutputDestination = .pipe,
  timeLimit: Duration? = nil
) throws -> ProductRun {
  let process = Process()
  let path = productsDirectory.appendingPathComponent(product).path
  var closing: [String] = []
  if case .closed = output { closing.append("1>&-") }
  if case .closed = errors { closing.append("2>&-") }
  if closing.isEmpty {
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
  } else {
    // NB: a shell closes the descriptor: Process cannot start a child without one.
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments =
      ["-c", "exec \"$0\" \"$@\" " + closing.joined(separator: " "), path]
      + arguments
  }
  let stdin = Pipe()
  process.standardInput = stdin
  let (stdout, stdoutHandle) = try destination(output)
  let (stderr, stderrHandle) = try destination(errors)
  // NB: a Pipe itself, not its writing handle: Process closes the parent's copy of a Pipe's
  // writing end once the child runs, so that reading it to the end ends.
  if let stdout {
    process.standardOutput = stdout
  } else if let stdoutHandle {
    process.standardOutput = stdoutHandle
  }
  if let stderr {
    process.standardError = stderr
  } else if let stderrHandle {
    process.standardError = stderrHandle
  }
  let clock = ContinuousClock()
  let start = clock.now
  try process.run()
  if let timeLimit {
    let seconds = Double(timeLimit.components.seconds)
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
      // NB: SIGKILL: the child may have inherited a mask that blocks SIGTERM.
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
  }
  // NB: the parent's copy of a broken pipe's writing end goes too.
  if case .brokenPipe = output { try stdoutHandle?.close() }
  if case .brokenPipe = errors { try stderrHandle?.close() }
  stdin.fileHandleForWriting.write(Data(input.utf8))
  try stdin.fileHandleForWriting.close()
  // NB: read both pipes to the end before waiting, so a chatty process cannot fill a pipe and block.
  let errorData = Protected(Data())
  let errorsRead = DispatchSemaphore(value: 0)
  Thread.detachNewThread {
    let data = stderr?.fileHandleForReading.readDataToEndOfFile() ?? Data()
    errorData.withLock { $0 = data }
    errorsRead.signal()
  }
  let outputData = stdout?.fileHandleForReading.readDataToEndOfFile() ?? Data()
  errorsRead.wait()
  process.waitUntilExit()
  return ProductRun(
    status: process.terminationStatus,
    output: String(decoding: outputData, as: UTF8.self),
    errors: String(decoding: errorData.withLock { $0 }, as: UTF8.self),
    duration: clock.now - start,
    wasSignalled: process.terminationReason == .uncaughtSignal)
}

/// The pipe to read (if any) and the handle to give the process (if any) for a destination.
private func destination(_ destination: OutputDestination) throws -> (Pipe?, FileHandle?) {
  switch destination {
  case .pipe:
    let pipe = Pipe()
    return (pipe, pipe.fileHandleForWriting)
  case .file(let path):
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
    }
    return (nil, handle)
  case .brokenPipe:
    let pipe = Pipe()
    try pipe.fileHandleForReading.close()
    return (nil, pipe.fileHandleForWriting)
  case .closed:
    return (nil, nil)
  }
}

/// The folder the package's products are built into (the test bundle sits there too).
private var productsDirectory: URL {
  #if os(macOS)
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      return bundle.bundleURL.deletingLastPathComponent()
    }
    return Bundle.main.bundleURL
  #else
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  #endif
}
