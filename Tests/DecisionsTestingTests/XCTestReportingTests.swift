import DecisionsTesting
import XCTest

/// The real reporting path, under XCTest: a failing helper calls `XCTFail` at the caller's line.
///
/// `XCTExpectFailure` does not exist in swift-corelibs-xctest, so the test case captures its own
/// failures by overriding `recordFailure`, and fails if the expected one does not arrive.
final class XCTestReportingTests: XCTestCase {
  private var captured: [(description: String, line: Int)] = []
  private var capturing = false

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    if capturing {
      captured.append((description, lineNumber))
    } else {
      super.recordFailure(
        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
  }

  func test_a_wrong_decision_fails_at_the_callers_line() {
    capturing = true
    var test = CoreTest<Loader>(state: .idle)
    test.send(.tap, decisions: [.load]) { $0 = .loading(previous: nil) }
    let line = #line - 1
    capturing = false

    XCTAssertEqual(captured.count, 1)
    XCTAssertEqual(captured.first?.line, line)
    XCTAssertTrue(
      captured.first?.description.contains("Step 1, .tap: the decisions differ.") == true,
      captured.first?.description ?? "no failure")
  }

  func test_an_unimplemented_dependency_fails_where_it_was_made() {
    capturing = true
    let log: @Sendable (String) -> Void = unimplemented("log")
    let line = #line - 1
    log("hi")
    capturing = false

    XCTAssertEqual(captured.map(\.line), [line])
    XCTAssertTrue(
      captured.first?.description.contains("Unimplemented dependency called: log") == true)
  }

  func test_a_passing_story_records_no_failure() {
    capturing = true
    var test = CoreTest<Loader>(state: .idle)
    test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    capturing = false
    XCTAssertTrue(captured.isEmpty)
  }

  func test_a_store_test_that_ends_with_work_running_fails_at_finish() async {
    let load = ControlledDependency<Void, String>()
    let test = StoreTest<Loader>(
      state: .idle,
      deps: .init(load: { try await load() }, track: { _ in }, log: { _ in }, snackbar: { _ in }))
    await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    capturing = true
    await test.finish()
    let line = #line - 1
    capturing = false

    XCTAssertEqual(captured.map(\.line), [line])
    XCTAssertTrue(
      captured.first?.description.contains("The test ended with work still running: \"load\"")
        == true,
      captured.first?.description ?? "no failure")
  }

  func test_a_wrong_received_event_fails_at_the_callers_line() async {
    let test = StoreTest<Loader>(
      state: .idle,
      deps: .init(load: { "hi" }, track: { _ in }, log: { _ in }, snackbar: { _ in }))
    await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    capturing = true
    await test.receive(.finished("hello"), decisions: [.log("hello")]) { $0 = .loaded("hello") }
    let line = #line - 1
    capturing = false

    XCTAssertEqual(captured.map(\.line), [line])
    XCTAssertTrue(
      captured.first?.description.contains(
        "Expected to receive .finished(\"hello\"), but the store processed other events:") == true,
      captured.first?.description ?? "no failure")
  }

  func test_a_released_store_test_fails_at_the_line_that_created_it() async {
    capturing = true
    var line = 0
    do {
      let test = StoreTest<Loader>(
        state: .idle,
        deps: .init(load: { "hi" }, track: { _ in }, log: { _ in }, snackbar: { _ in }))
      line = #line - 3
      await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
      await test.settle()
    }
    capturing = false

    XCTAssertEqual(captured.map(\.line), [line])
    XCTAssertTrue(
      captured.first?.description.contains("The test ended with 1 processed event not asserted")
        == true,
      captured.first?.description ?? "no failure")
  }
}
