import Synchronization

// NB: how the exploration of effects runs a feature's real work deterministically. Every piece of
// work's task prefers this executor (`Task(executorPreference:)`), and work's reports hop to an
// actor whose executor it is too. So every job of every task waits in one queue until the
// explorer drains it, on its own thread, one job after another: after each of its steps the
// explorer drains until no job is left, which is when all work waits for something the explorer
// controls (a dependency's answer, a clock's deadline), or has ended.
/// An executor that runs nothing until it is drained.
final class ExplorePump: TaskExecutor, SerialExecutor, Sendable {
  private let jobs = Mutex<[UnownedJob]>([])

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    jobs.withLock { $0.append(job) }
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  /// Runs the queued jobs, and those they queue, on this thread until none is left.
  /// - Returns: How many jobs ran.
  @discardableResult
  func drain() -> Int {
    var count = 0
    var batch: [UnownedJob] = []
    while true {
      jobs.withLock { swap(&$0, &batch) }
      if batch.isEmpty { return count }
      for job in batch {
        job.runSynchronously(
          isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
      }
      count += batch.count
      batch.removeAll(keepingCapacity: true)
    }
  }
}

/// The actor work's reports hop to in an exploration: its executor is the pump.
actor ExploreIsolation {
  nonisolated let pump: ExplorePump

  init(pump: ExplorePump) {
    self.pump = pump
  }

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    pump.asUnownedSerialExecutor()
  }
}

/// The token of the piece of work whose task is running, in an exploration.
enum ExploredWorkToken {
  @TaskLocal static var current: UInt64?
}
