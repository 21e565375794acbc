#if canImport(Observation)
  import Observation

  /// The baseline: a view model written the way many apps are written today.
  ///
  /// State is mutated in place on the main actor, and each load is a `Task` that awaits a closure
  /// and writes its result back. It does the work of ``Counter`` (count events) and of ``PingPong``
  /// (a chain of loads), without a store.
  @MainActor
  @Observable
  final class CounterViewModel {
    /// How many taps the model has counted.
    private(set) var count = 0
    /// How many loads have finished.
    private(set) var answers = 0
    /// The sum of the loaded values.
    private(set) var sum = 0

    @ObservationIgnored private let echo: @Sendable (Int) async -> Int
    @ObservationIgnored private var rounds = 0
    @ObservationIgnored private var finished: CheckedContinuation<Void, Never>?

    /// Creates a model that loads through `echo`.
    init(echo: @escaping @Sendable (Int) async -> Int) {
      self.echo = echo
    }

    /// Counts a tap.
    // NB: not inlined, as a view's action would not be inlined into the loop that sends events.
    @inline(never)
    func didTap() {
      count += 1
    }

    /// Loads `rounds` values one after another, a `Task` per load, and returns when all arrived.
    func loadRepeatedly(rounds: Int) async {
      self.rounds = rounds
      answers = 0
      sum = 0
      guard rounds > 0 else { return }
      await withCheckedContinuation { continuation in
        finished = continuation
        load(0)
      }
    }

    private func load(_ value: Int) {
      Task {
        let answer = await echo(value)
        didLoad(answer)
      }
    }

    private func didLoad(_ answer: Int) {
      answers += 1
      sum += answer
      if answers < rounds {
        load(answers)
      } else {
        finished?.resume()
        finished = nil
      }
    }
  }
#endif
