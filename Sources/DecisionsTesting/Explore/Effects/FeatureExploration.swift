import Decisions

/// The graph of what a whole feature can do, as found by
/// ``explore(_:from:deps:limits:events:)``: the core's states together with the work in flight,
/// and every step between them, whether an event, a dependency's answer or a deadline reached.
///
/// States are numbered in the order the breadth-first search found them: state `0` is the state
/// after the core's start, and a state's number never comes before its parent's. Two moments are
/// the same state when the core's state is equal and the same work waits for the same things (see
/// ``Snapshot``).
public struct FeatureExploration<F: Feature> {
  /// One explored moment: the core's state and the work in flight, when every piece of work waits
  /// for the explorer (an answer, a deadline) or for something it does not control.
  public struct Snapshot {
    /// The core's state.
    public var state: F.State
    /// The work that has started and not ended, in the order it started.
    public var work: [ExploredWork]
  }

  /// One step the explorer can take in a state.
  public enum Choice {
    /// The test's event.
    case event(F.Event)
    /// A waiting call of an explored dependency gets one of its sample answers.
    case answer(dependency: String, arguments: String, answer: String)
    /// The clock reaches the earliest deadline that work sleeps until, this far ahead.
    case clock(advancedBy: Duration)
  }

  /// One step explored: a choice taken in a state, and the state it led to.
  public struct Transition {
    /// The number of the state the step was taken in.
    public var from: Int
    /// The step.
    public var choice: Choice
    /// The number of the state it led to.
    public var to: Int
  }

  /// The distinct states found, in the order they were found: index `i` is state `i`.
  public private(set) var snapshots: [Snapshot] = []
  /// Every step explored, grouped by the state it leaves, in the order the states were found.
  public private(set) var transitions: [Transition] = []
  /// The limit that cut the search, or nil when it explored every reachable state.
  public private(set) var limitReached: ExplorationLimits.Reached?
  /// Why the search stopped before a limit, if it did: work that never waits, or work the
  /// explorer does not control left running by every return to a state.
  private(set) var stopped: String?
  // NB: far more than an exploration can branch over (each call's samples are choices), and low
  // enough that work piling up from state to state, whose memory grows with the square of the
  // chain's length, stops within a few hundred states.
  /// How many pieces of work in flight one state may hold before the search stops.
  static var workInFlightLimit: Int { 256 }
  /// How many steps the explorer ran, the steps it ran again to return to a state included.
  public private(set) var stepsRun = 0
  /// How many steps the explorer took back, rather than return to the state along a path, and
  /// how many pieces of work it started again to take them back (see `takeBack`).
  package private(set) var stepsTakenBack = (steps: 0, workStartedAgain: 0)
  /// The states in which some work waited for something the explorer does not control (not an
  /// explored dependency or the explored clock): what it waited for was not explored.
  public private(set) var statesWithUncontrolledWork: [Int] = []
  /// The states the explorer could not return to, to take their choices left: work that keeps a
  /// value to itself made the steps to each end elsewhere.
  private(set) var statesNotReturnedTo: [Int] = []
  /// The steps after which the loop reported a problem (work that failed unheard, work without
  /// a lifetime), by transition, with what it reported.
  private(set) var problems: [(transition: Int, reports: [String])] = []

  /// Hashes a state as the search tells states apart: the state, or its key.
  private let hashState: (F.State, inout Hasher) -> Void
  /// Whether two states are one to the search: equal states, or states with equal keys.
  private let isSameState: (F.State, F.State) -> Bool

  /// An empty exploration that tells states apart with `hash` and `same`.
  init(hash: @escaping (F.State, inout Hasher) -> Void, same: @escaping (F.State, F.State) -> Bool)
  {
    hashState = hash
    isSameState = same
  }

  /// The state after the core's start: state `0`.
  public var initialSnapshot: Snapshot { snapshots[0] }
  /// Whether the search explored every reachable state: no limit cut it, it did not stop early,
  /// and it could return to each state to take its choices
  /// (``FeatureExploration/expectComplete(fileID:filePath:line:column:)`` says why).
  public var isComplete: Bool {
    limitReached == nil && stopped == nil && statesNotReturnedTo.isEmpty
  }

  // MARK: - Search state

  /// How to take a choice again (see ``ExploredStep``).
  typealias Step = ExploredStep

  /// For each state: the transition that first reached it (`-1` for state `0`), its depth, the
  /// clock's time, and whether no work was in flight (a state the explorer returns to without
  /// running the steps to it again).
  private var parents: [Int] = []
  private var depths: [Int] = []
  private(set) var times: [Duration] = []
  private var isQuiet: [Bool] = []
  private(set) var steps: [Step] = []
  /// The states each step found in the search leaves and reaches, by transition: the search's
  /// ``transitions`` before their choices are made.
  private var transitionEnds: [(from: Int, to: Int)] = []
  /// The events that steps send, by number (see ``ExploredStep/event(_:)``).
  private(set) var stepEvents: [F.Event] = []
  // NB: 86% of the steps of bench row 13e were steps taken again along the path that found a
  // state. A state with work in flight is often one step from a quiet state along another path
  // (a row's load started after another row loaded), so the explorer returns along the shortest
  // path it knows from a quiet state.
  /// For each state, the transition the explorer returns to it by (`-1` for a quiet state and
  /// state `0`), and how many steps that return takes from a quiet state or the start.
  private var returnVia: [Int] = []
  private(set) var returnSteps: [Int] = []

  // NB: a dictionary keyed by a type that depends on `F` runs the standard library's unspecialized
  // code, which asked the runtime for the key's metadata and its witnesses at each step: about
  // 13,000 instructions a lookup, a seventh of bench row 13e. The works' keys are numbered in a
  // dictionary of a concrete type, and a state is found by a hash of the core's state and that
  // number, in dictionaries of `Int`s.
  // NB: found by a hash of their own, a few multiplications per field, in a dictionary of `Int`s:
  // a dictionary of the lists hashed every field with `Hasher` at each step, about 1,700
  // instructions a lookup (bench row 13e).
  /// The numbers of the lists of work keys seen, by ``listHash(_:)``, and for each state, its
  /// list's number.
  private var workLists: [Int: [Int]] = [:]
  private var workListOf: [Int] = []
  /// The lists of work keys seen, by number.
  private var workListsByNumber: [[ExploredWorkKey]] = []
  /// The state with each hash of the core's state and its work list's number, and the states
  /// whose hash another state had first.
  private var byHash: [Int: Int] = [:]
  private var sameHash: [Int: [Int]] = [:]

  // NB: the core's state and the work's keys are passed apart, not in a struct: a type nested in
  // `FeatureExploration` is generic, and each use of one looked its metadata up (see
  // `ExploredStep`).
  /// The number of the state whose core's state is `state` and whose work's keys are `work`, if it
  /// was found.
  func stateNumber(state: F.State, work: [ExploredWorkKey]) -> Int? {
    guard let list = listNumber(of: work) else { return nil }
    let hash = hash(state, list)
    guard let first = byHash[hash] else { return nil }
    if workListOf[first] == list, isSameState(snapshots[first].state, state) { return first }
    return sameHash[hash]?.first {
      workListOf[$0] == list && isSameState(snapshots[$0].state, state)
    }
  }

  /// Files the state `number`, whose work's keys are `work`, for ``stateNumber(state:work:)``.
  private mutating func file(_ number: Int, work: [ExploredWorkKey]) {
    let list: Int
    if let known = listNumber(of: work) {
      list = known
    } else {
      list = workListsByNumber.count
      workLists[Self.listHash(work), default: []].append(list)
      workListsByNumber.append(work)
    }
    workListOf.append(list)
    let hash = hash(snapshots[number].state, list)
    if byHash[hash] == nil {
      byHash[hash] = number
    } else {
      sameHash[hash, default: []].append(number)
    }
  }

  /// The number of the list of work keys `work`, if it was seen.
  private func listNumber(of work: [ExploredWorkKey]) -> Int? {
    workLists[Self.listHash(work)]?.first { workListsByNumber[$0] == work }
  }

  /// A hash of a list of work keys: equal lists have one.
  static func listHash(_ work: [ExploredWorkKey]) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ value: UInt64) { hash = (hash ^ value) &* 0x100_0000_01b3 }
    func mix(_ value: Int) { mix(UInt64(bitPattern: Int64(value))) }
    // NB: a duration's two words as they are (its layout is frozen): `components` divides, and
    // `attoseconds` is not on every platform the package supports.
    func mix(_ duration: Duration) {
      let words = unsafeBitCast(duration, to: (UInt64, UInt64).self)
      mix(words.0)
      mix(words.1)
    }
    mix(work.count)
    for key in work {
      mix(key.place)
      mix(UInt64(key.kind))
      mix(key.dependency)
      mix(key.arguments)
      mix(key.remaining)
      mix(key.others.count)
      for other in key.others {
        mix(other.dependency)
        mix(other.arguments)
        mix(other.remaining)
      }
    }
    return Int(bitPattern: UInt(hash ^ (hash >> 29)))
  }

  private func hash(_ state: F.State, _ list: Int) -> Int {
    var hasher = Hasher()
    hashState(state, &hasher)
    hasher.combine(list)
    return hasher.finalize()
  }

  /// For each state, its transitions in `transitions`.
  private(set) var outgoing: [Range<Int>] = []
  /// For each state, whether every choice in it led to a kept state.
  private(set) var isExpanded: [Bool] = []
  /// The state the search started from, before the core's start, and what ran the feature: for
  /// printing a path as a store test, which takes it again.
  private(set) var startState: F.State?
  private(set) var runnerBox: AnyObject?
  /// Prints a path, given as indices into ``transitions``, as a store test; set by `explore`.
  var printer: (([Int]) -> String)?
  /// The explored dependencies' names and samples.
  private(set) var dependencies: [(name: String, answers: [String], nevers: Bool)] = []

  /// The transitions that leave state `number`, in the order they were tried.
  public func transitions(from number: Int) -> ArraySlice<Transition> {
    transitions[outgoing[number]]
  }

  /// The transitions of the shortest path from state `0` to state `number`, in order.
  public func shortestPath(to number: Int) -> [Transition] {
    var path: [Transition] = []
    var current = number
    while parents[current] >= 0 {
      let transition = transitions[parents[current]]
      path.append(transition)
      current = transition.from
    }
    return path.reversed()
  }

  /// The indices in ``transitions`` of the shortest path to state `number`, in order.
  func pathIndices(to number: Int) -> [Int] {
    var path: [Int] = []
    var current = number
    while parents[current] >= 0 {
      path.append(parents[current])
      current = transitions[parents[current]].from
    }
    return path.reversed()
  }

  /// The clock's time in state `number`, since the start.
  public func time(of number: Int) -> Duration { times[number] }

  /// How many steps state `number` is from state `0`.
  public func depth(of number: Int) -> Int { depths[number] }

}

// NB: no `SendableMetatype` asked of `F`: everything runs synchronously inside the job that called
// `explore`, so a main-actor feature runs on the main actor.
extension FeatureExploration {
  // MARK: - Running the feature

  /// What runs the feature: the pump, the actor reports hop to, the doubles and the deps.
  final class Runner {
    let pump = ExplorePump()
    let isolation: ExploreIsolation
    let effects: ExploredEffects
    let deps: F.Deps

    /// What the loop's diagnostics reported since the last step: work that failed with an error
    /// no handler took, and work in a child scope that no lifetime covers.
    let problems = ProblemLog()
    /// What the loop's diagnostics reported, while a path is taken again to be printed.
    let journal = StepJournal<F>()
    /// The scopes and ids of the work seen, by number, and their numbers.
    @exclusivity(unchecked) private(set) var places: [WorkPlace] = []
    // NB: by hash, in a dictionary of `Int`s: a dictionary of `WorkPlace`s copied its ids' two
    // existentials at each probe, about 2,500 instructions a lookup, once per piece of work
    // started (bench row 13e).
    /// The numbers of the places with each hash.
    @exclusivity(unchecked) private var placeNumbers: [Int: [Int]] = [:]

    /// The number of a piece of work's scope and id: equal ones have one.
    func number(scope: [WorkID], id: WorkID?) -> Int {
      var hasher = Hasher()
      hasher.combine(scope)
      hasher.combine(id)
      let hash = hasher.finalize()
      if let numbers = placeNumbers[hash] {
        for number in numbers where places[number].id == id && places[number].scope == scope {
          return number
        }
      }
      places.append(WorkPlace(scope: scope, id: id))
      placeNumbers[hash, default: []].append(places.count - 1)
      return places.count - 1
    }
    // NB: making a loop and stopping it cost a quarter of a step where no work is in flight
    // between steps (bench row 13f): a loop that reached a state with no work in flight is kept,
    // and moved to the next such state the explorer returns to.
    /// A loop with no work in flight, kept to return to a state with none.
    @exclusivity(unchecked) private var spare: SteppedLoop<F>?

    init(effects: ExploredEffects, deps: F.Deps) {
      self.isolation = ExploreIsolation(pump: pump)
      self.effects = effects
      self.deps = deps
    }

    /// A loop of the feature from `state`, with a world at `now`.
    ///
    /// Its diagnostics hear only problems, unless the journal records (a path printed again).
    func makeLoop(state: F.State, runsStart: Bool, now: Duration) -> SteppedLoop<F> {
      effects.world = ExploredWorld(now: now)
      let pump = self.pump
      let hear: (StoreDiagnostic<F>) -> Void = { [problems, journal] report in
        if journal.isRecording { journal.reports.append(report) }
        switch report {
        case .workFailed(let id, let error):
          problems.found.append(
            "\(id.map { "Work \(String(reflecting: $0.base))" } ?? "Unkeyed work") failed with "
              + "\(String(reflecting: error)), and no catch: handler turned it into an event.")
        case .workWithoutLifetime(let scope):
          problems.scopesWithoutLifetime.append(scope)
        default:
          break
        }
      }
      // NB: the loop asks for a `@Sendable` hook, which for a main-actor feature could not capture
      // `F`'s metatype. The loop calls it only where the explorer drains its jobs: on the thread
      // that called `explore`, inside the caller's job, so on the main actor for a main-actor
      // feature (see `explore`).
      let diagnostics = unsafeBitCast(hear, to: (@Sendable (StoreDiagnostic<F>) -> Void).self)
      return SteppedLoop(
        state: state, deps: deps, runsStart: runsStart, isolation: isolation,
        reportsOnlyProblems: !journal.isRecording,
        diagnostics: diagnostics,
        startTask: { token, priority, body in
          Task(executorPreference: pump, priority: priority) {
            await ExploredWorkToken.$current.withValue(token) { await body() }
          }
        })
    }

    /// A loop of the feature from `state`, which has no work in flight, with a world at `now`:
    /// the spare loop moved there, if there is one.
    func quietLoop(state: F.State, now: Duration) -> SteppedLoop<F> {
      if let loop = spare {
        spare = nil
        if loop.reset(to: state) {
          effects.world = ExploredWorld(now: now)
          return loop
        }
        tearDown(loop)
      }
      return makeLoop(state: state, runsStart: false, now: now)
    }

    // NB: a loop with work in flight had its work cancelled and was stopped: making the next
    // loop and releasing this one cost a twentieth of bench row 13e. Its work is cancelled as a
    // stop cancels it, and the loop, once its work has ended, is the spare.
    /// Stops the loop and drains its work's ends; or, if `keepsQuiet` and there is no spare loop,
    /// cancels its work, drains the work's ends and keeps it as the spare loop, if no work is left.
    func tearDown(_ loop: SteppedLoop<F>, keepsQuiet: Bool = false) {
      if keepsQuiet, spare == nil {
        if !loop.isQuiet {
          loop.cancelAllWork()
          pump.drain()
        }
        if loop.isQuiet, effects.world.map(\.isEmpty) ?? true {
          spare = loop
          effects.world = nil
          return
        }
      }
      loop.stop()
      pump.drain()
      if loop.hasWorkInFlight { loopsLeftRunning += 1 }
      effects.world = nil
    }

    // NB: such tasks wait for what the explorer does not control, and each return to a state
    // leaves its own behind, holding its stopped loop: about 0.7 MB each in a test
    // (`workLeftBehindByEachReturnStopsTheSearch`), so 10,000 of them took 7 GB. The search is
    // incomplete from the first (`expectComplete` reports the state); 256 bound the memory.
    /// How many stopped loops still had work running once their jobs were drained.
    private(set) var loopsLeftRunning = 0
    /// How many stopped loops may leave work running before the search stops.
    static var loopsLeftRunningLimit: Int { 256 }

    /// Stops the spare loop and the loops kept for states, if any.
    func tearDownKept() {
      if let loop = spare {
        spare = nil
        tearDown(loop)
      }
      for (_, kept) in waiting {
        effects.world = kept.world
        tearDown(unsafeDowncast(kept.loop, to: SteppedLoop<F>.self))
      }
      waiting = [:]
    }

    // NB: a state's first choice then takes no steps to return to it. BFS expands the states in
    // the order it finds them, so once the room is full a new state's loop, needed last, is the
    // one stopped. Each loop holds its work's suspended tasks: the room bounds their memory.
    /// The loops that found a state with work in flight, each kept running with its world until
    /// the search expands that state, by state.
    // NB: of types that do not depend on `F`: the dictionary's code is then specialized, where a
    // lookup of `F`'s tuples asked the runtime for their types' metadata (a sixteenth of bench
    // row 13e --quick).
    @exclusivity(unchecked) private var waiting: [Int: KeptLoop] = [:]
    /// How many loops ``waiting`` holds at most.
    // NB: 512 loops of bench row 13e (a few suspended tasks each) hold about 7 MB; they save a
    // twelfth of its steps, and 4,096 only a further twentieth.
    static var keptLoops: Int { 512 }

    /// Whether ``keep(_:for:)`` has room for another loop.
    var hasRoomToKeep: Bool { waiting.count < Self.keptLoops }

    /// Keeps `loop`, which found state `number` and is there, until the search expands it; or stops
    /// it, if there is no room.
    func keep(_ loop: SteppedLoop<F>, for number: Int) {
      guard waiting.count < Self.keptLoops, let world = effects.world else {
        return tearDown(loop, keepsQuiet: true)
      }
      waiting[number] = KeptLoop(loop: loop, world: world)
      effects.world = nil
    }

    /// The loop kept for state `number`, with its world in place, if one was kept.
    func keptLoop(for number: Int) -> SteppedLoop<F>? {
      guard let kept = waiting.removeValue(forKey: number) else { return nil }
      effects.world = kept.world
      return unsafeDowncast(kept.loop, to: SteppedLoop<F>.self)
    }
  }

  /// The step that sends `event`, which it keeps among ``stepEvents``.
  mutating func step(sending event: F.Event) -> Step {
    stepEvents.append(event)
    return .event(stepEvents.count - 1)
  }

  /// Takes `step` in the running loop, then runs the work until it all waits.
  func take(_ step: Step, in loop: SteppedLoop<F>, runner: Runner) {
    guard let world = runner.effects.world else { return }
    switch step {
    case .event(let number): loop.send(stepEvents[number])
    case .answer(let work, let name, let sample):
      let tokens = loop.workTokens
      let token = work >= 0 && work < tokens.count ? tokens[work] : nil
      var seen = 0
      for (index, call) in world.calls.enumerated() {
        guard Self.owner(of: call, in: tokens) == token, call.dependency == name.dependency,
          call.arguments == name.arguments
        else { continue }
        if seen == name.rank {
          world.answer(index, sample: sample)
          break
        }
        seen += 1
      }
    case .advance: world.advance()
    }
    runner.pump.drain()
  }

  /// The token of the work in flight that made `call`, or nil if none did; `tokens` are the
  /// loop's work tokens, in order.
  static func owner(of call: ExploredWorld.Call, in tokens: [UInt64]) -> UInt64? {
    guard let token = call.token else { return nil }
    return Self.position(of: token, in: tokens) == nil ? nil : token
  }

  /// The position of `token` among `tokens`, which are sorted.
  static func position(of token: UInt64, in tokens: [UInt64]) -> Int? {
    var low = 0
    var high = tokens.count
    while low < high {
      let middle = (low + high) / 2
      if tokens[middle] < token { low = middle + 1 } else { high = middle }
    }
    return low < tokens.count && tokens[low] == token ? low : nil
  }

  /// What the work with `token`, whose scope and id have number `place`, waits for in `world`,
  /// and the answers it keeps.
  static func workKey(of token: UInt64, place: Int, in world: ExploredWorld) -> ExploredWorkKey {
    var key = ExploredWorkKey(
      place: place, kind: 2, dependency: -1, arguments: -1, remaining: .zero)
    // NB: a piece of work that waits for several calls or sleeps at once (`async let`, a task
    // group) is told apart by all of them: the first is what the snapshot shows.
    for call in world.calls where call.token == token {
      if key.kind == 2 {
        key.kind = 0
        key.dependency = call.dependency
        key.arguments = call.arguments
      } else {
        key.others.append(
          ExploredWaitKey(dependency: call.dependency, arguments: call.arguments, remaining: .zero))
      }
    }
    for sleeper in world.sleepers where sleeper.token == token {
      if key.kind == 2 {
        key.kind = 1
        key.remaining = sleeper.deadline - world.now
      } else {
        key.others.append(
          ExploredWaitKey(dependency: -1, arguments: -1, remaining: sleeper.deadline - world.now))
      }
    }
    if key.others.count > 1 { key.others.sort() }
    if !world.answers.isEmpty {
      var began = UInt64.max
      for call in world.calls where call.token == token { began = min(began, call.id) }
      for sleeper in world.sleepers where sleeper.token == token {
        began = min(began, sleeper.id)
      }
      for answer in world.keptAnswers(of: token, since: began) {
        key.others.append(
          ExploredWaitKey(
            dependency: answer.dependency, arguments: answer.arguments,
            remaining: .nanoseconds(-1 - answer.sample)))
      }
    }
    return key
  }

  // NB: states are told apart by the arguments' values, not their text: the text is made only
  // for a state seen for the first time (it cost a seventh of the explorer's time, bench row 13e).
  /// What tells the running loop's state apart besides the core's state: for each piece of work in
  /// flight, what it waits for; and whether some work waits for something the explorer does not
  /// control.
  func workKeys(of loop: SteppedLoop<F>, runner: Runner) -> (
    work: [ExploredWorkKey], uncontrolled: Bool
  ) {
    guard let world = runner.effects.world else { return ([], false) }
    var uncontrolled = false
    var work: [ExploredWorkKey] = []
    var tokens: [UInt64] = []
    loop.visitWork(numbering: runner.number) { token, place in
      tokens.append(token)
      let key = Self.workKey(of: token, place: place, in: world)
      if key.kind == 2 { uncontrolled = true }
      work.append(key)
    }
    // NB: a world lives as long as its loop, which a chain of kept states (a timer's ticks) keeps
    // for thousands of steps: the answers of work that ended are dropped.
    if world.answers.count > tokens.count {
      world.answers = world.answers.filter { tokens.contains($0.key) }
    }
    // NB: loosely: the work a step moved on has ended when its key is made, and its start time
    // is read after that, to take the step back.
    if world.began.count > 4 * tokens.count + 64 {
      world.began = world.began.filter { tokens.contains($0.key) }
      world.resumed = world.resumed.filter { tokens.contains($0) }
    }
    return (work, uncontrolled)
  }

  /// The snapshot of the running loop, whose core is in `state` and whose work's keys are `keys`.
  private func snapshot(
    _ state: F.State, _ keys: [ExploredWorkKey], of loop: SteppedLoop<F>, runner: Runner
  ) -> Snapshot {
    guard let world = runner.effects.world else { return Snapshot(state: state, work: []) }
    let work = zip(keys, loop.workTokens).map { work, token in
      let waits: ExploredWork.Wait
      switch work.kind {
      case 0:
        let text = world.calls.first { $0.token == token }.map(runner.effects.text) ?? ""
        waits = .answer(dependency: dependencies[work.dependency].name, arguments: text)
      case 1:
        waits = .deadline(in: work.remaining)
      default:
        waits = .somethingElse
      }
      let place = runner.places[work.place]
      return ExploredWork(scope: place.scope, id: place.id, waitsFor: waits)
    }
    return Snapshot(state: state, work: work)
  }

  /// Returns the loop to state `number`: from a state with no work in flight, or the start, takes
  /// again the steps of the shortest path known from one (see ``returnVia``).
  ///
  /// A path other than the one that found the state may reach a loop whose work differs in what
  /// the state's key does not tell (a value a piece of work keeps to itself), or at another time;
  /// then the explorer returns along the path that found it, and keeps to that path from then on.
  /// Returns nil when that path does not reach the state either: its choices left are not taken.
  private mutating func restore(_ number: Int, runner: Runner, initial: F.State) -> SteppedLoop<F>?
  {
    let (loop, isOtherPath) = returnLoop(
      to: number, via: returnVia, runner: runner, initial: initial)
    if isThere(loop, number, runner: runner) { return loop }
    runner.tearDown(loop, keepsQuiet: true)
    guard isOtherPath else { return nil }
    var chain: [Int] = []
    var current = number
    while !isQuiet[current], parents[current] >= 0 {
      chain.append(current)
      current = transitionEnds[parents[current]].from
    }
    for (offset, state) in chain.reversed().enumerated() {
      returnVia[state] = parents[state]
      returnSteps[state] = offset + 1
    }
    let again = returnLoop(to: number, via: parents, runner: runner, initial: initial).loop
    if isThere(again, number, runner: runner) { return again }
    runner.tearDown(again, keepsQuiet: true)
    return nil
  }

  // NB: checked after every return, along the path that found the state too: that path's steps
  // may have been taken in moments reached along other paths, which work that keeps a value to
  // itself tells apart.
  /// Whether `loop` is in state `number`, at its time.
  private func isThere(_ loop: SteppedLoop<F>, _ number: Int, runner: Runner) -> Bool {
    (runner.effects.world?.now ?? .zero) == times[number]
      && stateNumber(state: loop.state, work: workKeys(of: loop, runner: runner).work) == number
  }

  /// A loop at state `number`, reached from the first quiet state or the start along `via`, and
  /// whether that path is not the one that found the state.
  private mutating func returnLoop(
    to number: Int, via: [Int], runner: Runner, initial: F.State
  ) -> (loop: SteppedLoop<F>, isOtherPath: Bool) {
    var chain: [Int] = []
    var current = number
    var isOtherPath = false
    while !isQuiet[current], via[current] >= 0 {
      if via[current] != parents[current] { isOtherPath = true }
      chain.append(via[current])
      current = transitionEnds[via[current]].from
    }
    let loop: SteppedLoop<F>
    if isQuiet[current] {
      loop = runner.quietLoop(state: snapshots[current].state, now: times[current])
    } else {
      loop = runner.makeLoop(state: initial, runsStart: true, now: .zero)
      loop.start()
      runner.pump.drain()
    }
    for index in chain.reversed() {
      take(steps[index], in: loop, runner: runner)
      stepsRun += 1
    }
    return (loop, isOtherPath)
  }

  /// What it takes to take back `step` in `loop`, in state `from`, if it can be taken back; the
  /// loop saves its checkpoint.
  private func takeBack(
    of step: Step, in loop: SteppedLoop<F>, from: Int, _ runner: Runner
  ) -> TakeBack? {
    // NB: a state with no work in flight is returned to by moving the spare loop there: no steps.
    guard returnSteps[from] > 0, StepsTakenBack.areTaken, let world = runner.effects.world else {
      return nil
    }
    let answered: UInt64?
    switch step {
    case .event:
      answered = nil
    case .answer(let work, _, _):
      let tokens = loop.workTokens
      guard work >= 0, work < tokens.count, !world.resumed.contains(tokens[work]) else {
        return nil
      }
      answered = tokens[work]
    case .advance:
      return nil
    }
    loop.saveCheckpoint()
    return TakeBack(mark: world.mark, answered: answered)
  }

  // NB: an event moves on no work in flight unless its decisions cancel or replace some; an answer
  // moves on the work it answers. Ending the work the step started, starting the work it moved on
  // again from its beginning (if that waited where it first waited), and moving the core back
  // returns to the state the step was taken in, where returning along a path costs a step per
  // piece of work in flight (bench row 13e).
  /// Takes back the step `loop` took from state `from`: cancels the work it started, starts the
  /// work it moved on again, and moves the core back, if every other piece of work of `from`
  /// still waits where it did; else stops the loop.
  /// - Returns: The loop, back in state `from`, or nil.
  private mutating func takeBack(
    _ loop: SteppedLoop<F>, to from: Int, _ back: TakeBack?, runner: Runner
  ) -> SteppedLoop<F>? {
    guard let back else {
      runner.tearDown(loop, keepsQuiet: true)
      return nil
    }
    let moved = loop.movedWork(answered: back.answered)
    loop.cancelWork(andMoved: moved)
    runner.pump.drain()
    guard let world = runner.effects.world, !runner.pump.overran,
      world.matches(back.mark, leavingOut: moved), loop.rewindCore(),
      restart(moved, back, in: loop, world: world, runner: runner), loop.isAtCheckpoint,
      waitAsBefore(moved, from: from, tokens: loop.checkpointTokens, world: world)
    else {
      runner.tearDown(loop, keepsQuiet: true)
      return nil
    }
    // NB: the rest of the state's key is as it was by construction: the core's state is the
    // checkpoint's, the work in flight its work, and every wait but those of the work started
    // again the same wait, by id. The tests build in debug, where the whole key is checked.
    assert(isThere(loop, from, runner: runner), "a step taken back left \(whereabouts(from))")
    stepsTakenBack.steps += 1
    stepsTakenBack.workStartedAgain += moved.count
    return loop
  }

  /// Whether the work `moved`, started again, waits for what it waited for in state `from`,
  /// whose work is `tokens`.
  private func waitAsBefore(
    _ moved: [UInt64], from: Int, tokens: [UInt64], world: ExploredWorld
  ) -> Bool {
    let list = workListsByNumber[workListOf[from]]
    for token in moved {
      guard let position = tokens.firstIndex(of: token), position < list.count
      else { return false }
      let before = list[position]
      if Self.workKey(of: token, place: before.place, in: world) != before { return false }
    }
    return true
  }

  /// Starts the work `moved` again, each piece from the decision that started it and at the time
  /// it started, until it waits: true if all of it waits again.
  private func restart(
    _ moved: [UInt64], _ back: TakeBack, in loop: SteppedLoop<F>, world: ExploredWorld,
    runner: Runner
  ) -> Bool {
    if moved.isEmpty { return true }
    let now = world.now
    defer { world.now = now }
    for token in moved {
      // NB: the work answered waited where it first waited (see `takeBack(of:)`); the work a
      // step cancelled was not moved on by the step, so `resumed` tells.
      guard token == back.answered || !world.resumed.contains(token),
        let time = world.began[token], loop.hasEnded(token)
      else { return false }
      world.answers[token] = nil
      world.resumed.remove(token)
      world.now = time
      guard let entry = loop.restart(token) else { return false }
      runner.pump.drain()
      guard !runner.pump.overran, world.waits(token) else {
        entry.task?.cancel()
        runner.pump.drain()
        return false
      }
      loop.reinstate(entry, token)
    }
    world.restoreOrder(as: back.mark, of: moved)
    return true
  }

  /// Why the search must stop after taking `step` in state `from`, if it must: the transitions
  /// found so far are made first, for the path it prints.
  private mutating func stopReason(
    after step: Step, from: Int, runner: Runner, workInFlight: Int
  ) -> String? {
    makeTransitions(runner: runner)
    let choice = choice(of: step, runner: runner)
    if runner.pump.overran {
      return """
        In \(whereabouts(from)), after "\(Self.describe(choice))", work ran \(ExplorePump.jobsPerDrain) \
        jobs without waiting for an answer or a deadline of the explorer (a loop with no `await` \
        it controls), so the search stopped there. Its path:
        \(path(of: shortestPath(to: from) + [Transition(from: from, choice: choice, to: -1)]))
        """
    }
    let cause: String
    if runner.loopsLeftRunning >= Runner.loopsLeftRunningLimit {
      cause = """
        Work that waits for something the explorer does not control was still running when its \
        loop stopped, \(runner.loopsLeftRunning) times: each return to a state leaves such tasks \
        behind
        """
    } else if workInFlight >= Self.workInFlightLimit {
      cause = """
        A state reached \(workInFlight) pieces of work in flight: work piles up, such as work \
        that waits for something the explorer does not control and outlives its cancellation
        """
    } else {
      return nil
    }
    return """
      \(cause), so the search stopped after \(snapshots.count) states to bound its memory. In a \
      main-actor feature, work that reads a main-actor value (a static, a global) or calls a \
      main-actor function waits for the main actor, which the exploration holds: read the value \
      before effects.run, or pass it in the decision.
      """
  }

  /// Adds a state found by `parent` and returns its number.
  private mutating func add(
    _ snapshot: Snapshot, work: [ExploredWorkKey], parent: Int, from: Int, time: Duration,
    uncontrolled: Bool
  ) -> Int {
    let number = snapshots.count
    snapshots.append(snapshot)
    file(number, work: work)
    parents.append(parent)
    depths.append(parent < 0 ? 0 : depths[from] + 1)
    times.append(time)
    isQuiet.append(snapshot.work.isEmpty)
    let returns = snapshot.work.isEmpty || parent < 0
    returnVia.append(returns ? -1 : parent)
    returnSteps.append(returns ? 0 : returnSteps[from] + 1)
    outgoing.append(0..<0)
    isExpanded.append(false)
    if uncontrolled { statesWithUncontrolledWork.append(number) }
    return number
  }

  // NB: the choices are steps, and a step's choice (with its texts) is made only for a transition
  // kept: an array of `(Step, Choice)` pairs, whose type depends on `F`, looked its metadata up
  // at each append (bench row 13e).
  /// The choices in the running loop's state, as steps: the events, each sample of each waiting
  /// call, and the next deadline.
  private mutating func choices(
    in loop: SteppedLoop<F>, runner: Runner, events: (F.State) -> [F.Event]
  ) -> [Step] {
    var result: [Step] = []
    for event in events(loop.state) { result.append(step(sending: event)) }
    guard let world = runner.effects.world else { return result }
    let tokens = loop.workTokens
    var ranks: [CallKey: Int] = [:]
    for call in world.calls {
      let owner = Self.owner(of: call, in: tokens)
      let same = CallKey(owner: owner, dependency: call.dependency, arguments: call.arguments)
      let rank = ranks[same, default: 0]
      ranks[same] = rank + 1
      let work = owner.flatMap { Self.position(of: $0, in: tokens) } ?? -1
      // NB: described now, once per distinct arguments, for ``choice(of:runner:)``.
      _ = runner.effects.text(of: call)
      let name = CallName(dependency: call.dependency, arguments: call.arguments, rank: rank)
      for (sample, answer) in dependencies[call.dependency].answers.enumerated()
      where answer != "never" {
        result.append(.answer(work: work, call: name, sample: sample))
      }
    }
    if let deadline = world.nextDeadline { result.append(.advance(by: deadline - world.now)) }
    return result
  }

  /// The choice that `step`, one of ``choices(in:runner:events:)``, takes.
  private func choice(of step: Step, runner: Runner) -> Choice {
    switch step {
    case .event(let number):
      .event(stepEvents[number])
    case .answer(_, let call, let sample):
      .answer(
        dependency: dependencies[call.dependency].name,
        arguments: runner.effects.text(arguments: call.arguments),
        answer: dependencies[call.dependency].answers[sample])
    case .advance(let duration):
      .clock(advancedBy: duration)
    }
  }

  /// Explores breadth first from `initial`.
  mutating func search(
    initial: F.State, runner: Runner, limits: ExplorationLimits, events: (F.State) -> [F.Event]
  ) {
    startState = initial
    runnerBox = runner
    dependencies = runner.effects.dependencies
    do {
      let loop = runner.makeLoop(state: initial, runsStart: true, now: .zero)
      loop.start()
      runner.pump.drain()
      dependencies = runner.effects.dependencies
      let (work, uncontrolled) = workKeys(of: loop, runner: runner)
      let state = loop.state
      _ = add(
        snapshot(state, work, of: loop, runner: runner), work: work, parent: -1, from: -1,
        time: .zero, uncontrolled: uncontrolled)
      runner.tearDown(loop, keepsQuiet: true)
    }
    var next = 0
    // NB: the loop that found a state with work in flight is kept running until the state is
    // expanded (see `Runner.keep`): a chain of steps (a timer ticking on) then costs one step per
    // state, not a return along the whole chain, and each state's first choice costs one step.
    search: while next < snapshots.count {
      let from = next
      next += 1
      guard depths[from] < limits.depth else {
        limitReached = limitReached ?? .depth(limits.depth)
        continue
      }
      let first = steps.count
      var expanded = true
      var loop: SteppedLoop<F>? =
        runner.keptLoop(for: from) ?? restore(from, runner: runner, initial: initial)
      guard let there = loop else {
        statesNotReturnedTo.append(from)
        continue
      }
      let options = choices(in: there, runner: runner, events: events)
      var offset = 0
      while offset < options.count {
        let step = options[offset]
        offset += 1
        guard let running = loop ?? restore(from, runner: runner, initial: initial) else {
          statesNotReturnedTo.append(from)
          expanded = false
          break
        }
        loop = nil
        runner.problems.found.removeAll()
        runner.problems.scopesWithoutLifetime.removeAll()
        let back =
          offset < options.count ? takeBack(of: step, in: running, from: from, runner) : nil
        take(step, in: running, runner: runner)
        stepsRun += 1
        let (after, uncontrolled) = workKeys(of: running, runner: runner)
        let state = running.state
        // NB: the reason is asked for only when there is one: it makes the transitions found so
        // far, and a step's choice, whose types depend on `F` (see `ExploredStep`).
        if runner.pump.overran || runner.loopsLeftRunning >= Runner.loopsLeftRunningLimit
          || after.count >= Self.workInFlightLimit,
          let reason = stopReason(
            after: step, from: from, runner: runner, workInFlight: after.count)
        {
          // NB: the state keeps the steps it took; it counts as not expanded.
          stopped = reason
          runner.tearDown(running)
          if let loop { runner.tearDown(loop) }
          outgoing[from] = first..<steps.count
          break search
        }
        let found =
          runner.problems.found
          + runner.problems.scopesWithoutLifetime.map {
            workWithoutLifetimeMessage(feature: F.self, scope: $0)
          }
        let to: Int
        if let known = stateNumber(state: state, work: after) {
          to = known
          // NB: a path returned along must reach the state at its time: work may hold an instant
          // across its waits (a deadline it computed once), which a clock moved to the state's
          // time would not move. (Nor is the loop of a step that leaves the state as it was kept
          // for its next choice: work that keeps a value to itself, such as its tries, is then in
          // another moment than the one found, and its choices would be taken there.)
          let now = runner.effects.world?.now ?? .zero
          loop = takeBack(running, to: from, back, runner: runner)
          if known >= next, returnSteps[from] + 1 < returnSteps[known], now == times[known] {
            returnVia[known] = steps.count
            returnSteps[known] = returnSteps[from] + 1
          }
        } else if snapshots.count < limits.states {
          let time = runner.effects.world?.now ?? .zero
          to = add(
            snapshot(state, after, of: running, runner: runner), work: after,
            parent: steps.count,
            from: from, time: time, uncontrolled: uncontrolled)
          if depths[to] < limits.depth, !snapshots[to].work.isEmpty, runner.hasRoomToKeep {
            runner.keep(running, for: to)
          } else {
            loop = takeBack(running, to: from, back, runner: runner)
          }
        } else {
          loop = takeBack(running, to: from, back, runner: runner)
          limitReached = .states(limits.states)
          expanded = false
          continue
        }
        if !found.isEmpty { problems.append((steps.count, found)) }
        transitionEnds.append((from, to))
        steps.append(step)
      }
      if let loop { runner.tearDown(loop, keepsQuiet: true) }
      outgoing[from] = first..<steps.count
      isExpanded[from] = expanded
    }
    runner.tearDownKept()
    makeTransitions(runner: runner)
    // NB: the ends served the returns; the transitions hold them now.
    transitionEnds = []
  }

  // NB: a step's choice is made, and its transition kept, once the search is over: making a
  // `Transition` (whose type depends on `F`) and appending it looked up two types' metadata per
  // transition (bench row 13e).
  /// Makes the ``transitions`` the search has found since the last call, from their steps and
  /// ends.
  private mutating func makeTransitions(runner: Runner) {
    transitions.reserveCapacity(steps.count)
    for index in transitions.count..<steps.count {
      let (from, to) = transitionEnds[index]
      transitions.append(
        Transition(from: from, choice: choice(of: steps[index], runner: runner), to: to))
    }
  }
}

/// Where a loop's world was before a step that may be taken back (an event, or an answer), and
/// the work the step answers, if it answers; the loop keeps its own checkpoint.
// NB: not nested in `FeatureExploration`: see `ExploredWorkKey`.
struct TakeBack {
  var mark: ExploredWorld.Mark
  var answered: UInt64?
}

// NB: not nested in `FeatureExploration`, as `ExploredWorkKey` is not: each use of a nested type,
// which is generic, looked its metadata up, twice per step (bench row 13e); the event is kept
// apart, by number.
// NB: a call is named by its work, not by its place among the waiting calls: a state is
// returned to along any path that reaches it (see `restore`), and paths that reach one state
// can make its calls in another order.
/// How to take a choice again: its event, which call gets which sample, or the clock's advance.
enum ExploredStep {
  /// The exploration's event numbered `number` (see `FeatureExploration.stepEvents`).
  case event(Int)
  /// The waiting call of the work at `work` in the state's work (`-1`: the calls of no work in
  /// flight) to the dependency `dependency` with arguments numbered `arguments`, the `rank`th
  /// such call, gets sample `sample`.
  // NB: not the work's `nth` call: a piece of work that calls several dependencies at once (a
  // task group) may make them in another order along another path to the state, which the
  // state's key does not tell apart.
  case answer(work: Int, call: CallName, sample: Int)
  /// The clock advances to the earliest deadline, `by` ahead.
  case advance(by: Duration)
}

/// Whether the explorer takes back the steps it can (see `FeatureExploration.takeBack`), rather
/// than return along a path for every choice: for tests of its returns.
enum StepsTakenBack {
  @TaskLocal static var areTaken = true
}

/// What tells a piece of work in flight apart from another, in an explored state.
// NB: not nested in `FeatureExploration`, whose nested types are generic: each use of one looked
// up its metadata, on every step.
struct ExploredWorkKey: Hashable {
  /// The number of the work's scope and id (see `Runner.number`).
  var place: Int
  /// 0: an answer, 1: a deadline, 2: something else.
  var kind: UInt8
  var dependency: Int
  /// The number of the call's arguments (see `ExploredEffects.texts`), or -1.
  var arguments: Int
  var remaining: Duration
  /// The other calls and sleeps the work waits for at once, in order.
  var others: [ExploredWaitKey] = []
}

/// A call (its dependency and arguments' number) or a sleep (dependency `-1`, and the time left)
/// that a piece of work waits for besides its first; or an answer it got and may keep to itself
/// (a negative time left: minus one, minus the sample), in the order it got them.
struct ExploredWaitKey: Hashable, Comparable {
  var dependency: Int
  var arguments: Int
  var remaining: Duration

  static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.dependency, lhs.arguments) < (rhs.dependency, rhs.arguments)
      || (lhs.dependency, lhs.arguments) == (rhs.dependency, rhs.arguments)
        && lhs.remaining < rhs.remaining
  }
}

/// Which of a piece of work's waiting calls an answer step answers: the `rank`th of its calls to
/// the dependency `dependency` with the arguments numbered `arguments`.
struct CallName: Hashable {
  var dependency: Int
  var arguments: Int
  var rank: Int
}

/// A waiting call's work (its token), dependency and arguments' number.
struct CallKey: Hashable {
  var owner: UInt64?
  var dependency: Int
  var arguments: Int
}

/// A piece of work's scope and id, which the explorer numbers.
struct WorkPlace: Hashable {
  var scope: [WorkID]
  var id: WorkID?
}

/// A loop kept running for a state, with its world.
final class KeptLoop {
  let loop: AnyObject
  let world: ExploredWorld
  init(loop: AnyObject, world: ExploredWorld) {
    self.loop = loop
    self.world = world
  }
}

/// What an explored loop's diagnostics reported while a path was taken again; used on the
/// explorer's thread only.
final class StepJournal<F: Feature>: @unchecked Sendable {
  var isRecording = false
  var reports: [StoreDiagnostic<F>] = []
}

/// What an explored loop's diagnostics reported; used on the explorer's thread only.
final class ProblemLog: @unchecked Sendable {
  var found: [String] = []
  var scopesWithoutLifetime: [[WorkID]] = []
}

/// A piece of work in flight in an explored state.
public struct ExploredWork: Hashable, Sendable, CustomStringConvertible {
  /// What a piece of work waits for.
  public enum Wait: Hashable, Sendable {
    /// A call of an explored dependency, with its arguments as text, waits for its answer.
    case answer(dependency: String, arguments: String)
    /// A sleep on the explored clock waits for a deadline this far ahead.
    case deadline(in: Duration)
    /// Something the explorer does not control: a real clock, a dependency that is not explored.
    case somethingElse
  }

  /// The scope of the work: empty for the feature's own, a child's for its children's.
  public var scope: [WorkID]
  /// The work's id, or nil for work started without one.
  public var id: WorkID?
  /// What the work waits for: its first call, or its sleep, when it waits for several at once
  /// (`async let`), though the search tells apart states by all of them.
  public var waitsFor: Wait

  /// Creates a piece of work in flight, for comparing with a snapshot's.
  /// - Parameters:
  ///   - scope: The scope of the work: empty for the feature's own.
  ///   - id: The work's id, or nil for work started without one.
  ///   - waitsFor: What the work waits for.
  public init(scope: [WorkID], id: WorkID?, waitsFor: Wait) {
    self.scope = scope
    self.id = id
    self.waitsFor = waitsFor
  }

  /// The work as the paths print it: `"load" waits for search("sw")`.
  public var description: String {
    let name = id.map { String(reflecting: $0.base) } ?? "unkeyed work"
    let place =
      scope.isEmpty ? "" : " in \(scope.map { String(reflecting: $0.base) }.joined(separator: "/"))"
    switch waitsFor {
    case .answer(let dependency, let arguments):
      return "\(name)\(place) waits for \(dependency)(\(arguments))"
    case .deadline(let duration):
      return "\(name)\(place) sleeps for \(duration)"
    case .somethingElse:
      return "\(name)\(place) waits for something the explorer does not control"
    }
  }
}

extension FeatureExploration.Snapshot: CustomStringConvertible {
  /// The moment as the failure messages print it: the state, then the work in flight.
  ///
  /// ```
  /// state: Search.State(query: "sw", resultsQuery: "s")
  /// work:  "debounce" sleeps for 0.3 seconds
  /// ```
  public var description: String {
    let work = work.isEmpty ? "none" : work.map(\.description).joined(separator: "; ")
    return "state: \(DecisionsTesting.describe(state, indent: "       "))\nwork:  \(work)"
  }
}

/// Explores every state a feature can reach, with its work: the test's events, the answers of its
/// dependencies and the deadlines of its clock, in every order, through the feature's real core,
/// executor and child lifetimes.
///
/// Each dependency the exploration controls comes from `deps`, which builds the feature's `Deps`
/// from ``ExploredEffects``: the explorer picks each waiting call's answer among the samples
/// given, and decides when the clock reaches the next deadline. Work runs one job at a time on
/// the explorer's thread, so every path is deterministic, and the explorer goes back to a state
/// by running the steps to it again (from the nearest state with no work in flight).
///
/// The core and the executor run on the caller's isolation: call it on the main actor for a
/// main-actor feature, whose state's `Hashable` must then be `nonisolated`, and whose rules take
/// the state and the work apart (`ExplorationRule("…") { state, work in … }`).
/// Work that awaits the main actor itself waits until the exploration ends.
///
/// ```swift
/// let exploration = explore(Search.self, from: .init(), deps: { effects in
///   Search.Deps(
///     search: effects.dependency("search", answers: [.value(["swift"]), .never]),
///     clock: effects.clock)
/// }) { state in
///   [.queryChanged("s"), .queryChanged("sw")]
/// }
/// exploration.expectInvariant("results match the query") { $0.state.results.query == $0.state.query }
/// ```
/// - Parameters:
///   - feature: The feature to explore.
///   - state: The state to start from; the core's start runs first, as in a store.
///   - deps: Builds the feature's deps from the exploration's test doubles. Called once.
///   - limits: How far to search: states kept and steps from the start.
///   - events: The events to try in a state: the user's actions that make sense there.
/// - Returns: The explored graph, for its checks.
public func explore<F: Feature>(
  _ feature: F.Type,
  from state: F.State,
  deps: (ExploredEffects) -> F.Deps,
  limits: ExplorationLimits = .standard,
  events: (F.State) -> [F.Event]
) -> FeatureExploration<F> where F.State: Hashable {
  search(FeatureExploration<F>(), from: state, deps: deps, limits: limits, events: events)
}

/// Explores a whole feature, telling states apart by `key` of the core's state (and the work in
/// flight): for a state that is not `Hashable`, or one that holds what no rule needs and would
/// keep the search from ending (a count that grows without bound).
///
/// Two moments whose states have equal keys, with the same work waiting for the same things, are
/// one state: the first found stands for the others, and its choices are explored from it. So a
/// key leaves out only what the feature's next steps do not depend on; with more in the key the
/// search finds more states. The checks print their paths as without a key: the states along a
/// printed path are those the path reaches.
///
/// ```swift
/// // The count of finished sessions grows without bound: the key leaves it out, and keeps
/// // what decides the next step.
/// let exploration = explore(
///   Pomodoro.self, from: .init(), key: { [$0.isRunning ? 1 : 0, $0.secondsLeft] },
///   deps: Pomodoro.deps
/// ) { _ in [.startTapped, .pauseTapped] }
/// ```
/// - Parameters:
///   - feature: The feature to explore.
///   - state: The state to start from; the core's start runs first, as in a store.
///   - key: What of a state tells it apart from another.
///   - deps: Builds the feature's deps from the exploration's test doubles. Called once.
///   - limits: How far to search: states kept and steps from the start.
///   - events: The events to try in a state: the user's actions that make sense there.
/// - Returns: The explored graph, for its checks.
public func explore<F: Feature, Key: Hashable>(
  _ feature: F.Type,
  from state: F.State,
  key: @escaping (F.State) -> Key,
  deps: (ExploredEffects) -> F.Deps,
  limits: ExplorationLimits = .standard,
  events: (F.State) -> [F.Event]
) -> FeatureExploration<F> {
  search(
    FeatureExploration<F>(hash: { $1.combine(key($0)) }, same: { key($0) == key($1) }),
    from: state, deps: deps, limits: limits, events: events)
}

/// The one search behind both: `exploration`, empty, explored from `state`.
private func search<F: Feature>(
  _ exploration: FeatureExploration<F>, from state: F.State,
  deps: (ExploredEffects) -> F.Deps, limits: ExplorationLimits, events: (F.State) -> [F.Event]
) -> FeatureExploration<F> {
  var exploration = exploration
  let effects = ExploredEffects(exploring: ())
  let runner = FeatureExploration<F>.Runner(effects: effects, deps: deps(effects))
  exploration.search(initial: state, runner: runner, limits: limits, events: events)
  let printable = exploration
  exploration.printer = { printable.storeTest(of: $0, deps: "deps") }
  return exploration
}

extension FeatureExploration where F.State: Hashable {
  /// An empty exploration that tells states apart by the states themselves.
  init() {
    self.init(hash: { $1.combine($0) }, same: ==)
  }
}

extension FeatureExploration.Snapshot: Equatable where F.State: Equatable {}
extension FeatureExploration.Snapshot: Hashable where F.State: Hashable {}
