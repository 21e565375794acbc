import Synchronization

// The temporary files of `JSONFile.save`: named after the file, the process and a random number,
// `.notes.json.4711-9382746.tmp`, so that a later save can tell the ones a gone process left (killed
// in the middle of a save) from the ones a save still in flight is writing, here or in another
// process, and remove only the first.

/// Names the temporary files of saves, and removes the stale ones.
enum TemporaryFiles {
  /// The temporary files of this process's saves in flight, by path.
  // NB: `Protected`, not `Mutex`: on Linux ThreadSanitizer cannot see `Mutex` hand over its lock
  // and reported races here (see Store/Protected.swift).
  private static let inFlight = Protected<Set<String>>([])

  /// The part of a temporary file's name before the process id: a dot, the file's name cut to 100
  /// bytes, and a dot.
  ///
  /// The name is cut so that the temporary file's name stays within the 255 bytes of most file
  /// systems however long the file's name is.
  private static func prefix(of name: String) -> String {
    "." + String(decoding: name.utf8.prefix(100), as: UTF8.self) + "."
  }

  /// A new temporary file's path for a save of `name` in `folder`, marked in flight until
  /// ``end(_:)``.
  static func begin(folder: String, name: String) -> String {
    let path =
      "\(folder)/\(prefix(of: name))\(FileSystem.processID)-"
      + "\(UInt64.random(in: 0...UInt64.max)).tmp"
    inFlight.withLock { _ = $0.insert(path) }
    return path
  }

  /// Marks the temporary file at `path` no longer in flight.
  static func end(_ path: String) {
    inFlight.withLock { _ = $0.remove(path) }
  }

  /// The process id in `entry`, if it is the name of a temporary file of a save of `name`.
  static func processID(inName entry: String, of name: String) -> Int32? {
    let prefix = prefix(of: name)
    guard entry.utf8.starts(with: prefix.utf8) else { return nil }
    // NB: by bytes: the prefix may end in the middle of a Character of the entry.
    let rest = entry.utf8.dropFirst(prefix.utf8.count)
    let parts = rest.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
    guard parts.count == 2, let suffix = parts[1].lastIndex(of: UInt8(ascii: ".")),
      String(decoding: parts[1][suffix...], as: UTF8.self) == ".tmp",
      let random = UInt64(String(decoding: parts[1][..<suffix], as: UTF8.self)),
      String(random) == String(decoding: parts[1][..<suffix], as: UTF8.self),
      let process = Int32(String(decoding: parts[0], as: UTF8.self)), process > 0
    else { return nil }
    return process
  }

  /// How long ago, in seconds, another process's temporary file must have last changed before it
  /// is taken for stale.
  ///
  /// A process that is gone writes nothing, so this only matters where process ids do not tell
  /// (a writer in another container sharing the folder): a save in flight writes its file within
  /// seconds.
  static let quietSeconds = 600

  /// Removes the temporary files of saves of `name` in `folder` that no save is writing: those of
  /// this process that are not in flight, and those of a process that is gone, unchanged for
  /// ``quietSeconds``.
  ///
  /// Best effort: a folder that cannot be listed, or a file that cannot be removed, is left.
  static func removeStale(folder: String, name: String) {
    guard let entries = FileSystem.names(in: folder) else { return }
    let me = FileSystem.processID
    for entry in entries {
      guard let process = processID(inName: entry, of: name) else { continue }
      let path = "\(folder)/\(entry)"
      if process == me {
        // NB: checked and removed under the lock, so that no save of this process can begin
        // with this name in between (a random 64-bit name, so that would be a collision anyway).
        inFlight.withLock { paths in
          if !paths.contains(path) { FileSystem.remove(path) }
        }
      } else if !FileSystem.processIsRunning(process),
        let age = FileSystem.secondsSinceChanged(path), age >= quietSeconds
      {
        FileSystem.remove(path)
      }
    }
  }
}
