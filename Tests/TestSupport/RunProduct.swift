import Decisions
import Dispatch
import Foundation

/// What a run of one of the package's executables printed, and how it ended.
public struct ProductRun: Sendable {
  /// The exit status.
  public var status: Int32
  /// Everything written to standard output.
  public var output: String
  /// Everything written to standard error.
  public var errors: String
}

/// Runs an executable built by this package, as a user would, feeding it `input`.
/// - Parameters:
///   - product: The executable's name, such as `facts`.
///   - arguments: Its arguments.
///   - input: What to write to its standard input, which is then closed.
/// - Throws: When the process cannot be started.
/// - Returns: What it printed and how it ended.
public func runProduct(
  _ product: String, _ arguments: [String], input: String = ""
) throws -> ProductRun {
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
  return ProductRun(
    status: process.terminationStatus,
    output: String(decoding: output, as: UTF8.self),
    errors: String(decoding: errors.withLock { $0 }, as: UTF8.self))
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
