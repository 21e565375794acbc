import Foundation

/// A folder of its own for a test, removed when the value goes.
public final class TemporaryFolder: Sendable {
  /// The folder.
  public let url: URL

  /// Makes an empty folder in the system's temporary folder, named after `label`.
  public init(_ label: String = "DecisionsTests") throws {
    url = FileManager.default.temporaryDirectory.appending(path: "\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// The names in the folder, sorted.
  public func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }
}
