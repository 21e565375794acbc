// NB: `@unchecked Sendable`: the explorer and every task of the work it runs use it on one thread,
// one job at a time (see `ExplorePump`). `world` is written only between the explorer's steps.
/// The test doubles of an exploration of effects: dependencies whose answers the explorer chooses,
/// and a clock whose deadlines it decides to reach.
///
/// `explore(_:from:deps:limits:events:)` gives one to the function that makes the feature's
/// `Deps`. Build each dependency the exploration must control with
/// ``dependency(_:answers:)-(_,[ExploredAnswer<Value>])``, and give the feature ``clock``:
///
/// ```swift
/// static func deps(_ effects: ExploredEffects) -> Search.Deps {
///   Search.Deps(
///     search: effects.dependency("search", answers: [.value(["swift"]), .failure(Offline())]),
///     clock: effects.clock)
/// }
/// ```
///
/// Each call of such a dependency waits until the explorer picks an answer for it from its
/// samples, or until its work is cancelled. Every order of the answers, the clock's deadlines and
/// the events is explored. Outside an exploration, a call throws
/// ``ExploredEffectsError/calledOutsideAnExploration(dependency:)``.
public final class ExploredEffects: @unchecked Sendable {
  /// The names and sample descriptions of the dependencies made so far, by index.
  @exclusivity(unchecked) private(set) var dependencies:
    [(name: String, answers: [String], nevers: Bool)] = []
  /// The world the explorer is running, or `nil` between searches.
  @exclusivity(unchecked) var world: ExploredWorld?
  // NB: the explorer tells states apart by the arguments of each call waiting: comparing and
  // hashing them as `AnyHashable` at each step cost more than numbering them once per call. And
  // describing them by reflection cost a sixteenth of bench row 13e, where a few arguments wait
  // in thousands of states: each is described once.
  /// The descriptions of the distinct arguments of the dependencies' calls, by number, once made.
  @exclusivity(unchecked) private var texts: [String?] = []

  // NB: a dictionary of the arguments' own type: as `AnyHashable`s, each comparison cast its
  // operands at run time (about 1,800 instructions, bench row 13e).
  // NB: `@unchecked Sendable` as this class is: used only in an exploration, on its thread.
  /// Numbers the distinct arguments of one dependency's calls.
  private final class Numbers<Arguments: Hashable>: @unchecked Sendable {
    @exclusivity(unchecked) var numbers: [Arguments: Int] = [:]
  }

  /// The number of `arguments` in `numbers`, one dependency's: equal arguments have one.
  private func number<Arguments: Hashable>(
    of arguments: Arguments, in numbers: Numbers<Arguments>
  ) -> Int {
    if let number = numbers.numbers[arguments] { return number }
    let number = texts.count
    numbers.numbers[arguments] = number
    texts.append(nil)
    return number
  }

  /// The arguments numbered `arguments` as the paths print them, once described by
  /// ``text(of:)``.
  func text(arguments: Int) -> String {
    texts[arguments] ?? ""
  }

  /// The arguments of `call` as the paths print them, described once for equal arguments.
  func text(of call: ExploredWorld.Call) -> String {
    if let text = texts[call.arguments] { return text }
    let text = call.text
    texts[call.arguments] = text
    return text
  }
  /// The calls and sleeps of a test that takes a path again, for doubles made with ``init()``;
  /// `nil` for an exploration's.
  let script: ScriptedWorld?

  /// Creates an exploration's doubles.
  init(exploring: Void) {
    script = nil
  }

  /// Creates doubles for a ``StoreTest`` that takes a path the explorer printed: each call of a
  /// dependency waits until the test answers it with ``answer(_:arguments:sample:)``, and the
  /// clock's time passes when the test calls ``advanceClock(by:)``.
  ///
  /// A store test waits for such calls and sleeps as it waits for a `ControlledDependency` or a
  /// `TestClock`: `settle()` and `receive` return once all work waits for them.
  public init() {
    WorkRegistry.TestWaits.startTracking()
    script = ScriptedWorld()
  }

  /// Answers the oldest waiting call of the dependency named `dependency` (with these
  /// arguments, as the paths print them, if given) with its sample number `sample`, waiting for
  /// such a call if none waits yet.
  ///
  /// For the doubles of a ``StoreTest`` (``init()``); in an exploration it does nothing.
  /// - Parameters:
  ///   - dependency: The dependency's name, as given to ``dependency(_:answers:)-(_,[ExploredAnswer<Value>])``.
  ///   - arguments: The call's arguments as the paths print them, or nil for any call.
  ///   - sample: The index of the answer among the dependency's samples.
  /// - Throws: ``ExploredEffectsError/noSuchDependency(_:)`` or
  ///   ``ExploredEffectsError/noSuchSample(dependency:sample:)`` for a name or sample the doubles
  ///   do not have, or `CancellationError` if the waiting task is cancelled (a test's time limit).
  public func answer(_ dependency: String, arguments: String? = nil, sample: Int) async throws {
    try await answer(dependency, arguments: arguments, workID: nil, sample: sample)
  }

  /// Answers the oldest waiting call of the dependency named `dependency` with these arguments
  /// that the work with id `work` made, with its sample number `sample`, waiting for such a call
  /// if none waits yet.
  ///
  /// A printed path names the work when two pieces of work wait for equal calls: which of the
  /// two a store test's work makes first is a race, and the path answered one of them. Where the
  /// id does not tell them apart (work without one, or one id in two scopes), the path says so
  /// in a comment above the answer.
  ///
  /// ```swift
  /// try await effects.answer("load", arguments: "1", work: "b", sample: 0)
  /// ```
  ///
  /// For the doubles of a ``StoreTest`` (``init()``); in an exploration it does nothing.
  /// - Parameters:
  ///   - dependency: The dependency's name, as given to ``dependency(_:answers:)-(_,[ExploredAnswer<Value>])``.
  ///   - arguments: The call's arguments as the paths print them, or nil for any call.
  ///   - work: The id the calling work was started with (`effects.run(id:)`), in any scope.
  ///   - sample: The index of the answer among the dependency's samples.
  /// - Throws: ``ExploredEffectsError/noSuchDependency(_:)`` or
  ///   ``ExploredEffectsError/noSuchSample(dependency:sample:)`` for a name or sample the doubles
  ///   do not have, or `CancellationError` if the waiting task is cancelled (a test's time limit).
  public func answer(
    _ dependency: String, arguments: String? = nil, work: some Hashable & Sendable, sample: Int
  ) async throws {
    try await answer(dependency, arguments: arguments, workID: WorkID(work), sample: sample)
  }

  private func answer(
    _ dependency: String, arguments: String?, workID: WorkID?, sample: Int
  ) async throws {
    guard let script else { return }
    let indices = dependencies.indices.filter { dependencies[$0].name == dependency }
    // NB: checked here, so that the test hears of a wrong sample at its own line, rather than
    // the store's work failing with it.
    guard let first = indices.first else {
      throw ExploredEffectsError.noSuchDependency(dependency)
    }
    let answers = dependencies[first].answers
    guard answers.indices.contains(sample), answers[sample] != "never" else {
      throw ExploredEffectsError.noSuchSample(dependency: dependency, sample: sample)
    }
    let call = try await script.claim(
      dependencies: Set(indices), arguments: arguments, work: workID)
    call.wait?.end()
    call.continuation.resume(returning: sample)
  }

  /// Moves the clock `duration` ahead, and wakes the work that sleeps until then, earliest
  /// deadline first.
  ///
  /// For the doubles of a ``StoreTest`` (``init()``); in an exploration it does nothing. As
  /// `TestClock.advance(by:)` does, it wakes one piece of work at a time (for one deadline, in the
  /// order the work started, as the explorer does), and returns once the store has settled what
  /// each sent.
  /// - Parameter duration: How far to move the clock.
  public func advanceClock(by duration: Duration) async {
    await script?.advance(by: duration)
  }

  /// The clock of the exploration: time passes only when the explorer reaches a deadline.
  ///
  /// Give it to the feature as its clock (`any Clock<Duration>`). A `sleep(until:)` on it is a
  /// deadline that the explorer may reach, after any event or answer; a timer's ticks are such
  /// deadlines one after another.
  public var clock: ExploredClock { ExploredClock(effects: self) }

  /// Makes a dependency with arguments whose answers the explorer chooses among `answers`.
  ///
  /// The arguments are part of what the search tells states apart by: two loads of different
  /// items waiting are not the same state.
  /// - Parameters:
  ///   - name: The dependency's name, for the paths the checks print: use the `Deps` property's.
  ///   - answers: The answers to try for each call, in order: values, errors, and
  ///     ``ExploredAnswer/never`` for a call that may never be answered.
  /// - Returns: The dependency's closure, for the feature's `Deps`.
  public func dependency<Arguments: Hashable & Sendable, Value: Sendable>(
    _ name: String, answers: [ExploredAnswer<Value>]
  ) -> @Sendable (Arguments) async throws -> Value {
    let index = add(name, answers: answers)
    let numbers = Numbers<Arguments>()
    return { [self] arguments in
      let sample = try await call(
        index, number: { self.number(of: arguments, in: numbers) },
        describe: { String(reflecting: arguments) })
      return try answers[sample].get()
    }
  }

  /// Makes a dependency without arguments whose answers the explorer chooses among `answers`.
  /// - Parameters:
  ///   - name: The dependency's name, for the paths the checks print: use the `Deps` property's.
  ///   - answers: The answers to try for each call, in order: values, errors, and
  ///     ``ExploredAnswer/never`` for a call that may never be answered.
  /// - Returns: The dependency's closure, for the feature's `Deps`.
  public func dependency<Value: Sendable>(
    _ name: String, answers: [ExploredAnswer<Value>]
  ) -> @Sendable () async throws -> Value {
    let index = add(name, answers: answers)
    let numbers = Numbers<Int>()
    return { [self] in
      let sample = try await call(
        index, number: { self.number(of: 0, in: numbers) }, describe: { "" })
      return try answers[sample].get()
    }
  }

  private func add<Value>(_ name: String, answers: [ExploredAnswer<Value>]) -> Int {
    dependencies.append(
      (name, answers.map(\.description), answers.contains { $0.isNever }))
    return dependencies.count - 1
  }

  // NB: not generic over the answers' type: unspecialized, a generic async function looked up
  // the metadata of its answers' types at each call (bench row 13e).
  /// Waits for the sample the explorer or the script answers the call with: an index of the
  /// dependency's answers, never a "never" sample's.
  private func call(
    _ dependency: Int, number: () -> Int, describe: @escaping @Sendable () -> String
  ) async throws -> Int {
    if let script {
      let sample = try await script.call(dependency, text: describe())
      guard dependencies[dependency].answers.indices.contains(sample),
        dependencies[dependency].answers[sample] != "never"
      else {
        throw ExploredEffectsError.noSuchSample(
          dependency: dependencies[dependency].name, sample: sample)
      }
      return sample
    }
    guard let world else {
      throw ExploredEffectsError.calledOutsideAnExploration(
        dependency: dependencies[dependency].name)
    }
    let id = world.makeID()
    let token = ExploredWorkToken.current
    let arguments = number()
    // NB: unsafe rather than checked: the world resumes each call once, as it removes it (an
    // answer or a cancellation), and a checked continuation cost an allocation per call.
    let sample = try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { continuation in
        world.noteWait(of: token)
        world.calls.append(
          .init(
            id: id, dependency: dependency, token: token,
            arguments: arguments, describe: describe,
            continuation: continuation))
        if Task.isCancelled { world.cancel(id) }
      }
    } onCancel: {
      world.cancel(id)
    }
    return sample
  }

  /// Waits until the explorer reaches `deadline` on the clock, or the calling work is cancelled.
  func sleep(until deadline: Duration) async throws {
    if let script { return try await script.sleep(until: deadline) }
    guard let world else {
      throw ExploredEffectsError.calledOutsideAnExploration(dependency: "clock")
    }
    if deadline <= world.now { return }
    let id = world.makeID()
    let token = ExploredWorkToken.current
    _ = try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { continuation in
        world.noteWait(of: token)
        world.sleepers.append(
          .init(id: id, token: token, deadline: deadline, continuation: continuation))
        if Task.isCancelled { world.cancel(id) }
      }
    } onCancel: {
      world.cancel(id)
    }
  }
}

/// One answer an explored dependency may give a call.
public enum ExploredAnswer<Value: Sendable>: Sendable, CustomStringConvertible {
  /// The call returns this value.
  case value(Value)
  /// The call throws this error.
  case failure(any Error)
  /// The call is never answered: it waits until its work is cancelled. Rules over time
  /// (`expectEventually`) take it as a call that may never end.
  case never

  /// The value, or the error thrown.
  func get() throws -> Value {
    switch self {
    case .value(let value): return value
    case .failure(let error): throw error
    case .never: throw CancellationError()
    }
  }

  var isNever: Bool {
    if case .never = self { return true }
    return false
  }

  /// The answer as the paths print it: `value(…)`, `failure(…)` or `never`.
  public var description: String {
    switch self {
    case .value(let value): "value(\(String(reflecting: value)))"
    case .failure(let error): "failure(\(String(reflecting: error)))"
    case .never: "never"
    }
  }
}

/// Why an explored test double could not be used.
public enum ExploredEffectsError: Error, Equatable, CustomStringConvertible {
  /// A dependency (or the clock) of an ``ExploredEffects`` was called after its exploration
  /// ended, or by code that the exploration did not run.
  case calledOutsideAnExploration(dependency: String)
  /// A test answered a call with a sample number the dependency does not have, or with its
  /// `never` sample.
  case noSuchSample(dependency: String, sample: Int)
  /// A test answered a call of a dependency that the doubles never made.
  case noSuchDependency(String)

  /// A sentence that says what went wrong.
  public var description: String {
    switch self {
    case .calledOutsideAnExploration(let dependency):
      "The explored dependency \"\(dependency)\" was called outside its exploration: explored "
        + "test doubles answer only the work that `explore(_:from:deps:limits:events:)` runs."
    case .noSuchDependency(let dependency):
      "No explored dependency is named \"\(dependency)\": answer with the name given to "
        + "`dependency(_:answers:)`, after the feature's deps were made."
    case .noSuchSample(let dependency, let sample):
      "The explored dependency \"\(dependency)\" has no sample \(sample) to answer with: give "
        + "the index of one of its samples that is not `never`."
    }
  }
}

/// The clock of an exploration of effects: its time passes only when the explorer reaches a
/// deadline that work sleeps until.
public struct ExploredClock: Clock, Sendable {
  /// An instant on the clock: the time since the exploration's start, as on a ``TestClock``.
  public typealias Instant = TestClock.Instant

  let effects: ExploredEffects

  /// The instant the explorer has reached.
  public var now: Instant {
    Instant(offset: effects.script?.now ?? effects.world?.now ?? .zero)
  }

  /// The clock has no resolution: deadlines are exact.
  public var minimumResolution: Duration { .zero }

  /// Waits until the explorer reaches `deadline`, or the calling work is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await effects.sleep(until: deadline.offset)
  }
}
