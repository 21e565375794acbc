import Synchronization

// NB: how the exploration of effects runs a feature's real work deterministically. Every piece of
// work's task prefers this executor (`Task(executorPreference:)`), and work's reports hop to an
// actor whose serial executor shares its queue. So every job of every task waits in one queue
// until the explorer drains it, on its own thread, one job after another: after each of its steps
// the explorer drains until no job is left, which is when all work waits for something the
// explorer controls (a dependency's answer, a clock's deadline), or has ended.
/// An executor that runs nothing until it is drained.
final class ExplorePump: TaskExecutor, Sendable {
  // NB: a job is run isolated to the actor only if it was queued for the actor. A job queued for
  // the task executor runs on the generic executor, so the work's calls of nonisolated async
  // functions go on in place: run isolated to the actor, each such call queued its rest again
  // (about 16 jobs per piece of work, bench row 13e).
  /// The jobs waiting, each with whether it was queued for the actor.
  private let queue: ExploreJobQueue
  /// The serial executor of the actor that work's reports hop to.
  let serial: ExploreSerialExecutor

  init() {
    let queue = ExploreJobQueue()
    self.queue = queue
    self.serial = ExploreSerialExecutor(queue: queue)
  }

  func enqueue(_ job: consuming ExecutorJob) {
    queue.append(UnownedJob(job), isolated: false)
  }

  // NB: work that never waits (a loop with no `await` the explorer controls) queues jobs for
  // ever: a drain stops after this many, and the explorer stops its search.
  /// The most jobs one drain runs.
  static let jobsPerDrain = 100_000

  /// Whether a drain stopped with jobs left: some work never waits.
  ///
  /// Read and written only on the explorer's thread.
  nonisolated(unsafe) private(set) var overran = false

  /// Runs the queued jobs, and those they queue, on this thread until none is left, or until
  /// ``jobsPerDrain`` have run (``overran``).
  /// - Returns: How many jobs ran.
  @discardableResult
  func drain() -> Int {
    // NB: once a drain overran, the work that never waits keeps its jobs queued, and no drain runs
    // them again: the exploration has stopped.
    if overran { return 0 }
    var count = 0
    var batch: [(job: UnownedJob, isolated: Bool)] = []
    let taskExecutor = asUnownedTaskExecutor()
    let serialExecutor = serial.asUnownedSerialExecutor()
    while true {
      if count >= Self.jobsPerDrain {
        overran = true
        return count
      }
      queue.take(into: &batch)
      if batch.isEmpty { return count }
      for (offset, (job, isolated)) in batch.enumerated() {
        // NB: past the budget, the jobs left go back to the queue, in order, ahead of any new.
        if count + offset >= Self.jobsPerDrain {
          queue.putBack(batch[offset...])
          overran = true
          return count + offset
        }
        if isolated {
          job.runSynchronously(isolatedTo: serialExecutor, taskExecutor: taskExecutor)
        } else {
          job.runSynchronously(on: taskExecutor)
        }
      }
      count += batch.count
      batch.removeAll(keepingCapacity: true)
    }
  }
}

/// The queue of an ``ExplorePump``: the jobs of its task executor and of its actor's serial
/// executor, in the order they were queued.
final class ExploreJobQueue: Sendable {
  private let jobs = Mutex<[(job: UnownedJob, isolated: Bool)]>([])

  func append(_ job: UnownedJob, isolated: Bool) {
    jobs.withLock { $0.append((job, isolated)) }
  }

  /// Moves the queued jobs into `batch`, which is empty.
  func take(into batch: inout [(job: UnownedJob, isolated: Bool)]) {
    jobs.withLock { swap(&$0, &batch) }
  }

  /// Puts `jobs`, taken and not run, back at the front of the queue.
  func putBack(_ taken: ArraySlice<(job: UnownedJob, isolated: Bool)>) {
    jobs.withLock { $0.insert(contentsOf: taken, at: 0) }
  }
}

/// The serial executor of the actor that work's reports hop to in an exploration: its jobs wait in
/// the pump's queue.
final class ExploreSerialExecutor: SerialExecutor, Sendable {
  private let queue: ExploreJobQueue

  init(queue: ExploreJobQueue) {
    self.queue = queue
  }

  func enqueue(_ job: consuming ExecutorJob) {
    queue.append(UnownedJob(job), isolated: true)
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }
}

/// The actor work's reports hop to in an exploration: its executor is the pump's serial executor.
actor ExploreIsolation {
  nonisolated let pump: ExplorePump

  init(pump: ExplorePump) {
    self.pump = pump
  }

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    pump.serial.asUnownedSerialExecutor()
  }
}

/// The token of the piece of work whose task is running, in an exploration.
enum ExploredWorkToken {
  @TaskLocal static var current: UInt64?
}
