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

/// Runs `body` with standard error sent to a pipe, and returns what was written to it meanwhile.
// NB: other suites may write to standard error at the same time; callers look for their own text.
private func capturingStandardError(_ body: () async -> Void) async throws -> String {
  var ends: [Int32] = [0, 0]
  try #require(pipe(&ends) == 0)
  let saved = dup(2)
  try #require(saved >= 0)
  dup2(ends[1], 2)
  close(ends[1])
  await body()
  dup2(saved, 2)
  close(saved)
  // NB: the store wrote before `settle()` returned, so what it wrote is in the pipe; a process that
  // a test started meanwhile may still hold the pipe, so reading must not wait for its end.
  _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4_096)
  while true {
    let count = read(ends[0], &buffer, buffer.count)
    if count > 0 {
      bytes += buffer[..<count]
    } else if count < 0 && errno == EINTR {
      continue
    } else {
      break
    }
  }
  close(ends[0])
  return String(decoding: bytes, as: UTF8.self)
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

  #if DEBUG
    @Test func aStoreWithoutAHookReportsAnUnhandledError() async {
      await collectingMessages { messages in
        let (failure, marker) = uniqueFailure()
        let store = Store<Counter>(state: .init(), deps: .init(failure: { failure }))
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

    @Test func withoutASinkTheMessageGoesToStandardError() async throws {
      let (failure, marker) = uniqueFailure()
      let written = try await capturingStandardError {
        let store = Store<Counter>(state: .init(), deps: .init(failure: { failure }))
        await store.send(.fail(handled: false))
        await store.settle()
      }
      let expected = UnheardErrors.message(failure, id: WorkID("unhandled"), feature: Counter.self)
      #expect(written.split(separator: "\n").filter { $0.contains(marker) } == [expected[...]])
    }

    @Test func aMainStoreWithoutAHookReportsAnUnhandledError() async {
      await collectingMessages { messages in
        let (failure, marker) = uniqueFailure()
        let store = await MainStore<Counter>(state: .init(), deps: .init(failure: { failure }))
        await store.send(.fail(handled: false))
        await store.settle()
        #expect(
          messages.containing(marker) == [
            UnheardErrors.message(failure, id: WorkID("unhandled"), feature: Counter.self)
          ])
      }
    }

    @Test func anErrorThatAHookOrAHandlerHearsIsNotReported() async {
      await collectingMessages { messages in
        let (failure, marker) = uniqueFailure()
        let heard = Mutex(0)
        let withHook = Store<Counter>(
          state: .init(), deps: .init(failure: { failure }),
          diagnostics: { if case .workFailed = $0 { heard.withLock { $0 += 1 } } })
        await withHook.send(.fail(handled: false))
        await withHook.settle()
        let withHandler = Store<Counter>(state: .init(), deps: .init(failure: { failure }))
        await withHandler.send(.fail(handled: true))
        await withHandler.settle()
        #expect(heard.withLock { $0 } == 1)
        #expect(await withHandler.state.messages == ["\(failure)"])
        #expect(messages.containing(marker).isEmpty)
      }
    }

    @Test func workTheStoreCancelledIsNotReported() async {
      await collectingMessages { messages in
        let (failure, marker) = uniqueFailure()
        let gate = Gate()
        let store = Store<Counter>(
          state: .init(),
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
