import Synchronization

extension WorkRegistry {
  /// Which pieces of an owner's work are waiting for the test: asleep on a test clock, or in a call
  /// of a dependency that the test answers.
  ///
  /// Such work cannot go on until the test acts, so for ``Store/settle()`` it counts as settled, and a
  /// test clock that wakes it can wait until its owner has settled again. Once a test double exists
  /// in the process (see ``startTracking()``), a registry has a record of waits from the first work it
  /// starts, whenever its owner was made, and runs every work body with ``current`` set to that
  /// work's ``Member``, so test doubles (in `DecisionsTesting`) find it without being told.
  ///
  /// A wait is counted from ``beginWait()`` until the one who ends it (the waker, or the waiter that
  /// gave up) calls ``Wait/end()``: ending the wait before resuming the waiter means the owner never
  /// sees work as waiting that is about to run.
  package final class TestWaits: Sendable {
    /// The work a task belongs to: set for the body of every tracked piece of work, and inherited by
    /// its child tasks.
    @TaskLocal package static var current: Member?

    /// A piece of tracked work: its owner's record of waits and its token.
    package struct Member: Sendable {
      /// The record of waits of the work's owner.
      package let testWaits: TestWaits
      /// The work's token in its owner's registry.
      package let token: UInt64
      /// The id the work was started with, if any: a printed path's answer names the call by it.
      package let id: WorkID?
    }

    // NB: a process-wide switch rather than always on: binding a task-local costs each piece of work
    // about 2,300 instructions and 3 allocations (callgrind, decisions-bench case 5), and only a
    // process with test doubles can have work that waits for the test. A registry reads it as each
    // piece of work starts, not once when it is made, so the order in which a test makes its stores
    // and its doubles does not matter; only work already running when the first double is made, and
    // that waits on it, is not tracked: it counts as running.
    private static let tracking = Atomic<Bool>(false)

    /// Whether work runs with ``current`` set: once a test double exists in the process.
    package static var isTracking: Bool {
      tracking.load(ordering: .relaxed)
    }

    /// Makes work started from now on, in every store, track its waits.
    ///
    /// A test double calls it when it is created, before work can be given it.
    package static func startTracking() {
      tracking.store(true, ordering: .relaxed)
    }

    /// The waits in progress, and the work they count for.
    private let state = Protected(State())
    private let link: WorkLink
    /// The test clocks the owner is attached to, and whether its work may sleep on others.
    private let clocks = Protected(Clocks())

    // NB: `waitingRunning` is kept as waits begin and end, so that whether all work waits is known
    // without looking at each piece: a test clock asks it after each sleeper it wakes, and looking at
    // each piece made waking n sleepers of n pieces of work quadratic.
    private struct State {
      /// The waits in progress, by token.
      var counts: [UInt64: Int] = [:]
      /// The work that the owner started and has not yet ended (see ``workStarted(_:)``).
      var running: Set<UInt64> = []
      /// How many tokens in `running` have a wait in progress.
      var waitingRunning = 0
      /// Whether a wait that begins is told to the link; see ``setListening(_:)``.
      var isListening = true
    }

    private struct Clocks {
      var attached: Set<ObjectIdentifier> = []
      /// Called once for each clock not attached that the work sleeps on, if set.
      var reportOther: (@Sendable () -> Void)?
    }

    /// Creates the record of waits of one owner, whose `link` it tells about waits.
    init(link: WorkLink) {
      self.link = link
    }

    /// Makes ``beginWait()`` tell the link of each wait that begins, or not.
    ///
    /// Telling it costs a task that holds the owner, so an owner with nobody waiting for it to
    /// settle switches it off: the owner is then freed as soon as its last reference goes. It starts
    /// on.
    // NB: set under the same lock as the waits, so a wait that begins either is told, or is seen by
    // the owner's check of ``isAllRunningWorkWaiting`` right after it switches listening on.
    package func setListening(_ isListening: Bool) {
      state.withLock { $0.isListening = isListening }
    }

    /// Whether any work has a wait in progress.
    package var hasWaits: Bool {
      state.withLock { !$0.counts.isEmpty }
    }

    /// Whether the owner still exists.
    package var isOwnerAlive: Bool {
      link.isAlive
    }

    /// Whether every token in `tokens` has a wait in progress.
    ///
    /// - Complexity: O(*n*) in the tokens; ``isAllRunningWorkWaiting`` answers in O(1) for an owner
    ///   that reports its work's starts and ends.
    package func areAllWaiting(_ tokens: some Sequence<UInt64>) -> Bool {
      state.withLock { waits in tokens.allSatisfy { waits.counts[$0] != nil } }
    }

    /// Records that the owner started the work with `token`: call it before the work's task starts,
    /// so that none of its waits is missed.
    package func workStarted(_ token: UInt64) {
      state.withLock { waits in
        guard waits.running.insert(token).inserted else { return }
        if waits.counts[token] != nil { waits.waitingRunning += 1 }
      }
    }

    /// Records that the work with `token` ended: a wait that a task it left behind begins or ends
    /// afterwards no longer counts.
    package func workEnded(_ token: UInt64) {
      state.withLock { waits in
        guard waits.running.remove(token) != nil else { return }
        if waits.counts[token] != nil { waits.waitingRunning -= 1 }
      }
    }

    /// Whether every piece of work started with ``workStarted(_:)`` and not ended with
    /// ``workEnded(_:)`` has a wait in progress: true when none runs.
    ///
    /// - Complexity: O(1).
    package var isAllRunningWorkWaiting: Bool {
      state.withLock { $0.waitingRunning == $0.running.count }
    }

    /// Records that a test clock settles the owner before it moves time.
    package func attach(clock: ObjectIdentifier) {
      _ = clocks.withLock { $0.attached.insert(clock) }
    }

    /// Makes ``attachIfNew(clock:)`` report clocks that were not attached with `report`: for a test
    /// harness that attaches the clocks it knows, and wants to hear about the others.
    package func reportClocksNotAttached(with report: @escaping @Sendable () -> Void) {
      clocks.withLock { $0.reportOther = report }
    }

    /// Attaches `clock`, which the work sleeps on, if it was not, and returns what to call to report
    /// that (see ``reportClocksNotAttached(with:)``).
    package func attachIfNew(clock: ObjectIdentifier) -> (@Sendable () -> Void)? {
      clocks.withLock { clocks in
        clocks.attached.insert(clock).inserted ? clocks.reportOther : nil
      }
    }

    /// Waits until the owner has settled: its posted events processed, and its work finished or
    /// waiting for the test.
    package func settleOwner() async {
      await link.settle()
    }

    /// Starts counting a wait of the current task's work, if the task belongs to tracked work.
    ///
    /// Call it before the waiter can be woken; whoever wakes it, or the waiter that gives up, calls
    /// ``Wait/end()`` before resuming it.
    /// - Returns: The wait, or `nil` when the task is not tracked work.
    package static func beginWait() -> Wait? {
      guard let member = current else { return nil }
      let isListening = member.testWaits.state.withLock { waits in
        waits.counts[member.token, default: 0] += 1
        if waits.counts[member.token] == 1, waits.running.contains(member.token) {
          waits.waitingRunning += 1
        }
        return waits.isListening
      }
      if isListening { member.testWaits.link.waitBegan() }
      return Wait(member: member)
    }

    /// One wait of tracked work for the test, counted until ``end()``.
    package struct Wait: Sendable {
      /// The work that waits.
      package let member: Member

      /// The record of waits the work belongs to.
      package var testWaits: TestWaits { member.testWaits }

      /// Stops counting the wait.
      ///
      /// Call it exactly once, before resuming the waiter.
      package func end() {
        let token = member.token
        member.testWaits.state.withLock { waits in
          guard let count = waits.counts[token] else { return }
          guard count == 1 else {
            waits.counts[token] = count - 1
            return
          }
          waits.counts[token] = nil
          if waits.running.contains(token) { waits.waitingRunning -= 1 }
        }
      }
    }
  }
}
