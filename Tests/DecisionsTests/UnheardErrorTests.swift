import DecisionsTesting
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Decisions

/// What the tests' sink collected, from any thread.
private final class Messages: Sendable {
  private let lines = Mutex<[String]>([])

  func record(_ line: String) {
    lines.withLock { $0.append(line) }
  }

  /// The messages that contain `marker`: other suites' stores may report at the same time.
  func containing(_ marker: String) -> [String] {
    lines.withLock { $0.filter { $0.contains(marker) } }
  }
}

/// How many SIGPIPE signals reached the process while a test counted them.
private let pipeSignals = Atomic<Int>(0)

/// An error whose description no other test uses.
private func uniqueFailure() -> (Counter.Failure, marker: String) {
  let marker = "unheard-\(UUID().uuidString)"
  return (Counter.Failure(message: marker), marker)
}

/// Runs `body` with the debug builds' messages about unheard errors collected instead of printed.
// NB: the sink is process-wide, so the suite is serialized; other suites' messages are filtered out
// by each test's unique marker.
private func collectingMessages(_ body: (Messages) async -> Void) async {
  let messages = Messages()
  UnheardErrors.sink.withLock { $0 = { messages.record($0) } }
  await body(messages)
  UnheardErrors.sink.withLock { $0 = nil }
}

@Suite(.serialized, .timeLimit(.minutes(3))) struct UnheardErrorTests {
  @Test func theMessageNamesTheWorkTheFeatureAndTheError() {
    let keyed = UnheardErrors.message(
      Counter.Failure(message: "offline"), id: WorkID("save"), feature: Counter.self)
    #expect(
      keyed
        == "Decisions: work \"save\" of Counter failed with Failure(message: \"offline\"), and "
        + "nothing heard it: give its effects.run a catch: handler, or the store a diagnostics "
        + "hook (printed by debug builds)")
    let unkeyed = UnheardErrors.message(
      Counter.Failure(message: "offline"), id: nil, feature: Counter.self)
    #expect(unkeyed.hasPrefix("Decisions: unkeyed work of Counter failed with "))
  }

  // NB: without a sink the message goes to descriptor 2; the test writes to a pipe instead of
  // sending the process's standard error there, which a child process that another test starts
  // meanwhile would inherit.
  @Test func aMessageIsWrittenToItsDescriptor() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let text = String(repeating: "Decisions: a line of an unheard error. ", count: 100) + "\n"
    UnheardErrors.writer.enqueue(text, to: ends[1])
    UnheardErrors.writer.waitUntilWritten()
    close(ends[1])
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1_024)
    while true {
      let count = read(ends[0], &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    close(ends[0])
    #expect(String(decoding: bytes, as: UTF8.self) == text)
  }

  // NB: the handler counts the SIGPIPE signals that reach the process, which would otherwise die
  // of the first one (or ignore it, if something set it so): with the writer's thread blocking it,
  // none does.
  @Test func aPipeWhoseReaderIsGoneDoesNotEndTheProcess() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    close(ends[0])
    let signals = pipeSignals.load(ordering: .relaxed)
    let previous = signal(SIGPIPE) { _ in pipeSignals.add(1, ordering: .relaxed) }
    UnheardErrors.writer.enqueue("Decisions: a line that nobody reads.\n", to: ends[1])
    UnheardErrors.writer.waitUntilWritten()
    signal(SIGPIPE, previous)
    close(ends[1])
    #expect(pipeSignals.load(ordering: .relaxed) == signals)
  }

  // NB: the pipe is filled first, so that the writer's thread blocks on the first line; the lines
  // after the one it can queue are dropped, and said to be once the pipe is read again.
  // NB: poll(2) calls a Darwin pipe writable with 512 bytes of room; a longer line written by the
  // caller could block it. Linux cuts lines to PIPE_BUF, so the test shortens the writer's bound.
  /// A line longer than the writer's at-once bound goes to its thread, even to an empty pipe.
  @Test func aLineLongerThanPipeBufGoesToTheThread() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let writer = ReportWriter(capacity: 10, atOnceLength: 16)
    writer.enqueue("short line\n", to: ends[1])
    #expect(writer.linesWrittenAtOnce == 1)
    writer.enqueue(String(repeating: "long ", count: 10) + "\n", to: ends[1])
    #expect(writer.linesWrittenAtOnce == 1)
    writer.waitUntilWritten()
    close(ends[1])
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 256)
    while true {
      let count = read(ends[0], &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    close(ends[0])
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "short line\n" + String(repeating: "long ", count: 10) + "\n")
  }

  @Test func linesThatFindTheQueueFullAreDroppedAndCounted() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer { close(ends[0]) }
    let flags = fcntl(ends[1], F_GETFL)
    _ = fcntl(ends[1], F_SETFL, flags | O_NONBLOCK)
    let chunk = [UInt8](repeating: 0, count: 1_024)
    var filled = 0
    while true {
      let written = write(ends[1], chunk, chunk.count)
      guard written > 0 else { break }
      filled += written
    }
    _ = fcntl(ends[1], F_SETFL, flags)
    let writer = ReportWriter(capacity: 1)
    for index in 0..<10 { writer.enqueue("line \(index)\n", to: ends[1]) }
    var buffer = [UInt8](repeating: 0, count: 1_024)
    while filled > 0 {
      let count = read(ends[0], &buffer, min(buffer.count, filled))
      try #require(count > 0)
      filled -= count
    }
    // NB: the lines queued before are written first, so that this one finds room.
    writer.waitUntilWritten()
    writer.enqueue("last\n", to: ends[1])
    writer.waitUntilWritten()
    close(ends[1])
    var bytes: [UInt8] = []
    while true {
      let count = read(ends[0], &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    let output = String(decoding: bytes, as: UTF8.self)
    let dropped = writer.droppedCount
    #expect(dropped == 8 || dropped == 9)
    // NB: the thread may take the first line before the second is queued, or after the tenth.
    let written = output.split(separator: "\n").filter { $0.hasPrefix("line ") }
    #expect(written.count == 10 - dropped)
    // NB: the lines dropped between two that were queued are announced just before the second:
    // which lines the thread took in time, and so where the notice falls, depends on the run.
    func notice(_ count: Int) -> String {
      "Decisions: \(count) \(count == 1 ? "report was" : "reports were") dropped, as the "
        + "descriptor was not taking them\n"
    }
    var expected = ""
    var previous = -1
    for line in written {
      let number = Int(line.dropFirst("line ".count)) ?? -1
      if number > previous + 1 { expected += notice(number - previous - 1) }
      expected += line + "\n"
      previous = number
    }
    if previous < 9 { expected += notice(9 - previous) }
    #expect(output == expected + "last\n")
  }

  #if DEBUG
    // NB: the pipe holds about 300 messages; before the writer had a thread of its own, the store
    // stopped at the message that found it full.
    @Test func aPipeNobodyReadsDoesNotStopTheStore() async throws {
      var ends: [Int32] = [0, 0]
      try #require(pipe(&ends) == 0)
      let dropped = UnheardErrors.writer.droppedCount
      UnheardErrors.descriptor.withLock { $0 = ends[1] }
      let store = Store<Counter>(state: .init(), deps: .init())
      for _ in 0..<1_000 {
        await store.send(.fail(handled: false))
        await store.settle()
      }
      await store.send(.increment)
      #expect(await store.state.count == 1)
      #expect(UnheardErrors.writer.droppedCount > dropped)
      // NB: then the reader goes, which fails the write that the writer's thread is blocked in,
      // and the writes of the lines queued behind it.
      UnheardErrors.descriptor.withLock { $0 = 2 }
      close(ends[0])
      UnheardErrors.writer.waitUntilWritten()
      close(ends[1])
    }

    @Test(arguments: StoreKind.allCases)
    func aStoreWithoutAHookReportsAnUnhandledError(on kind: StoreKind) async {
      await collectingMessages { messages in
        let (failure, marker) = uniqueFailure()
        let store = await kind.make(Counter.self, state: .init(), deps: .init(failure: { failure }))
        await store.send(.fail(handled: false))
        await store.settle()
        #expect(
          messages.containing(marker) == [
            UnheardErrors.message(failure, id: WorkID("unhandled"), feature: Counter.self)
          ])
        // NB: the store keeps running.
        await store.send(.increment)
        #expect(await store.state.count == 1)
      }
    }

    @Test(arguments: StoreKind.allCases)
    func anErrorThatAHookOrAHandlerHearsIsNotReported(on kind: StoreKind) async {
      await collectingMessages { messages in
        let (failure, marker) = uniqueFailure()
        let heard = Mutex(0)
        let withHook = await kind.make(
          Counter.self, state: .init(), deps: .init(failure: { failure }),
          diagnostics: { if case .workFailed = $0 { heard.withLock { $0 += 1 } } })
        await withHook.send(.fail(handled: false))
        await withHook.settle()
        let withHandler = await kind.make(
          Counter.self, state: .init(), deps: .init(failure: { failure }))
        await withHandler.send(.fail(handled: true))
        await withHandler.settle()
        #expect(heard.withLock { $0 } == 1)
        #expect(await withHandler.state.messages == ["\(failure)"])
        #expect(messages.containing(marker).isEmpty)
      }
    }

    // NB: before the fix the report was queued for the writer's thread, and the process ended
    // before the thread wrote it: standard error was empty in most runs.
    @Test func aProgramThatExitsRightAfterTheErrorPrintsItsReport() throws {
      for run in 1...5 {
        let result = try runProduct("unheard-error-exit", [], timeLimit: .seconds(60))
        #expect(result.status == 0, "run \(run)")
        #expect(
          result.errors.contains(
            "Decisions: work \"open\" of Opener failed with Failure(message: \"the door is stuck\")"
          ),
          "run \(run): standard error was \(result.errors.debugDescription)")
      }
    }

    // NB: the feature's name is the marker: no other suite's store runs `Inbox`.
    @Test func aStoreWithoutAHookReportsRefusedPosts() async {
      await collectingMessages { messages in
        let box = StoreBox<Inbox>()
        let store = Store<Inbox>(
          state: .init(),
          deps: .init(post: { count in
            for _ in 0..<count { box.store?.post(.tick) }
          }), postLimit: 4)
        box.store = store
        await store.send(.post(7))
        await store.settle()
        #expect(await store.state.ticks == 4)
        #expect(
          messages.containing("store of Inbox") == [
            UnheardErrors.refusedPostsMessage(3, limit: 4, feature: Inbox.self)
          ])
      }
    }

    @Test(arguments: StoreKind.allCases)
    func workTheStoreCancelledIsNotReported(on kind: StoreKind) async {
      await collectingMessages { messages in
        let (failure, marker) = uniqueFailure()
        let gate = Gate()
        let store = await kind.make(
          Counter.self, state: .init(),
          deps: .init(work: { _, _ in
            // NB: waits to be cancelled, then fails with the marked error rather than returning.
            _ = await gate.waitUnlessCancelled()
            throw failure
          }))
        await store.send(.startWork(id: "a", value: 1))
        await store.send(.cancelWork(id: "a"))
        await store.settle()
        #expect(messages.containing(marker).isEmpty)
      }
    }
  #endif
}
