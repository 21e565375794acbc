/// The command line of `decisions-bench`, parsed by hand: the package has no dependencies.
struct Options: Equatable {
  /// Fewer events and runs, for a smoke test in CI (well under 30 seconds).
  var quick = false
  /// The cases to run, by number; empty runs all of them.
  var cases: Set<Int> = []
  /// The rows to run, by id ("5b"), for cases given with a row letter; those cases run no other row.
  var rows: Set<String> = []
  /// Events per run (stores, for case 10) for every selected case, instead of each case's own count.
  var events: Int?
  /// Timed runs per case, instead of the default.
  var runs: Int?
  /// Untimed warm-up runs per case, instead of the default.
  var warmup: Int?
  /// Whether to count heap allocations by running this program again under valgrind (case 10).
  var countAllocations = true
  /// Whether to only check the heap allocations per event against their budgets, for CI.
  var checkAllocations = false
  /// Whether to print the usage and exit.
  var help = false

  /// The numbers of all cases.
  static let allCases = 1...19

  /// The text `--help` prints.
  static let usage = """
    USAGE: decisions-bench [--quick] [--case <n>]... [--events <n>] [--runs <n>] [--warmup <n>]
                           [--no-valgrind] [--check-allocations] [--help]

    Measures the Decisions Store against a floor (the core called directly), checks each case's
    result, and prints ns per event. Build it in release mode:

      swift run -c release decisions-bench

    OPTIONS:
      --quick          Fewer events and runs: a smoke test that finishes in well under 30 s.
      --case <n>       Run only case <n> (1-19). Repeat it, or give a list: --case 2,3.
                       A row letter runs one row of a case: --case 5b.
      --events <n>     Events per run for every selected case (for case 10: stores to create).
      --runs <n>       Timed runs per case (default 7; 3 with --quick).
      --warmup <n>     Untimed warm-up runs per case (default 1).
      --no-valgrind    Do not count heap allocations under valgrind (case 10; Linux only).
      --check-allocations
                       Only count heap allocations per event under valgrind for the cases
                       with a budget (2: none, 4: one, 7d: three, 17b: none, 17d: one) and exit 1
                       if one is over it.
      -h, --help       Show this help.

    CASES:
      1  floor: Core.makeDecisions called directly in a loop, no Store
      2  await store.send, an event with no decisions, from one task
      3  store.post from synchronous code, then await store.settle()
      4  an event with one quick decision performed in place
      5  effect round trip: event -> long work -> Deps closure -> event back (latency);
         5b the same chain written by hand: an actor that starts a Task per trip;
         5c the same, each Task started off the actor, as a store's work is
      6  the same store with 1 and with 100 states() observers; 6c with a diagnostics hook
         that reads each state instead (a synchronous observer on the store's executor)
      7  a three-level composed feature vs the flat one
      8  baseline: an idiomatic @Observable view model doing the same work
      9  the UI path: a burst of events from the main actor through ObservableStore
      10 memory: bytes per idle Store; heap allocations per event (valgrind)
      11 case 2 from an actor that does some work between sends (both executor switches);
         11b the same events in batches of 100 with send(contentsOf:)
      12 an event for one of 10, 1,000 or 100,000 rows of an IdentifiedArray (and an array)
      13 explore: a breadth-first search of a core's states, with 2-, 64- and 512-byte states;
         13d the 3-byte walker with main-actor conformances, explored on the main actor;
         13e a feature with its work explored: keyed loads answering a value or failing, and a
         debounce on the explored clock; 13f a feature with no work in flight between steps
      14 MainStore.send on the main actor: the state is new when it returns (a frame's budget)
      15 a list of 10, 1,000 or 100,000 rows, every row loading: an event that updates one row
         (a-c), and one that removes a row (d-f), each flat across the sizes
      16 case 15's update on a MainStore, sent by the row's child model, with a model per row
         (up to 10,000)
      17 cases 2 and 4 without and with a flight recorder (1,000 events, a checkpoint every
         100), in the same run; 17e with the recorder checking an invariant after each event
      18 an event for a child of 100 or 1,600,000 elements: a sheet, a sheet's case, a stack
         screen of a case, a stack screen (each pair flat: the child changes in place)
      19 shrink: 50,000 recorded events (2,000 with --quick) where half (a) or 8 (b) matter,
         one run each, within the default time limit of 60 s; 19c is 19b with main-actor
         conformances, shrunk on the main actor
    """

  /// A command line that cannot be run, with the reason.
  struct UsageError: Error, Equatable {
    /// What is wrong, in one line.
    var message: String
  }

  /// Parses the arguments that follow the program's name.
  static func parse(_ arguments: some Sequence<String>) throws(UsageError) -> Options {
    var options = Options()
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      // NB: `--name=value` is accepted as well as `--name value`.
      let (name, inlineValue) = split(argument)
      func value() throws(UsageError) -> String {
        if let inlineValue { return inlineValue }
        guard let next = iterator.next() else {
          throw UsageError(message: "\(name) needs a value")
        }
        return next
      }
      switch name {
      case "--quick":
        try noValue(name, inlineValue)
        options.quick = true
      case "--case":
        for item in try value().split(separator: ",", omittingEmptySubsequences: false) {
          // NB: a letter after the number picks one row of the case: `--case 5b`.
          let digits = String(item.prefix { $0.isASCII && $0.isNumber })
          let letter = item.dropFirst(digits.count)
          let number = try positive(digits.isEmpty ? String(item) : digits, for: name)
          guard allCases.contains(number) else {
            throw UsageError(
              message: "--case must be between 1 and \(allCases.upperBound), not \(number)")
          }
          if !letter.isEmpty {
            guard letter.count == 1, let first = letter.first, first.isLowercase, first.isASCII
            else {
              throw UsageError(
                message: "--case takes a number, or a number and one row letter (5b), not '\(item)'"
              )
            }
            options.rows.insert(String(item))
          }
          options.cases.insert(number)
        }
      case "--events":
        options.events = try positive(value(), for: name)
      case "--runs":
        options.runs = try positive(value(), for: name)
      case "--warmup":
        options.warmup = try natural(value(), for: name)
      case "--no-valgrind":
        try noValue(name, inlineValue)
        options.countAllocations = false
      case "--check-allocations":
        try noValue(name, inlineValue)
        options.checkAllocations = true
      case "-h", "--help":
        try noValue(name, inlineValue)
        options.help = true
      default:
        throw UsageError(message: "unknown argument '\(argument)'")
      }
    }
    return options
  }

  /// Whether case `number` is selected.
  func runs(case number: Int) -> Bool {
    cases.isEmpty || cases.contains(number)
  }

  private static func split(_ argument: String) -> (String, String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else {
      return (argument, nil)
    }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  private static func noValue(_ name: String, _ value: String?) throws(UsageError) {
    if value != nil { throw UsageError(message: "\(name) takes no value") }
  }

  private static func positive(_ text: String, for name: String) throws(UsageError) -> Int {
    let number = try natural(text, for: name)
    guard number > 0 else { throw UsageError(message: "\(name) must be at least 1") }
    return number
  }

  private static func natural(_ text: String, for name: String) throws(UsageError) -> Int {
    guard let number = Int(text.filter { $0 != "_" }), number >= 0 else {
      throw UsageError(message: "\(name) needs a whole number, not '\(text)'")
    }
    return number
  }
}
