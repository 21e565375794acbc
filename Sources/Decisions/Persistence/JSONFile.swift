#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A file that holds one `Codable` value as JSON, for a feature's deps to load at start and save
/// as it changes.
///
/// ```swift
/// let file = JSONFile<Notebook>(url: folder.appending(path: "notes.json"), version: 1)
/// let notebook = try file.load() ?? Notebook()  // nil: no file yet, the first run
/// try file.save(notebook)
/// ```
///
/// Its methods fit a feature's deps as they are, `load: file.load, save: file.save`, and throw
/// only a ``JSONFileError``, whose description is a sentence for the user. What they promise:
///
/// - **Nothing is lost.** ``save(_:)`` writes the whole file beside the old one, flushes it to the
///   disk, then renames it over the old one, so the file is always either the old one or the new
///   one, never half of each. It refuses to replace a file that ``load()`` cannot read (corrupt,
///   truncated, unreadable, too large, or written by a newer version): that file stays until the
///   user agrees to set it aside with ``moveAside()``, which keeps it as a backup.
/// - **A newer file is recognised.** The file is an envelope with the format's version,
///   `{"formatVersion": 1, "value": …}`. A file of a higher version than this app's fails to load
///   with ``JSONFileError/newerVersion(path:found:supported:)`` instead of being misread; one of
///   the same or a lower version is decoded with `Value`'s `Codable`.
/// - **Bad input is an error, never a crash or a hang.** A file larger than ``maximumBytes`` is
///   refused before it is read; a folder, named pipe or device at the path is refused without
///   reading from it.
/// - **A missing file is not an error**: ``load()`` returns `nil`, and ``save(_:)`` creates the
///   file and the folders above it.
///
/// Each call works on the disk synchronously, so call them from long work
/// (``Effects/run(id:priority:operation:catch:)``), not in place; or, from main-actor code, call
/// ``read()`` and ``write(_:)``, which do the file work off the caller's isolation. Saves do not
/// wait for each other: two saves at once both succeed and the last rename wins, so let the core
/// decide one write at a time: ``Persisted`` does, with a debounce.
///
/// The value is encoded and decoded where the calls run, on the caller's isolation: a model type of
/// a module with default main-actor isolation, whose `Codable` is isolated to the main actor, is
/// kept in a file with no annotation, from main-actor code. (Swift refuses, at compile time, to use
/// that conformance elsewhere: a call from long work, off the main actor, needs the type declared
/// `nonisolated`.)
public struct JSONFile<Value: Codable>: Sendable {
  /// Where the file is.
  public let url: URL
  /// The version of the file's format that this app writes, and the newest it reads.
  public let version: Int
  /// The largest file, in bytes, that ``load()`` reads and ``save(_:)`` writes.
  public let maximumBytes: Int

  /// Creates a file at `url` in format `version`, read and written up to `maximumBytes`.
  ///
  /// Nothing is read or written until ``load()``, ``save(_:)`` or ``moveAside()``.
  /// - Parameters:
  ///   - url: A file URL. If it leads to a symbolic link, saving replaces the file it links to,
  ///     and creates it if the link dangles. A URL that ends in `/`, as `URL(fileURLWithPath:)`
  ///     makes one for a path where a folder is, names the same path without the slash (so a
  ///     folder there is refused as a folder, and can be moved aside). A URL that is not a file
  ///     URL, or whose path is empty, not UTF-8 or holds a NUL byte, makes each call throw:
  ///     ``JSONFileError/unreadable(path:reason:)`` and its kin.
  ///   - version: The version of the format, 1 or more. Raise it when a file written by this
  ///     version of the app would be misread by an earlier one: earlier ones then refuse the file
  ///     with ``JSONFileError/newerVersion(path:found:supported:)``.
  ///   - maximumBytes: The largest file to read or write: 16 MiB unless given.
  /// - Precondition: `version` is 1 or more, and `maximumBytes` is positive: constants of the
  ///   app's code, not data.
  public init(url: URL, version: Int = 1, maximumBytes: Int = 16 * 1024 * 1024) {
    precondition(version >= 1, "A JSONFile's version is 1 or more, not \(version).")
    precondition(
      maximumBytes > 0, "A JSONFile's maximumBytes must be positive, not \(maximumBytes).")
    if url.isFileURL, url.path(percentEncoded: false).isEmpty {
      // NB: Foundation gives no path for `file:`, nor for a file URL whose path is not UTF-8.
      self.url = url
      self.path = url.absoluteString
      self.refusal = "its path is empty, or is not UTF-8"
    } else if url.isFileURL, url.path(percentEncoded: false).utf8.contains(0) {
      // NB: the system reads a path up to its first NUL byte: this one would name another file.
      self.url = url
      self.path = url.absoluteString
      self.refusal = "its path holds a NUL byte"
    } else if url.isFileURL {
      // NB: the path's bytes, not its Characters: a slash followed by a combining mark is one
      // Character, and still a slash to the file system.
      var bytes = Array(url.path(percentEncoded: false).utf8)
      while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
      let path = String(decoding: bytes, as: UTF8.self)
      self.url = url.hasDirectoryPath ? URL(filePath: path, directoryHint: .notDirectory) : url
      self.path = path
      self.refusal = nil
    } else {
      self.url = url
      self.path = url.absoluteString
      self.refusal = "it is not a file URL"
    }
    self.version = version
    self.maximumBytes = maximumBytes
  }

  /// The file's path, as errors name it: the URL itself when it is not a file URL.
  let path: String
  /// Why every call fails, for a URL that cannot name a file; nil for one that can.
  private let refusal: String?

  /// The file work, which knows nothing of the value: it runs wherever the caller says.
  private var work: JSONFileWork {
    JSONFileWork(path: path, refusal: refusal, maximumBytes: maximumBytes)
  }

  // MARK: - Loading

  /// Reads the file and decodes its value, or returns `nil` if there is no file.
  ///
  /// Only reads: whatever it throws, the file is left as it is.
  /// - Returns: The value, or `nil` if nothing is at the path (the app's first run).
  /// - Throws: ``JSONFileError/unreadable(path:reason:)``,
  ///   ``JSONFileError/tooLarge(path:byteCount:limit:)``,
  ///   ``JSONFileError/truncated(path:byteCount:)``, ``JSONFileError/corrupt(path:reason:)`` or
  ///   ``JSONFileError/newerVersion(path:found:supported:)``.
  /// - Complexity: O(*n*) in the size of the file, which is at most ``maximumBytes``.
  public func load() throws(JSONFileError) -> Value? {
    try value(in: work.read())
  }

  /// Reads the file off the caller's isolation, and decodes its value on it; `nil` if there is no
  /// file.
  ///
  /// It is ``load()``, with the file work on the global concurrent executor: so main-actor code
  /// keeps a model type whose `Codable` is isolated to the main actor (a type of a module with
  /// default main-actor isolation), with no annotation and no file work on the main actor.
  /// - Returns: The value, or `nil` if nothing is at the path (the app's first run).
  /// - Throws: What ``load()`` throws.
  public nonisolated(nonsending) func read() async throws(JSONFileError) -> Value? {
    let work = work
    return try value(in: await offTheCaller { () throws(JSONFileError) in try work.read() })
  }

  /// The value a read found, decoded; `nil` if there is no file.
  private func value(in outcome: FileSystem.ReadOutcome) throws(JSONFileError) -> Value? {
    switch outcome {
    case .missing:
      return nil
    case .tooLarge(let byteCount):
      throw .tooLarge(path: path, byteCount: byteCount, limit: maximumBytes)
    case .bytes(let bytes):
      return try decode(bytes)
    }
  }

  /// Decodes the file's bytes, telling a truncated file from a corrupt one.
  private func decode(_ bytes: [UInt8]) throws(JSONFileError) -> Value {
    let decoder = JSONDecoder()
    decoder.userInfo[.supportedVersion] = version
    do {
      return try decoder.decode(Envelope<Value>.self, from: Data(bytes)).value
    } catch let newer as NewerVersion {
      throw .newerVersion(path: path, found: newer.found, supported: version)
    } catch let error as DecodingError {
      if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
        if jsonEndsEarly(bytes) { throw .truncated(path: path, byteCount: bytes.count) }
        throw .corrupt(path: path, reason: "it is not valid JSON")
      }
      throw .corrupt(path: path, reason: Self.describe(error))
    } catch {
      throw .corrupt(path: path, reason: "\(error)")
    }
  }

  // MARK: - Saving

  /// Writes `value` to the file, replacing the file there in one step once the new one is complete.
  ///
  /// Creates the folders above the file if they are missing. Writes the JSON to a new file in the
  /// same folder, flushes it to the disk, renames it over the old file and flushes the folder, so a
  /// crash or a full disk leaves the old file or the new one, whole. Refuses to replace a file that
  /// ``load()`` cannot read. When the path is a symbolic link, the file it links to is written
  /// (and created, with its folders, if the link dangles); the link stays.
  ///
  /// Once the new file is in place, it removes the temporary files that earlier saves of the same
  /// file left when their process ended in the middle (killed, or the power lost): those whose
  /// process is gone. A temporary file of a save still in flight, in this process or another, is
  /// never touched.
  /// - Throws: ``JSONFileError/refusedToReplace(_:)`` with the reason the file there does not
  ///   load; ``JSONFileError/valueTooLarge(path:byteCount:limit:)``; or
  ///   ``JSONFileError/writeFailed(path:reason:)``. The file at the path, if any, is then as it was.
  /// - Complexity: O(*n*) in the size of the value, plus a ``load()`` of the file it replaces and a
  ///   listing of its folder.
  public func save(_ value: Value) throws(JSONFileError) {
    let bytes = try encode(value)
    let place = try work.prepareWrite()
    try refuseToReplace(place.existing)
    try work.write(bytes, at: place)
  }

  /// Encodes `value` on the caller's isolation, and writes it off it.
  ///
  /// It is ``save(_:)``, with the file work on the global concurrent executor: the value is encoded
  /// first, and the file it would replace decoded, on the caller's isolation; creating folders,
  /// reading and writing happen off it. So main-actor code saves a model type whose `Codable` is
  /// isolated to the main actor with no annotation and no file work on the main actor.
  /// - Throws: What ``save(_:)`` throws; the file at the path, if any, is then as it was.
  public nonisolated(nonsending) func write(_ value: Value) async throws(JSONFileError) {
    let bytes = try encode(value)
    let work = work
    let place = try await offTheCaller { () throws(JSONFileError) in try work.prepareWrite() }
    try refuseToReplace(place.existing)
    try await offTheCaller { () throws(JSONFileError) in try work.write(bytes, at: place) }
  }

  /// Throws ``JSONFileError/refusedToReplace(_:)`` when the file that a save would replace does
  /// not load.
  private func refuseToReplace(_ existing: FileSystem.ReadOutcome) throws(JSONFileError) {
    do throws(JSONFileError) {
      _ = try value(in: existing)
    } catch {
      throw .refusedToReplace(error)
    }
  }

  /// The value as the file's bytes: the envelope, as JSON, at most ``maximumBytes``.
  private func encode(_ value: Value) throws(JSONFileError) -> [UInt8] {
    if let refusal { throw .writeFailed(path: path, reason: refusal) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let bytes: [UInt8]
    do {
      bytes = Array(try encoder.encode(Envelope(version: version, value: value)))
    } catch let error as EncodingError {
      throw .writeFailed(path: path, reason: Self.describe(error))
    } catch {
      throw .writeFailed(path: path, reason: "the value cannot be written as JSON: \(error)")
    }
    guard bytes.count <= maximumBytes else {
      throw .valueTooLarge(path: path, byteCount: bytes.count, limit: maximumBytes)
    }
    return bytes
  }

  // MARK: - Moving aside

  /// Renames the file to a backup beside it, so that a file that does not load is kept while the
  /// app starts over: `notes.json` becomes `notes.json.backup`, or `notes.json.backup-2`, and so on
  /// if that exists.
  ///
  /// An existing backup is never replaced.
  /// - Returns: Where the file now is, or `nil` if nothing was at the path.
  /// - Throws: ``JSONFileError/moveAsideFailed(path:reason:)``; the file is then still at its path.
  public func moveAside() throws(JSONFileError) -> URL? {
    if let refusal { throw .moveAsideFailed(path: path, reason: refusal) }
    do throws(FileSystem.Failure) {
      guard try FileSystem.exists(path) else { return nil }
      for number in 1...1_000 {
        let backup = number == 1 ? "\(path).backup" : "\(path).backup-\(number)"
        // NB: a backup made between this check and the rename would be replaced; two apps moving
        // the same file aside at the same moment is not a case worth a lock.
        guard try !FileSystem.exists(backup) else { continue }
        try FileSystem.move(path, to: backup)
        return URL(filePath: backup)
      }
    } catch {
      throw .moveAsideFailed(path: path, reason: error.message)
    }
    throw .moveAsideFailed(path: path, reason: "1000 backups of it exist already")
  }

  // MARK: - The format

  /// Describes a decoding error by the place in the file: `value.notes[1]: Expected …`.
  private static func describe(_ error: DecodingError) -> String {
    let (codingPath, detail): ([any CodingKey], String)
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .dataCorrupted(let context):
      (codingPath, detail) = (context.codingPath, context.debugDescription)
    case .keyNotFound(let key, let context):
      (codingPath, detail) = (context.codingPath, "no value for \"\(key.stringValue)\".")
    @unknown default:
      return "\(error)"
    }
    guard let first = codingPath.first, first.stringValue == EnvelopeKey.value.stringValue else {
      return """
        it is not in the format JSONFile writes, {"formatVersion": 1, "value": …}: \(detail)
        """
    }
    return "\(codingPathText(codingPath, dotted: false)): \(detail)"
  }

  // NB: not `"\(error)"`, which holds the whole value: the user's data, in a message of any size.
  /// A sentence for an encoder's error: where in the value, and what the encoder said.
  private static func describe(_ error: EncodingError) -> String {
    switch error {
    case .invalidValue(_, let context):
      let place = codingPathText(context.codingPath, dotted: false)
      return "the value cannot be written as JSON"
        + (place.isEmpty ? "" : " at \(place)") + ": \(context.debugDescription)"
    @unknown default:
      return "the value cannot be written as JSON"
    }
  }
}

/// A ``JSONFile``'s work on the disk, apart from its value, so that it can run off the caller's
/// isolation while the value is encoded and decoded on it.
private struct JSONFileWork: Sendable {
  /// The file's path.
  let path: String
  /// Why every call fails, for a URL that cannot name a file.
  let refusal: String?
  /// The largest file to read.
  let maximumBytes: Int

  /// Where a save writes, and what is there now.
  struct Place: Sendable {
    /// The file the path leads to, through any symbolic links.
    var target: String
    /// Its folder.
    var folder: String
    /// Its name.
    var name: String
    /// What a read of the path finds: the file the save would replace.
    var existing: FileSystem.ReadOutcome
  }

  /// Reads the file, up to the limit.
  func read() throws(JSONFileError) -> FileSystem.ReadOutcome {
    if let refusal { throw .unreadable(path: path, reason: refusal) }
    do throws(FileSystem.Failure) {
      return try FileSystem.contents(of: path, limit: maximumBytes)
    } catch {
      throw .unreadable(path: path, reason: error.message)
    }
  }

  /// Follows links, creates the folders above the file, and reads the file a save would replace.
  func prepareWrite() throws(JSONFileError) -> Place {
    if let refusal { throw .writeFailed(path: path, reason: refusal) }
    let target: String
    do throws(FileSystem.Failure) {
      target = try FileSystem.followingLinks(path)
    } catch {
      throw .writeFailed(path: path, reason: error.message)
    }
    let (folder, name) = FileSystem.split(target)
    do throws(FileSystem.Failure) {
      try FileSystem.createFolders(folder)
    } catch {
      throw .writeFailed(path: path, reason: error.message)
    }
    let existing: FileSystem.ReadOutcome
    do throws(JSONFileError) {
      existing = try read()
    } catch {
      throw .refusedToReplace(error)
    }
    return Place(target: target, folder: folder, name: name, existing: existing)
  }

  /// Writes `bytes` to a new file beside the target, flushes it, and renames it over the target.
  func write(_ bytes: [UInt8], at place: Place) throws(JSONFileError) {
    let temporary = TemporaryFiles.begin(folder: place.folder, name: place.name)
    defer { TemporaryFiles.end(temporary) }
    do throws(FileSystem.Failure) {
      try FileSystem.writeNewFile(temporary, bytes: bytes)
      try FileSystem.move(temporary, to: place.target)
    } catch {
      FileSystem.remove(temporary)
      throw .writeFailed(path: path, reason: error.message)
    }
    FileSystem.syncFolder(place.folder)
    TemporaryFiles.removeStale(folder: place.folder, name: place.name)
  }
}

/// Runs `work` on the global concurrent executor, off the caller's isolation.
@concurrent
private func offTheCaller<T: Sendable>(
  _ work: @Sendable () throws(JSONFileError) -> T
) async throws(JSONFileError) -> T {
  try work()
}

/// The keys of the file's envelope.
private enum EnvelopeKey: String, CodingKey {
  case formatVersion
  case value
}

/// The file's content: the format's version, and the value.
private struct Envelope<Value: Codable>: Codable {
  var version: Int
  var value: Value

  init(version: Int, value: Value) {
    self.version = version
    self.value = value
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: EnvelopeKey.self)
    version = try container.decode(Int.self, forKey: .formatVersion)
    // NB: the version is checked before the value is decoded: a newer format may not decode.
    if let supported = decoder.userInfo[.supportedVersion] as? Int, version > supported {
      throw NewerVersion(found: version)
    }
    guard version >= 1 else {
      throw DecodingError.dataCorruptedError(
        forKey: .formatVersion, in: container,
        debugDescription: "the format version is \(version), not 1 or more.")
    }
    value = try container.decode(Value.self, forKey: .value)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: EnvelopeKey.self)
    try container.encode(version, forKey: .formatVersion)
    try container.encode(value, forKey: .value)
  }
}

/// Thrown while decoding a file of a newer format than the app reads.
private struct NewerVersion: Error {
  var found: Int
}

extension CodingUserInfoKey {
  /// The newest format version the decoder reads.
  fileprivate static let supportedVersion = CodingUserInfoKey(
    rawValue: "JSONFile.supportedVersion")!
}

/// Whether JSON text ends before its value does.
///
/// It ends early when it holds no value at all, or when its value begins as an object, an array
/// or a string and the text ends inside a string or with an object or array still open. For text
/// that did not parse, it tells a truncated file from a corrupt one: text that begins with
/// anything else (binary data, a word), or goes on after a whole value, is not taken for JSON cut
/// short.
///
/// - Complexity: O(*n*) in the number of bytes, with no allocation.
func jsonEndsEarly(_ bytes: some Sequence<UInt8>) -> Bool {
  var depth = 0
  var inString = false
  var escaped = false
  var first: UInt8?
  // NB: text after a whole value is wrong, not short, even when it opens something.
  var isValueWhole = false
  for byte in bytes {
    if inString {
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        inString = false
        if depth == 0 { isValueWhole = true }
      }
      continue
    }
    switch byte {
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
      continue
    default:
      if isValueWhole { return false }
    }
    switch byte {
    case UInt8(ascii: "\""):
      inString = true
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      depth += 1
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      depth -= 1
      // NB: more closed than opened: the text is wrong, not short.
      if depth < 0 { return false }
      if depth == 0 { isValueWhole = true }
    default:
      break
    }
    if first == nil {
      first = byte
      guard byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "\"")
      else { return false }
    }
  }
  return first == nil || inString || depth > 0
}

/// A coding path as errors print it, `notes[3].text` (or `.notes[3].text` when `dotted`), with
/// each key cut to 40 characters, and a path of more than 7 keys cut to its first 3 and last 4:
/// an error quotes at most a few hundred characters of a file, whatever its depth.
func codingPathText(_ codingPath: some Collection<any CodingKey>, dotted: Bool) -> String {
  func text(_ key: any CodingKey, isFirst: Bool) -> String {
    if let index = key.intValue { return "[\(index)]" }
    let name = key.stringValue.count <= 40 ? key.stringValue : key.stringValue.prefix(40) + "…"
    return isFirst && !dotted ? name : ".\(name)"
  }
  let keys = Array(codingPath)
  guard keys.count > 7 else {
    return keys.indices.map { text(keys[$0], isFirst: $0 == 0) }.joined()
  }
  return keys.prefix(3).indices.map { text(keys[$0], isFirst: $0 == 0) }.joined()
    + "…(\(keys.count - 7) more)…" + keys.suffix(4).map { text($0, isFirst: false) }.joined()
}
