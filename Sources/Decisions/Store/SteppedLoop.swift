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
    self.savedState = state
    self.startTask = startTask
    let starts = WorkStarts()
    self.starts = starts
    loop.setDecisionHook { decision in
      starts.serial &+= 1
      // NB: only a step of the explorer's own starts work that can be started again.
      starts.decision = starts.isStepping ? decision : nil
    }
    loop.registry.startTask = { token, priority, body in
      starts.note(token)
      return startTask(token, priority, body)
    }
    loop.connect(owner: isolation, isolation: isolation)
  }

  /// What starts each piece of work's task.
  private let startTask: WorkRegistry.TaskStarter
  /// The decision that started each piece of work, to start it again (see ``restart(_:)``).
  private let starts: WorkStarts

  /// The state now.
  package var state: F.State { loop.state }

  /// Performs the start decisions, if they wait.
  package func start() {
    starts.isStepping = true
    loop.performStartIfPending()
    starts.isStepping = false
  }

  /// Processes an event, as a store's `send` does.
  package func send(_ event: F.Event) {
    starts.isStepping = true
    loop.send(event)
    starts.isStepping = false
  }

  // NB: the explorer's key of a state compared each piece of work's scope and id, values of
  // `AnyHashable`s, at each step; a number per piece of work is asked for once.
  /// The number `visitWork(numbering:_:)` was given for each piece of work, by token.
  @exclusivity(unchecked) private var numbers: [UInt64: Int] = [:]

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
    if starts.byToken.count > 2 * tokens.count + 64 {
      starts.keep { entries[$0] != nil }
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
    starts.byToken.removeAll(keepingCapacity: true)
    return true
  }

  /// Cancels all the loop's work, as ``stop()`` does, but keeps the loop running: once the work's
  /// tasks have ended, the loop ``isQuiet`` and ``reset(to:)`` moves it.
  ///
  /// Between steps only.
  package func cancelAllWork() {
    loop.registry.cancelEverything()
  }

  // NB: a step that only started work (an event), or moved on work that waited where it first
  // waited, is taken back by ending the work it started, starting the work it moved on again and
  // moving the core back: the explorer then takes the state's next choice without running the
  // steps to it again, which for a state with k pieces of work in flight cost about k steps. The
  // checkpoint is kept by the loop: the explorer runs unspecialized, and a value of a type that
  // depends on `F` passed to it looked up its metadata at each copy (a twentieth of row 13e).
  /// The checkpoint: the core's state, the children it checked, and the work in flight then, in
  /// the order it started.
  @exclusivity(unchecked) private var savedState: F.State
  @exclusivity(unchecked) private var savedMarks: [UInt64?] = []
  /// The work in flight at the checkpoint, in the order it started.
  @exclusivity(unchecked) package private(set) var checkpointTokens: [UInt64] = []
  /// The work of the checkpoint in a scope no child lifetime covers, which was reported: a piece
  /// of it started again is not reported again.
  @exclusivity(unchecked) private var withoutLifetime: [UInt64] = []
  private var hasCheckpoint = false

  /// Saves where the loop is, to take a step back: its state, the children it checked, and the
  /// work in flight.
  ///
  /// Between steps only.
  package func saveCheckpoint() {
    let tokens = workTokens
    savedState = loop.state
    savedMarks = loop.childMarks
    checkpointTokens = tokens
    hasCheckpoint = true
    withoutLifetime.removeAll(keepingCapacity: true)
    if loop.registry.childWorkCount != 0 {
      loop.registry.entries.visitEach { token, entry in
        if entry.isWithoutLifetime { withoutLifetime.append(token) }
      }
    }
  }

  /// The work of the checkpoint that has ended or was cancelled since, and `answered`: what a
  /// step moved on.
  ///
  /// Between steps only.
  package func movedWork(answered: UInt64?) -> [UInt64] {
    let entries = loop.registry.entries
    return checkpointTokens.filter { token in
      token == answered || entries.isCancelled(token) != false
    }
  }

  /// Cancels the work started since the checkpoint, and the work of `moved` that still runs.
  ///
  /// It is cancelled as a stop would cancel it. Between steps only.
  package func cancelWork(andMoved moved: [UInt64]) {
    let registry = loop.registry
    let tokens = checkpointTokens
    var started: [UInt64] = []
    registry.entries.visitEach { token, entry in
      if !entry.isCancelled, moved.contains(token) || !tokens.contains(token) {
        started.append(token)
      }
    }
    if started.isEmpty { return }
    registry.cancel(tokens: started)
  }

  /// Moves the core back to the checkpoint, if all the work in flight is work of the checkpoint,
  /// none of it cancelled: the work started since, and the work moved on, has ended.
  ///
  /// Between steps only.
  /// - Returns: Whether the core moved; if not, nothing changed.
  package func rewindCore() -> Bool {
    let registry = loop.registry
    guard hasCheckpoint, !loop.isStopped, !registry.hasUnreported else { return false }
    var isBehind = true
    registry.entries.visitEach { token, entry in
      if entry.isCancelled || !checkpointTokens.contains(token) { isBehind = false }
    }
    guard isBehind else { return false }
    loop.rewind(to: savedState, marks: savedMarks)
    return true
  }

  // NB: the decision is performed again, rather than the work's closure run again: the closure may
  // share an object that `execute` made with its first run (a count of tries), which a new
  // `execute` makes anew, as a return along a path did.
  /// Starts again, from its beginning, the piece of work `token` of the checkpoint, which has
  /// ended: performs again the decision that started it, at the loop's state now.
  ///
  /// The work is not recorded in the registry, so its sends are dropped, until ``reinstate(_:_:)``
  /// records it.
  /// - Returns: How the registry records the work, with its new task; nil if the work has not
  ///   ended, or its decision was not performed in a step of the explorer's own (an event, the
  ///   start), or started other work too.
  package func restart(_ token: UInt64) -> WorkRegistry.Entry? {
    guard checkpointTokens.contains(token), loop.registry.entries[token] == nil,
      let start = starts.byToken[token], starts.isAlone(start),
      let decision = start.decision as? F.Decision
    else { return nil }
    return loop.replay(decision, startingAs: token, with: startTask)
  }

  /// Records the work ``restart(_:)`` started again as the piece of work `token`.
  package func reinstate(_ entry: WorkRegistry.Entry, _ token: UInt64) {
    guard loop.registry.entries[token] == nil else {
      entry.task?.cancel()
      return
    }
    var entry = entry
    entry.isWithoutLifetime = withoutLifetime.contains(token)
    loop.registry.reinstate(token, entry: entry)
  }

  /// Whether the work with `token` has ended.
  package func hasEnded(_ token: UInt64) -> Bool {
    loop.registry.entries[token] == nil
  }

  /// Whether the work in flight is the checkpoint's, none of it cancelled.
  package var isAtCheckpoint: Bool {
    hasCheckpoint && !loop.isStopped && workTokens == checkpointTokens
      && checkpointTokens.allSatisfy { loop.registry.entries.isCancelled($0) == false }
  }

  /// Stops the loop: cancels all its work.
  package func stop() {
    loop.stop()
  }
}

// NB: not generic over the decision's type, which it keeps as `Any`: the stepped loop runs
// unspecialized, and a dictionary of a type that depended on it looked its metadata up at each
// piece of work started (a twentieth of bench row 13e).
/// The decision that started each piece of a stepped loop's work, by token, and how many pieces
/// of work each decision started.
private final class WorkStarts: @unchecked Sendable {
  struct Start {
    var decision: Any
    var serial: UInt64
  }
  /// The decision being performed, and its number.
  @exclusivity(unchecked) var decision: Any?
  @exclusivity(unchecked) var serial: UInt64 = 0
  @exclusivity(unchecked) var byToken: [UInt64: Start] = [:]
  /// The number of the last decision that started a piece of work.
  @exclusivity(unchecked) private var lastSerial: UInt64 = 0
  /// The decisions that started more than one piece of work, by number.
  @exclusivity(unchecked) private var several: Set<UInt64> = []

  // NB: work started while a piece of work's event is processed starts in that work's task, and
  // inherits its task-local values and its priority, which a start again from the explorer's
  // context would not: only work started by the explorer's own steps (an event, the start) can be
  // started again (helper-38's attack).
  /// Whether the explorer is taking a step itself (an event, the start): not a piece of work's
  /// event.
  @exclusivity(unchecked) var isStepping = false

  /// Records that the decision being performed started the work with `token`, if the explorer is
  /// taking a step itself.
  func note(_ token: UInt64) {
    guard isStepping, let decision else { return }
    if serial == lastSerial { several.insert(serial) }
    lastSerial = serial
    byToken[token] = Start(decision: decision, serial: serial)
  }

  /// Whether `start`'s decision started no other piece of work.
  func isAlone(_ start: Start) -> Bool {
    !several.contains(start.serial)
  }

  /// Forgets the work whose token `isKept` refuses.
  func keep(_ isKept: (UInt64) -> Bool) {
    byToken = byToken.filter { isKept($0.key) }
    let serials = Set(byToken.values.map(\.serial))
    several = several.filter { serials.contains($0) }
  }
}
