#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The heap allocations per event that the hot path may make, checked in CI with
/// `decisions-bench --check-allocations`: a tidy-up that brings back an allocation fails the build.
let allocationBudgets: [(case: String, title: String, budget: Double, events: Int)] = [
  ("2", "await send, no decisions", 0, 5_000),
  ("3", "post from sync code, then settle()", 0, 20_000),
  ("4", "await send, one quick decision (its decisions array)", 1, 5_000),
  // NB: the 4 a hand-written actor pays per trip too (case 5b; the task and its closure among
  // them), plus the core's decisions array and the feature's operation closure.
  ("5a", "effect round trip (per trip)", 6, 2_000),
  // NB: one decisions array per level of composition, and no route or scope per decision: each
  // embedding's route is made once, and kept by its parent's route.
  ("7d", "3 levels, one quick decision (a decisions array per level)", 3, 5_000),
  ("11", "await send from an actor, working between", 0, 5_000),
  // NB: 5,000 events against the recorder's capacity of 1,000: the ring is full from the first
  // fifth of the smaller run on, and its memory is allocated with the store.
  ("17b", "await send with a flight recorder", 0, 5_000),
  ("17d", "one quick decision with a flight recorder (its decisions array)", 1, 5_000),
]

/// Counts heap allocations per event under valgrind for each budgeted case, prints them, and
/// returns whether every case stayed within its budget.
///
/// A case counts as within budget when its count, measured as the difference between N and 2N
/// events, is at most the budget plus 0.05 (valgrind's counts of the runtime's own bookkeeping vary
/// by a few allocations per run).
func checkAllocationBudgets() -> Bool {
  #if os(Linux)
    var withinBudget = true
    print("heap allocations per event (valgrind memcheck, N vs 2N events)")
    for item in allocationBudgets {
      guard let small = runUnderValgrind(case: item.case, events: item.events),
        let large = runUnderValgrind(case: item.case, events: 2 * item.events)
      else {
        printError(
          "decisions-bench: error: valgrind could not be run; install it to check budgets\n")
        return false
      }
      let perEvent = Double(large.allocations - small.allocations) / Double(item.events)
      let ok = perEvent <= item.budget + 0.05
      withinBudget = withinBudget && ok
      print(
        "  case \(item.case) \(item.title): \(fixed(perEvent, 2)) (budget \(fixed(item.budget, 0)))"
          + (ok ? "  ok" : "  OVER BUDGET"))
    }
    return withinBudget
  #else
    printError("decisions-bench: error: --check-allocations needs valgrind, on Linux only\n")
    return false
  #endif
}
