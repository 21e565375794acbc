import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Android)
  import Android
#endif

// The POSIX calls behind `JSONFile`: Foundation's file APIs either read a file whole before its
// size is known, or would block on a named pipe, or word their errors differently on each platform.
// Each function here says in its error what went wrong, in the words of `strerror` or its own.

/// Reads, writes, renames and creates files by path.
enum FileSystem {
  /// Why a call failed, in words.
  struct Failure: Error {
    var message: String

    /// The failure that the `errno` value `code` names.
    init(code: Int32) {
      message = String(cString: strerror(code))
    }

    /// A failure in words of its own.
    init(_ message: String) {
      self.message = message
    }

    /// The failure of the call that just set `errno`.
    static func last() -> Self { Self(code: errno) }
  }

  /// What reading a file found.
  enum ReadOutcome {
    /// No file is at the path.
    case missing
    /// The file's bytes.
    case bytes([UInt8])
    /// The file is larger than the limit: its size, and nothing was read.
    case tooLarge(Int)
  }

  /// Reads the regular file at `path` whole, unless it is larger than `limit` bytes.
  ///
  /// A named pipe, a device or a directory at the path is refused before anything is read from
  /// it, and opening does not block.
  /// - Throws: A ``Failure`` whose message says what is at the path, or why it cannot be read.
  static func contents(of path: String, limit: Int) throws(Failure) -> ReadOutcome {
    // NB: O_NONBLOCK so that opening a named pipe with no writer returns at once; fstat on the open
    // file then tells what it is, with no window for the path to change in between.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT { return .missing }
      if code == ENOTDIR {
        throw Failure("a folder on its path is a file")
      }
      throw Failure(code: code)
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw .last() }
    let type = info.st_mode & mode_t(S_IFMT)
    if type == mode_t(S_IFDIR) {
      throw Failure("it is a folder, not a file")
    }
    guard type == mode_t(S_IFREG) else {
      throw Failure("it is not a regular file (a pipe, socket or device)")
    }
    // NB: clamped: `Int` is 32 bits on some watches, and a file can be larger.
    let size = Int(clamping: info.st_size)
    if size > limit { return .tooLarge(size) }
    // NB: read in chunks until the end, rather than `size` bytes, and stop past the limit: a file
    // that grew since fstat is caught too, and memory stays within the limit and one chunk.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(max(0, size))
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while bytes.count <= limit {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .last()
      }
      if count == 0 { return .bytes(bytes) }
      bytes.append(contentsOf: chunk[..<count])
    }
    return .tooLarge(bytes.count)
  }

  /// Whether anything is at `path`: a symbolic link counts, whatever it links to.
  static func exists(_ path: String) throws(Failure) -> Bool {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      let code = errno
      if code == ENOENT { return false }
      throw Failure(code: code)
    }
    return true
  }

  /// Whether `path` is a symbolic link.
  static func isSymbolicLink(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & mode_t(S_IFMT) == mode_t(S_IFLNK)
  }

  /// Splits `path` at its last slash into the folder ("" for the root) and the name.
  ///
  /// The split is by bytes: a slash followed by a combining mark is one `Character`, and still a
  /// slash to the file system.
  static func split(_ path: String) -> (folder: String, name: String) {
    let bytes = path.utf8
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return ("", path) }
    return (
      String(decoding: bytes[..<slash], as: UTF8.self),
      String(decoding: bytes[bytes.index(after: slash)...], as: UTF8.self)
    )
  }

  /// The path that writing to `path` replaces: `path` itself, or where the symbolic link there
  /// leads, link after link, whether or not anything is there yet.
  ///
  /// A relative link is read from the link's folder.
  /// - Throws: A ``Failure`` when a link cannot be read, or after 40 links (a loop).
  static func followingLinks(_ path: String) throws(Failure) -> String {
    var current = path
    for _ in 0..<40 {
      guard isSymbolicLink(current) else { return current }
      var buffer = [CChar](repeating: 0, count: 4096)
      let count = buffer.withUnsafeMutableBufferPointer {
        readlink(current, $0.baseAddress!, $0.count)
      }
      guard count >= 0 else { throw .last() }
      guard count < buffer.count else {
        throw Failure("the symbolic link \(current) leads to a path too long to follow")
      }
      let destination = String(
        decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      current =
        destination.utf8.first == UInt8(ascii: "/")
        ? destination : split(current).folder + "/" + destination
    }
    throw Failure("the symbolic link \(path) leads through too many links (a loop?)")
  }

  /// Creates the folder at `path` and the folders above it that are missing.
  static func createFolders(_ path: String) throws(Failure) {
    var folder = ""
    // NB: split by bytes, like `split(_:)`.
    for component in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
    {
      folder += "/" + String(decoding: component, as: UTF8.self)
      if mkdir(folder, 0o777) == 0 { continue }
      // NB: the reason is looked for only once mkdir failed: some systems report EROFS or EACCES
      // rather than EEXIST for a folder that exists.
      let code = errno
      var info = stat()
      guard stat(folder, &info) == 0 else {
        throw Failure("could not create the folder \(folder): \(Failure(code: code).message)")
      }
      guard info.st_mode & mode_t(S_IFMT) == mode_t(S_IFDIR) else {
        throw Failure("\(folder) is a file, not a folder")
      }
    }
  }

  /// Writes `bytes` to a new file at `path`, flushed to the disk, failing if anything is there.
  ///
  /// On failure, the file is removed if it was created.
  static func writeNewFile(_ path: String, bytes: [UInt8]) throws(Failure) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { throw .last() }
    var failure: Failure?
    var written = 0
    while written < bytes.count {
      let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if result < 0 {
        if errno == EINTR { continue }
        failure = .last()
        break
      }
      written += result
    }
    if failure == nil, fsync(descriptor) != 0 { failure = .last() }
    if close(descriptor) != 0, failure == nil { failure = .last() }
    if let failure {
      unlink(path)
      throw failure
    }
  }

  /// Renames `source` to `destination`, replacing what is there in one step.
  static func move(_ source: String, to destination: String) throws(Failure) {
    guard rename(source, destination) == 0 else { throw .last() }
  }

  /// Flushes the folder at `path` to the disk, so that a rename in it survives a power loss; does
  /// nothing where a folder cannot be opened for that.
  static func syncFolder(_ path: String) {
    let descriptor = open(path.isEmpty ? "/" : path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }

  /// Removes the file at `path`, if any.
  static func remove(_ path: String) {
    unlink(path)
  }

  /// The names in the folder at `path` ("" for the root), or nil if it cannot be listed.
  static func names(in path: String) -> [String]? {
    guard let directory = opendir(path.isEmpty ? "/" : path) else { return nil }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// Whether the process `id` is still running, as far as this process can tell: true unless the
  /// system says there is no such process.
  static func processIsRunning(_ id: Int32) -> Bool {
    kill(pid_t(id), 0) == 0 || errno != ESRCH
  }

  /// How many seconds ago the file at `path` last changed, or nil if nothing is there.
  static func secondsSinceChanged(_ path: String) -> Int? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    #if canImport(Darwin)
      let changed = info.st_mtimespec.tv_sec
    #else
      let changed = info.st_mtim.tv_sec
    #endif
    return Int(time(nil) - changed)
  }

  /// This process's id.
  static var processID: Int32 { Int32(getpid()) }
}

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
