#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - Plan

/// How much to run: warm-up and timed runs per case, and how the events per run are chosen.
struct Plan: Sendable {
  /// Untimed runs before the timed ones.
  var warmup: Int
  /// Timed runs; the table reports their median, minimum and maximum.
  var runs: Int
  /// Whether this is the quick smoke test.
  var quick: Bool
  /// Events per run for every case, overriding each case's own count.
  var eventsOverride: Int?
  /// The rows asked for by id ("5b"); a case named this way runs no other row.
  var rows: Set<String> = []

  /// Whether the row `id` runs: it does unless the command line picked other rows of its case.
  func selects(_ id: String) -> Bool {
    let number = id.prefix { $0.isNumber }
    let picked = rows.filter { $0.prefix { $0.isNumber } == number }
    return picked.isEmpty || picked.contains(id)
  }

  /// The plan for a command line.
  init(_ options: Options) {
    quick = options.quick
    warmup = options.warmup ?? 1
    runs = options.runs ?? (options.quick ? 3 : 7)
    eventsOverride = options.events
    rows = options.rows
  }

  /// The events per run for a case whose full run sends `full` events; quick runs send a tenth.
  func events(_ full: Int) -> Int {
    eventsOverride ?? (quick ? max(1, full / 10) : full)
  }
}

// MARK: - Rows

/// One line of the results table: a case's cost per event over its timed runs.
struct Row: Sendable {
  /// The case's number, with a letter for its variants: "6b".
  var id: String
  /// What was measured.
  var title: String
  /// Events (or round trips) per run.
  var events: Int
  /// Nanoseconds per event, one value per timed run.
  var nanos: [Double]
  /// Anything a reader needs to interpret the row, printed under the table.
  var note: String?
  /// For the UI path: the most main-actor deliveries one burst took.
  var deliveries: Int?

  /// The median of the runs.
  var median: Double {
    let sorted = nanos.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// The fastest run.
  var min: Double { nanos.min() ?? .nan }
  /// The slowest run.
  var max: Double { nanos.max() ?? .nan }
}

/// Runs `run` after the plan's warm-up runs and returns a row with one value per timed run.
///
/// `run` does one run of `events` events: it sets up, times only the events (returning the time),
/// and checks its result with ``check(_:_:)``. It runs on the caller's actor, if any.
func measure(
  _ id: String,
  _ title: String,
  events: Int,
  plan: Plan,
  note: String? = nil,
  isolation: isolated (any Actor)? = #isolation,
  _ run: (_ events: Int) async -> Duration
) async -> Row {
  guard plan.selects(id) else { return Row(id: id, title: title, events: events, nanos: []) }
  for _ in 0..<plan.warmup { _ = await run(events) }
  var nanos: [Double] = []
  for _ in 0..<plan.runs {
    nanos.append(nanoseconds(await run(events)) / Double(events))
  }
  return Row(id: id, title: title, events: events, nanos: nanos, note: note)
}

/// Runs `run` like ``measure(_:_:events:plan:note:isolation:_:)``, synchronously on the calling
/// thread: for a case that must not suspend, on a main thread that serves no queue (case 16).
func measureOnThisThread(
  _ id: String,
  _ title: String,
  events: Int,
  plan: Plan,
  _ run: (_ events: Int) -> Duration
) -> Row {
  guard plan.selects(id) else { return Row(id: id, title: title, events: events, nanos: []) }
  for _ in 0..<plan.warmup { _ = run(events) }
  var nanos: [Double] = []
  for _ in 0..<plan.runs {
    nanos.append(nanoseconds(run(events)) / Double(events))
  }
  return Row(id: id, title: title, events: events, nanos: nanos)
}

/// The elapsed time of `body`, run on the global executor rather than the main actor.
func timedInBackground(_ body: @escaping @Sendable () async -> Void) async -> Duration {
  await Task.detached {
    let clock = ContinuousClock()
    return await clock.measure { await body() }
  }.value
}

/// A duration in nanoseconds.
func nanoseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
}

// MARK: - Self-checks

/// The case being measured, named in a failed self-check's message.
nonisolated(unsafe) var currentCase = "?"

/// Stops the program with a clear message and exit status 1 unless `condition` holds.
///
/// Every case checks its own result with this, so a benchmark that measures the wrong thing (lost
/// events, work that never ran) fails instead of printing a fast number.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  guard !condition else { return }
  printError("decisions-bench: self-check failed in case \(currentCase): \(message())")
  exit(1)
}

/// Prints a line to standard error.
func printError(_ line: String) {
  var bytes = Array((line + "\n").utf8)
  // NB: `write` on descriptor 2, because the C library's `stderr` is a global Swift 6 rejects.
  _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}

// MARK: - Formatting

/// Formats `value` with `decimals` digits after the point, without Foundation.
func fixed(_ value: Double, _ decimals: Int) -> String {
  guard value.isFinite else { return "-" }
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let scaled = (abs(value) * scale).rounded()
  let whole = grouped(Int(scaled / scale))
  let sign = value < 0 && scaled != 0 ? "-" : ""
  guard decimals > 0 else { return sign + whole }
  let fraction = String(Int(scaled.truncatingRemainder(dividingBy: scale)))
  return sign + whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
}

/// Formats a number with a digit count that suits its size: 3 significant digits, at least.
func readable(_ value: Double) -> String {
  switch abs(value) {
  case ..<10: fixed(value, 2)
  case ..<100: fixed(value, 1)
  default: fixed(value, 0)
  }
}

/// Formats an integer with thousands separators: 1,000,000.
func grouped(_ value: Int) -> String {
  let digits = String(value.magnitude)
  var result = ""
  for (index, digit) in digits.enumerated() {
    if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
    result.append(digit)
  }
  return (value < 0 ? "-" : "") + result
}

/// Formats a rate with an SI suffix: 12.3 M.
func rate(_ perSecond: Double) -> String {
  switch perSecond {
  case 1e9...: readable(perSecond / 1e9) + " G"
  case 1e6...: readable(perSecond / 1e6) + " M"
  case 1e3...: readable(perSecond / 1e3) + " k"
  default: readable(perSecond)
  }
}

/// Pads `text` on the left (numbers) or right (text) to `width` characters.
func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
  let padding = String(repeating: " ", count: Swift.max(0, width - text.count))
  return right ? text + padding : padding + text
}
