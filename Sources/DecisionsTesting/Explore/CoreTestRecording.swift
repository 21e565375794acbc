import Decisions

/// The steps that ``CoreTest``s took inside ``recordingCoreTests(_:)``: what a coverage report
/// (``Exploration/coverage(of:)``) compares with an explored graph.
///
/// Each step is the state a `send` started from and its event, whichever core it was for; the
/// coverage report keeps those of its own core.
public struct CoreTestRecording: Sendable {
  /// One `send` of a ``CoreTest``.
  // NB: `@unchecked`: a ``Core`` asks no `Sendable` of its state and events (a ``Feature`` does).
  // A recording is made and read by the synchronous code of one test, and only compared.
  struct Step: @unchecked Sendable {
    /// The core the test was for.
    var core: ObjectIdentifier
    /// The state before the event, a `C.State`.
    var before: Any
    /// The event, a `C.Event`.
    var event: Any
  }

  /// The steps, in the order they were sent.
  var steps: [Step]

  /// How many steps were recorded, of every core.
  public var count: Int { steps.count }

  /// The recorder of the current task, set by ``recordingCoreTests(_:)``.
  @TaskLocal static var current: SharedLog<Step>?

  /// Records a step of a ``CoreTest``, if a recording is on.
  static func record<C: Core>(_ core: C.Type, before: C.State, event: C.Event) {
    current?.append(Step(core: ObjectIdentifier(core), before: before, event: event))
  }
}

/// Runs `body`, typically existing core tests called as functions, and returns every step that a
/// ``CoreTest`` (or ``expectStep(_:from:on:decisions:exhaustivity:fileID:filePath:line:column:_:)``)
/// sent in it, for a coverage report.
///
/// ```swift
/// let recording = recordingCoreTests {
///   let tests = FactCoreTests()
///   tests.aTapFromTheInitialStateStartsLoading()
///   tests.failThenRetryThenSucceed()
/// }
/// let coverage = exploration.coverage(of: recording)
/// ```
///
/// The tests run as usual and still fail the test that calls them if they fail.
/// - Parameter body: The code whose core tests are recorded.
/// - Returns: The recorded steps.
public func recordingCoreTests(_ body: () throws -> Void) rethrows -> CoreTestRecording {
  let log = SharedLog<CoreTestRecording.Step>()
  try CoreTestRecording.$current.withValue(log) { try body() }
  return CoreTestRecording(steps: log.all)
}
