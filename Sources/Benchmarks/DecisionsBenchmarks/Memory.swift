import Decisions

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One line of the memory table.
struct MemoryLine: Sendable {
  /// The case's number, with a letter for its variants: "10a".
  var id: String
  /// What was measured.
  var title: String
  /// The result, with its unit.
  var value: String
  /// How it was measured.
  var how: String
  /// The number a target is checked against, if any.
  var number: Double?
}

// MARK: - 10. Memory

/// Case 10: the resident memory of idle stores, and, under valgrind, heap allocations per event.
func memoryCase(_ plan: Plan, options: Options) async -> [MemoryLine] {
  let count = plan.eventsOverride ?? 100_000
  var stores: [Store<Counter>] = []
  stores.reserveCapacity(count)
  let before = residentBytes()
  for _ in 0..<count {
    stores.append(Store(state: .init(), deps: .none))
  }
  let after = residentBytes()
  // NB: the stores must be real, working stores, not something the optimizer could skip.
  for index in [0, count / 2, count - 1] {
    await stores[index].send(.increment)
    await expectCount(stores[index], 1)
  }
  check(stores.count == count, "created \(stores.count) of \(count) stores")
  var lines: [MemoryLine] = []
  if let before, let after {
    let perStore = Double(after - before) / Double(count)
    lines.append(
      MemoryLine(
        id: "10a", title: "idle Store<Counter>, resident memory", value: "\(fixed(perStore, 0)) B",
        how: "RSS (/proc/self/statm) before and after creating \(grouped(count)) stores",
        number: perStore))
  } else {
    lines.append(
      MemoryLine(
        id: "10a", title: "idle Store<Counter>, resident memory", value: "n/a",
        how: "resident memory is read from /proc/self/statm, on Linux only", number: nil))
  }
  stores = []
  guard options.countAllocations, !plan.quick, plan.eventsOverride == nil else { return lines }
  lines += await countAllocations()
  return lines
}

// MARK: - Resident memory

/// The resident memory of this process in bytes, or `nil` where it cannot be read.
func residentBytes() -> Int? {
  #if os(Linux)
    // NB: /proc/self/statm is "size resident shared text lib data dt", in pages.
    guard let text = readFile("/proc/self/statm") else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  #else
    return nil
  #endif
}

/// The system's load averages over 1, 5 and 15 minutes, or `nil` where they cannot be read.
func loadAverages() -> String? {
  #if os(Linux)
    guard let text = readFile("/proc/loadavg") else { return nil }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
  #else
    return nil
  #endif
}

/// The contents of a small text file, read with the C library.
func readFile(_ path: String) -> String? {
  let descriptor = open(path, O_RDONLY)
  guard descriptor >= 0 else { return nil }
  defer { close(descriptor) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4_096)
  while true {
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { break }
    bytes += buffer[..<count]
  }
  return String(decoding: bytes, as: UTF8.self)
}

// MARK: - Heap allocations, counted by valgrind

/// What valgrind's memcheck counted for one run: its "total heap usage" line.
struct HeapUsage {
  /// Calls to `malloc`, `calloc`, `realloc`, `posix_memalign` and friends.
  var allocations: Int
  /// Bytes allocated, in total.
  var bytes: Int
}

/// Counts heap allocations per event for cases 2-5, and per store for case 10, by running this
/// program under valgrind twice per case, with N and 2N events, and dividing the difference by N.
func countAllocations() async -> [MemoryLine] {
  #if os(Linux)
    let measured: [(id: String, case: String, title: String, unit: String, events: Int)] = [
      ("10b", "2", "heap allocations per event, case 2", "event", 5_000),
      // NB: case 3 starts a task per batch of posted events, and the batches vary from run to run,
      // so it needs more events for the same precision.
      ("10c", "3", "heap allocations per event, case 3", "event", 20_000),
      ("10d", "4", "heap allocations per event, case 4", "event", 5_000),
      ("10e", "5a", "heap allocations per round trip, case 5a", "round trip", 2_000),
      ("10f", "5b", "…the same, written by hand (case 5b)", "round trip", 2_000),
      ("10g", "10", "heap allocations per idle Store", "store", 2_000),
      ("10h", "5c", "…by hand, the Task off the actor (5c)", "round trip", 2_000),
    ]
    var lines: [MemoryLine] = []
    for item in measured {
      let small = runUnderValgrind(case: item.case, events: item.events)
      let large = runUnderValgrind(case: item.case, events: 2 * item.events)
      guard let small, let large else {
        lines.append(
          MemoryLine(
            id: item.id, title: item.title, value: "n/a",
            how: "needs valgrind on the PATH (or pass --no-valgrind)", number: nil))
        break
      }
      let perItem = Double(large.allocations - small.allocations) / Double(item.events)
      let bytes = Double(large.bytes - small.bytes) / Double(item.events)
      let events = grouped(item.events)
      lines.append(
        MemoryLine(
          id: item.id, title: item.title, value: fixed(perItem, 2),
          how: "memcheck, --case \(item.case) --events \(events) vs \(grouped(2 * item.events)), "
            + "\(fixed(bytes, 0)) B per \(item.unit)",
          number: perItem))
    }
    return lines
  #else
    return [
      MemoryLine(
        id: "10b", title: "heap allocations per event", value: "n/a",
        how: "counted with valgrind, on Linux only", number: nil)
    ]
  #endif
}

#if os(Linux)
  /// Runs this program's case `number` once, with no warm-up, under valgrind's memcheck, and returns
  /// its heap usage, or `nil` if valgrind could not be run.
  ///
  /// Stops the program if the case's own self-checks fail under valgrind.
  func runUnderValgrind(case number: String, events: Int) -> HeapUsage? {
    guard let program = executablePath() else { return nil }
    let log = "/tmp/decisions-bench-\(getpid())-\(number)-\(events).valgrind"
    defer { unlink(log) }
    let arguments = [
      "valgrind", "--tool=memcheck", "--leak-check=no", "--log-file=\(log)", program,
      "--case", "\(number)", "--events", "\(events)", "--runs", "1", "--warmup", "0",
      "--no-valgrind",
    ]
    guard let status = spawnAndWait(arguments) else { return nil }
    check(status == 0, "under valgrind, case \(number) exited with status \(status)")
    guard let text = readFile(log) else { return nil }
    return parseHeapUsage(text)
  }

  /// Parses memcheck's "total heap usage: 1,234 allocs, 1,200 frees, 56,789 bytes allocated".
  func parseHeapUsage(_ text: String) -> HeapUsage? {
    guard let line = text.split(separator: "\n").first(where: { $0.contains("total heap usage:") })
    else { return nil }
    let numbers = line.split(separator: " ").compactMap { Int($0.filter { $0 != "," }) }
    // NB: the line starts with "==pid==", which is not a number, so the numbers are exactly
    // allocs, frees and bytes.
    guard numbers.count >= 3 else { return nil }
    return HeapUsage(allocations: numbers[0], bytes: numbers[2])
  }

  /// The path of this program's executable.
  func executablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Runs a program found on the PATH with its output discarded, and returns its exit status, or
  /// `nil` if it could not be started or did not exit normally.
  func spawnAndWait(_ arguments: [String]) -> Int32? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid = pid_t()
    guard posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return nil }
    }
    // NB: WIFEXITED and WEXITSTATUS are C macros, which Swift does not import.
    guard status & 0x7f == 0 else { return nil }
    return (status >> 8) & 0xff
  }
#endif
