/// Everything one run of the program measured, and how to print it.
struct Report {
  /// The timed cases, in the order they ran.
  var rows: [Row] = []
  /// The memory measurements.
  var memory: [MemoryLine] = []

  /// The row with this id, if that case ran.
  func row(_ id: String) -> Row? {
    rows.first { $0.id == id }
  }

  /// The memory line with this id, if it was measured.
  func memory(_ id: String) -> MemoryLine? {
    memory.first { $0.id == id }
  }

  // MARK: - Tables

  /// Prints the timing table, its notes, and the memory table.
  func printTables() {
    let floor = row("1")?.median
    if !rows.isEmpty {
      print(
        pad("case", 4, right: true), pad("what", 42, right: true), pad("events/run", 11),
        pad("median ns", 10), pad("min ns", 9), pad("max ns", 9), pad("events/s", 9),
        pad("× floor", 8))
      for row in rows {
        print(
          pad(row.id, 4, right: true), pad(row.title, 42, right: true),
          pad(grouped(row.events), 11),
          pad(readable(row.median), 10), pad(readable(row.min), 9), pad(readable(row.max), 9),
          pad(rate(1e9 / row.median), 9), pad(floor.map { readable(row.median / $0) } ?? "-", 8))
      }
      let notes = rows.compactMap { row in row.note.map { "  \(row.id): \($0)" } }
      if !notes.isEmpty {
        print()
        for note in notes { print(note) }
      }
    }
    if !memory.isEmpty {
      print()
      print(pad("case", 4, right: true), pad("memory", 42, right: true), pad("value", 11), " how")
      for line in memory {
        print(
          pad(line.id, 4, right: true), pad(line.title, 42, right: true), pad(line.value, 11),
          " " + line.how)
      }
    }
  }

  /// Prints how many events of the main cases fit in one frame at 60 and 120 Hz.
  func printFrameBudget() {
    let rows = ["2", "11", "3", "4", "5a", "5b", "5c", "9b", "9c", "14a", "14b", "14c"].compactMap {
      row($0)
    }
    guard !rows.isEmpty else { return }
    print()
    print(
      "events per frame at the median cost, if they had the whole frame (the UI needs most of it)")
    print(
      pad("case", 4, right: true), pad("what", 42, right: true), pad("60 Hz", 11), pad("120 Hz", 10)
    )
    for row in rows {
      print(
        pad(row.id, 4, right: true), pad(row.title, 42, right: true),
        pad(grouped(Int(1e9 / 60 / row.median)), 11), pad(grouped(Int(1e9 / 120 / row.median)), 10))
    }
  }

  // MARK: - Targets

  /// One of the issue's targets, checked against this run.
  struct Target {
    /// What the target asks for.
    var goal: String
    /// What this run measured, or `nil` if the cases it needs did not run.
    var measured: String?
    /// Whether it was met.
    var isMet: Bool
  }

  /// The issue's targets, checked against this run: informational, never a failure.
  var targets: [Target] {
    var targets: [Target] = []
    func ratio(_ id: String, to baseline: String) -> Double? {
      guard let measured = row(id), let base = row(baseline) else { return nil }
      return measured.median / base.median
    }
    func add(
      _ goal: String, _ value: Double?, _ format: (Double) -> String, _ isMet: (Double) -> Bool
    ) {
      targets.append(
        Target(goal: goal, measured: value.map(format), isMet: value.map(isMet) ?? false))
    }
    let times = { (value: Double) in "\(readable(value))× the floor" }
    add("case 2 at most 10× the floor", ratio("2", to: "1"), times) { $0 <= 10 }
    add("case 3 at most 10× the floor", ratio("3", to: "1"), times) { $0 <= 10 }
    let allocations = { (value: Double) in "\(fixed(value, 2)) allocations per event" }
    add("case 2: no heap allocation per event", memory("10b")?.number, allocations) { $0 < 0.01 }
    add("case 3: no heap allocation per event", memory("10c")?.number, allocations) { $0 < 0.01 }
    let plain = { (value: Double) in "\(readable(value))×" }
    let micro = { (value: Double) in "median \(readable(value / 1_000)) µs" }
    add("case 5: round trip under 10 µs", row("5a")?.median, micro) { $0 < 10_000 }
    add("case 5: round trip ≤ 0.6 µs (issue 16)", row("5a")?.median, micro) { $0 <= 600 }
    add("case 5: by hand off the actor ≤ 0.6 µs (5c)", row("5c")?.median, micro) { $0 <= 600 }
    add("case 5: round trip ≤ 2× by hand (5a / 5c)", ratio("5a", to: "5c"), plain) { $0 <= 2 }
    add("case 6: 100 observers < 20× one", ratio("6b", to: "6a"), plain) { $0 < 20 }
    let added = row("6a").flatMap { one in row("2").map { one.median - $0.median } }
    let nanos = { (value: Double) in "\(readable(value)) ns per event" }
    add("case 6: one observer adds ≤ 500 ns", added, nanos) { $0 <= 500 }
    add("case 7: composition < 2× flat (none)", ratio("7b", to: "7a"), plain) { $0 < 2 }
    add("case 7: composition < 2× flat (one)", ratio("7d", to: "7c"), plain) { $0 < 2 }
    let burst = row("9b").flatMap { burst in
      row("9a").map { hop in burst.median * Double(burst.events) / hop.median }
    }
    let hops = { (value: Double) in "\(readable(value)) main-actor round trips" }
    let size = grouped(row("9b")?.events ?? 1_000)
    add("case 9: \(size)-event burst < 10 round trips", burst, hops) { $0 < 10 }
    let deliveries = row("9b")?.deliveries.map(Double.init)
    let count = { (value: Double) in
      "at most \(Int(value)) deliver\(value == 1 ? "y" : "ies") per burst"
    }
    add("case 9: < 10 main-actor deliveries per burst", deliveries, count) { $0 < 10 }
    add("case 15: 1,000 rows loading ≤ 2× 10 rows", ratio("15b", to: "15a"), plain) { $0 <= 2 }
    add("case 15: 100,000 rows loading ≤ 2× 10 rows", ratio("15c", to: "15a"), plain) { $0 <= 2 }
    add("case 16: 1,000 models ≤ 2× 10 models", ratio("16b", to: "16a"), plain) { $0 <= 2 }
    add("case 16: 10,000 models ≤ 2× 10 models", ratio("16c", to: "16a"), plain) { $0 <= 2 }
    let recorderCost = { (recorded: String, plain: String) in
      row(recorded).flatMap { with in row(plain).map { with.median - $0.median } }
    }
    add("case 17: a recorder adds ≤ 30 ns (17b − 17a)", recorderCost("17b", "17a"), nanos) {
      $0 <= 30
    }
    add("case 17: a recorder adds ≤ 30 ns (17d − 17c)", recorderCost("17d", "17c"), nanos) {
      $0 <= 30
    }
    for (large, small) in [("18b", "18a"), ("18d", "18c"), ("18f", "18e"), ("18h", "18g")] {
      add("case 18: 1.6 M ≤ 2× 100 elements (\(large))", ratio(large, to: small), plain) { $0 <= 2 }
    }
    let transitions = { (value: Double) in "\(rate(value)) transitions/s" }
    add("case 13: explore ≥ 1 M transitions/s", row("13a").map { 1e9 / $0.median }, transitions) {
      $0 >= 1e6
    }
    let explored = row("13e").map { 1e9 / $0.median }
    add("case 13e: ≥ 100 k transitions/s explored", explored, transitions) { $0 >= 1e5 }
    return targets
  }

  /// Prints each target with the measured value and whether it was met.
  func printTargets() {
    let measured = targets.filter { $0.measured != nil }
    guard !measured.isEmpty else { return }
    print()
    print("targets (informational: only the self-checks can fail the program)")
    for target in measured {
      print(
        "  " + pad(target.goal, 44, right: true), pad(target.measured ?? "", 36, right: true),
        target.isMet ? "met" : "MISSED")
    }
  }
}
