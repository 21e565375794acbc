/// A store's event loop driven one step at a time by `DecisionsTesting`'s exploration of effects:
/// the same loop a ``Store`` runs, with the same core, executor, child lifetimes and reports, but
/// with every piece of work's task started by the explorer, on an executor it drains itself.
///
/// Used only on the thread that drives it, and by work's reports, which hop to `isolation`: an
/// actor whose executor the explorer also drains. So nothing runs while the explorer does.
package final class SteppedLoop<F: Feature> {
  private let loop: EventLoop<F>
  /// The actor work's reports hop to; kept, since the loop's link holds it weakly.
  private let isolation: any Actor

  /// Creates a loop of `F` from `state`, with work's tasks started by `startTask` and its reports
  /// hopping to `isolation`.
  /// - Parameters:
  ///   - state: The state to start from.
  ///   - deps: The dependencies decisions are performed with.
  ///   - runsStart: Whether the core makes its start decisions, as a store does; `false` to
  ///     continue from a state a loop reached before.
  ///   - isolation: The actor that work's reports hop to.
  ///   - reportsOnlyProblems: Whether `diagnostics` hears only work that failed with an error no
  ///     handler took and work without a child lifetime, and not the loop's other reports.
  ///   - diagnostics: Hears what the loop does, as a store's hook does.
  ///   - startTask: Starts each piece of work's task.
  package init(
    state: F.State,
    deps: F.Deps,
    runsStart: Bool,
    isolation: any Actor,
    reportsOnlyProblems: Bool = false,
    diagnostics: (@Sendable (StoreDiagnostic<F>) -> Void)?,
    startTask: @escaping WorkRegistry.TaskStarter
  ) {
    loop = EventLoop(
      state: state, deps: deps, diagnostics: diagnostics,
      startDecisions: runsStart ? nil : [], reportsOnlyProblems: reportsOnlyProblems)
    self.isolation = isolation
    loop.registry.startTask = startTask
    loop.connect(owner: isolation, isolation: isolation)
  }

  /// The state now.
  package var state: F.State { loop.state }

  /// Performs the start decisions, if they wait.
  package func start() {
    loop.performStartIfPending()
  }

  /// Processes an event, as a store's `send` does.
  package func send(_ event: F.Event) {
    loop.send(event)
  }

  // NB: the explorer's key of a state compared each piece of work's scope and id, values of
  // `AnyHashable`s, at each step; a number per piece of work is asked for once.
  /// The number `visitWork(numbering:_:)` was given for each piece of work, by token.
  private var numbers: [UInt64: Int] = [:]

  /// Calls `body` with the token of each piece of work that has started and not ended, in the
  /// order it started, and the number `numbering` gives its scope and id: asked once per piece of
  /// work.
  package func visitWork(
    numbering: (_ scope: [WorkID], _ id: WorkID?) -> Int,
    _ body: (_ token: UInt64, _ number: Int) -> Void
  ) {
    let entries = loop.registry.entries
    var tokens = entries.tokens
    tokens.sort()
    if numbers.count > 2 * tokens.count + 64 {
      numbers = numbers.filter { entries[$0.key] != nil }
    }
    for token in tokens {
      if let number = numbers[token] {
        body(token, number)
      } else if let entry = entries[token] {
        let number = numbering(entry.scope, entry.id)
        numbers[token] = number
        body(token, number)
      }
    }
  }

  /// The tokens of the work that has started and not ended, in the order it started: the order
  /// of ``visitWork(numbering:_:)``.
  package var workTokens: [UInt64] {
    var tokens = loop.registry.entries.tokens
    tokens.sort()
    return tokens
  }

  /// Whether some work has started and not ended, whether or not the loop was stopped.
  package var hasWorkInFlight: Bool {
    !loop.registry.isEmpty
  }

  /// Whether no work has started and not ended: the loop is where a loop made from its state
  /// would be (see ``reset(to:)``).
  package var isQuiet: Bool {
    loop.registry.isEmpty && !loop.isStopped && !loop.isStartPending
  }

  /// Moves a quiet loop to `state`, as if it had just been made from it without the core's start.
  ///
  /// Cheaper than making a loop. Between steps only.
  /// - Returns: Whether it moved: false, and nothing changed, for a loop that is not ``isQuiet``.
  package func reset(to state: F.State) -> Bool {
    guard isQuiet else { return false }
    loop.reset(to: state)
    numbers.removeAll(keepingCapacity: true)
    return true
  }

  /// Cancels all the loop's work, as ``stop()`` does, but keeps the loop running: once the work's
  /// tasks have ended, the loop ``isQuiet`` and ``reset(to:)`` moves it.
  ///
  /// Between steps only.
  package func cancelAllWork() {
    loop.registry.cancelEverything()
  }

  /// Stops the loop: cancels all its work.
  package func stop() {
    loop.stop()
  }
}
