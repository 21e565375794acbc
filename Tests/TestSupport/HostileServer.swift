import Foundation

/// The misbehaving HTTP server of `.ci/hostile_server.py`, run as a local process for one test:
/// it drips bytes, sends endless or huge bodies, lies about lengths and redirects to itself.
///
/// It needs `python3`; ``isAvailable`` says whether there is one.
public final class HostileServer {
  /// The server's address, such as `http://127.0.0.1:40123`; append a misbehaviour: `/drip`.
  public let base: String
  private let process: Process

  /// Whether `python3` can be run here.
  public static let isAvailable: Bool = {
    ProcessInfo.processInfo.environment["PATH", default: "/usr/bin:/bin"]
      .split(separator: ":")
      .contains { FileManager.default.isExecutableFile(atPath: "\($0)/python3") }
  }()

  /// Starts the server and waits until it listens.
  /// - Throws: When it cannot be started, or exits without printing its port.
  public init() throws {
    let script = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent(".ci/hostile_server.py")
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, "--lifetime", "120", "--handler-limit", "30"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // The first line is the port; it comes once the server listens.
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let data = output.fileHandleForReading.availableData
      guard !data.isEmpty else { break }
      line.append(data)
    }
    let port = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let number = Int(port), number > 0 else {
      kill(process.processIdentifier, SIGKILL)
      throw CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: port])
    }
    base = "http://127.0.0.1:\(number)"
  }

  /// Stops the server.
  public func stop() {
    // NB: SIGKILL, which no blocked signal mask inherited from the test process can hold up.
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  deinit { stop() }
}
