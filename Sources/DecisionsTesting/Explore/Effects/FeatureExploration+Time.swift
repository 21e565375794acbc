// Rules over time: what must eventually happen once the user stops, whatever the order of the
// answers and deadlines, under fairness. A broken rule is shown as a path to where it breaks: a
// state where nothing more must happen, or a loop the feature can repeat for ever (a lasso), or a
// path on which more time passes than the rule allows.

extension FeatureExploration {
  /// Asserts that from every explored state where `trigger` holds, the feature reaches a state
  /// where `goal` holds once the user stops sending events: whatever answers its dependencies give
  /// and in whatever order, and within `limit` of the explored clock if one is given.
  ///
  /// "Once the user stops" means that only the feature's own steps count from the trigger on: the
  /// answers of waiting calls and the clock's deadlines. The rule assumes **fairness**: every
  /// waiting call is answered eventually, unless its dependency's samples include
  /// ``ExploredAnswer/never``, and the clock eventually reaches every deadline that work sleeps
  /// until. So it breaks in three ways, each printed as the shortest path to the trigger and the
  /// feature's steps after it:
  ///
  /// - **it stops short**: a state without the goal where nothing more must happen (no deadline
  ///   waits, and every waiting call may never be answered);
  /// - **it loops**: steps that the feature can repeat for ever without the goal, while every call
  ///   that waits all along may never be answered (a lasso: the path to the loop, and the loop);
  /// - **it takes too long**: with `limit`, a path on which the clock passes more than `limit`
  ///   without the goal.
  ///
  /// ```swift
  /// exploration.expectEventually("the meeting ends", within: .seconds(20)) {
  ///   $0.state.ending != nil
  /// }
  /// exploration.expectEventually("a started search ends", after: { !$0.work.isEmpty }) {
  ///   $0.work.isEmpty
  /// }
  /// ```
  ///
  /// States the search did not expand (cut by a limit) are not judged: what follows them is
  /// unknown. So a cut search can miss a broken rule, but never reports a false one. The store
  /// test the message prints ends with a comment; with the goal declared as an
  /// ``ExplorationRule``, it ends with the goal's check.
  /// - Parameters:
  ///   - name: What the rule says, for the message.
  ///   - trigger: Where the rule starts to apply; every state by default.
  ///   - limit: The most time the explored clock may pass from the trigger to the goal, or nil for
  ///     no limit.
  ///   - fairness: What the rule assumes the feature's steps do in the end: every call is answered
  ///     (the default), or also every answer that can be given again and again is given.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  ///   - goal: Whether an explored state is the one the feature must reach.
  public func expectEventually(
    _ name: String,
    after trigger: (Snapshot) -> Bool = { _ in true },
    within limit: Duration? = nil,
    assuming fairness: ExplorationFairness = .everyCallAnswered,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ goal: (Snapshot) -> Bool
  ) {
    withoutActuallyEscaping(trigger) { trigger in
      withoutActuallyEscaping(goal) { goal in
        expectEventually(
          ExplorationRule(unnamed: name, goal), after: ExplorationRule(unnamed: "", trigger),
          within: limit, assuming: fairness, fileID: fileID, filePath: filePath, line: line,
          column: column)
      }
    }
  }

  /// Asserts that from every explored state where `trigger` holds, the feature reaches a state
  /// that keeps `goal` once the user stops sending events: a named goal with a trigger written in
  /// place.
  ///
  /// ```swift
  /// exploration.expectEventually(.isSaved, after: { $0.state.isSaving })
  /// ```
  ///
  /// It is ``expectEventually(_:after:within:assuming:fileID:filePath:line:column:)`` with the
  /// trigger as a rule; the printed store test ends with the goal's check.
  /// - Parameters:
  ///   - goal: The state the feature must reach.
  ///   - trigger: Where the rule starts to apply.
  ///   - limit: The most time the explored clock may pass from the trigger to the goal, or nil for
  ///     no limit.
  ///   - fairness: What the rule assumes the feature's steps do in the end: every call is answered
  ///     (the default), or also every answer that can be given again and again is given.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  public func expectEventually(
    _ goal: ExplorationRule<F>,
    after trigger: (Snapshot) -> Bool,
    within limit: Duration? = nil,
    assuming fairness: ExplorationFairness = .everyCallAnswered,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    withoutActuallyEscaping(trigger) { trigger in
      expectEventually(
        goal, after: ExplorationRule(unnamed: "", trigger), within: limit, assuming: fairness,
        fileID: fileID, filePath: filePath, line: line, column: column)
    }
  }

  /// Asserts that from every explored state that keeps `trigger`, the feature reaches a state
  /// that keeps `goal` once the user stops sending events, within `limit` of the explored clock
  /// if one is given; the printed store test of a breach ends with the goal's check, so that it
  /// fails as printed.
  ///
  /// ```swift
  /// exploration.expectEventually(.meetingEnds, within: .seconds(20))
  /// ```
  ///
  /// The rule, its fairness and its messages are those of
  /// ``expectEventually(_:after:within:fileID:filePath:line:column:_:)``. Its store test ends with
  /// `await test.expect(.meetingEnds, effects: effects)` when the goal is a static property of
  /// ``ExplorationRule``: where the path ends, the goal does not hold.
  /// - Parameters:
  ///   - goal: The state the feature must reach.
  ///   - trigger: Where the rule starts to apply; every state when nil.
  ///   - limit: The most time the explored clock may pass from the trigger to the goal, or nil for
  ///     no limit.
  ///   - fairness: What the rule assumes the feature's steps do in the end: every call is answered
  ///     (the default), or also every answer that can be given again and again is given.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  public func expectEventually(
    _ goal: ExplorationRule<F>,
    after trigger: ExplorationRule<F>? = nil,
    within limit: Duration? = nil,
    assuming fairness: ExplorationFairness = .everyCallAnswered,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let name = goal.name
    let trigger = trigger?.check ?? { _ in true }
    let isGoal = snapshots.map(goal.check)
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    // NB: one pass over the graph finds the states from which the rule can break; only those
    // are searched from, one by one. Searching from every trigger cost states × states.
    let suspect = suspects(isGoal: isGoal, limit: limit, fairness: fairness)
    for start in snapshots.indices
    where suspect[start] && !isGoal[start] && trigger(snapshots[start]) {
      guard
        let failure = breach(from: start, isGoal: isGoal, limit: limit, fairness: fairness)
      else { continue }
      let lead = shortestPath(to: start)
      let trig =
        depth(of: start) == 0
        ? "The rule \"\(name)\" applies from the state after the start"
        : "The rule \"\(name)\" applies from \(whereabouts(start))"
      let message: String
      switch failure {
      case .stops(let steps):
        let end = steps.last.map { transitions[$0].to } ?? start
        let why =
          snapshots[end].work.isEmpty
          ? "no work is in flight"
          : "no deadline waits and every waiting call may never be answered"
        message = """
          \(trig), and the feature can stop short of it: in the last state below, \(why).
          \(describe(end))
          The shortest path to it:
          \(path(of: lead + steps.map { transitions[$0] }))
          """
      case .loops(let steps, let loop):
        message = """
          \(trig), and the feature can loop for ever without reaching it: after the path below, \
          the steps of the loop repeat\(self.fairness(of: loop, assuming: fairness)).
          The path:
          \(path(of: lead + steps.map { transitions[$0] }))
          The loop, repeated for ever:
          \(path(of: loop.map { transitions[$0] }, from: lead.count + steps.count + 1))
          """
      case .tooLong(let steps, let elapsed):
        let end = steps.last.map { transitions[$0].to } ?? start
        let how =
          isGoal[end]
          ? "reaches it only after \(elapsed) on the clock"
          : "can go \(elapsed) on the clock without reaching it"
        message = """
          \(trig), and the feature \(how), more than the \(limit ?? .zero) the rule allows:
          \(describe(end))
          The path:
          \(path(of: lead + steps.map { transitions[$0] }))
          """
      }
      let indices: [Int]
      switch failure {
      case .stops(let steps), .tooLong(let steps, _): indices = pathIndices(to: start) + steps
      case .loops(let steps, let loop): indices = pathIndices(to: start) + steps + loop
      }
      // NB: a path that reaches the goal late ends where the goal holds: no check there fails.
      var check = goal.printedCheck
      if case .tooLong(let steps, let elapsed) = failure,
        isGoal[steps.last.map { transitions[$0].to } ?? start]
      {
        check =
          "// \"\(name)\" holds here, but only after \(elapsed) on the clock: more than the "
          + "\(limit ?? .zero) the rule allows."
      }
      reportFailure(message + storeTestParagraph(indices, endingWith: check), at: location)
      return
    }
  }

  /// What makes a loop fair, for the message: ", and every call that waits all along may never
  /// be answered" when some call waits in every state of the loop; with
  /// ``ExplorationFairness/everyAnswerGiven``, that the loop gives every answer it can.
  func fairness(of loop: [Int], assuming fairness: ExplorationFairness) -> String {
    let states = loop.map { transitions[$0].from }
    let waiting = states.dropFirst().reduce(Set(snapshots[states.first ?? 0].work)) {
      $0.intersection(snapshots[$1].work)
    }
    let calls = waiting.filter { if case .answer = $0.waitsFor { true } else { false } }
    let never = calls.isEmpty ? "" : ", and every call that waits all along may never be answered"
    switch fairness {
    case .everyCallAnswered: return never
    case .everyAnswerGiven:
      return never + ", and the loop gives every answer its calls can get"
    }
  }

  /// How a rule over time breaks from one state: transitions after it.
  enum Breach {
    case stops([Int])
    case loops([Int], loop: [Int])
    case tooLong([Int], elapsed: Duration)
  }

  /// Whether the feature's own steps must go on in state `number`: a deadline waits, or a call
  /// that must be answered eventually.
  func mustMove(_ number: Int) -> Bool {
    snapshots[number].work.contains { work in
      switch work.waitsFor {
      case .deadline: true
      case .answer(let dependency, _): !mayNeverAnswer(dependency)
      case .somethingElse: false
      }
    }
  }

  /// Whether some work in state `number` waits for something the explorer does not control:
  /// what follows is unknown, so rules over time do not judge the state.
  func hasUncontrolledWork(_ number: Int) -> Bool {
    snapshots[number].work.contains { $0.waitsFor == .somethingElse }
  }

  /// Whether the feature's own steps can repeat the states of `group` for ever.
  ///
  /// `group` is a strongly connected group of states. It can loop when some of its steps stay in
  /// it, and no call that must be answered, and no deadline (unless the clock moves in it), waits
  /// in all of its states. With a time limit, a group in which the clock moves counts too:
  /// repeated, it passes any limit.
  func canLoop(_ group: [Int], limit: Duration?) -> Bool {
    let inGroup = Set(group)
    let inner = group.flatMap { number in
      (isExpanded[number] ? ownSteps(from: number) : []).filter {
        inGroup.contains(transitions[$0].to)
      }
    }
    guard !inner.isEmpty else { return false }
    let clockMoves = inner.contains { elapsed($0) > .zero }
    if limit != nil, clockMoves { return true }
    let waitingAllAlong = group.dropFirst().reduce(Set(snapshots[group[0]].work)) {
      $0.intersection(snapshots[$1].work)
    }
    return !waitingAllAlong.contains { work in
      switch work.waitsFor {
      case .answer(let dependency, _): !mayNeverAnswer(dependency)
      case .deadline: !clockMoves
      case .somethingElse: false
      }
    }
  }

  /// For each state, whether the rule can break from it: whether the feature's own steps lead
  /// from it, without the goal, to a state where it stops short, to a loop, or (with `limit`)
  /// along more time than the limit.
  func suspects(isGoal: [Bool], limit: Duration?, fairness: ExplorationFairness) -> [Bool] {
    let count = snapshots.count
    let others = snapshots.indices.filter { !isGoal[$0] }
    let members = Set(others)
    var bad = [Bool](repeating: false, count: count)
    for number in others
    where isExpanded[number] && !mustMove(number) && !hasUncontrolledWork(number) {
      bad[number] = true
    }
    let groups = stronglyConnectedGroups(among: others, members: members)
    for group in groups {
      for core in loopingCores(of: group, limit: limit, fairness: fairness) {
        for number in core { bad[number] = true }
      }
    }
    if let limit {
      // NB: the groups come sinks first, so each group's onward time is known from those after
      // it. Inside a group the clock does not move, or the group can loop and is marked.
      var most = [Duration](repeating: .zero, count: count)
      for group in groups {
        let inGroup = Set(group)
        var best = Duration.zero
        for number in group where isExpanded[number] {
          for index in ownSteps(from: number) {
            let to = transitions[index].to
            // NB: the step that reaches the goal counts too: a deadline far ahead can reach it
            // late in one step.
            if isGoal[to] {
              best = max(best, elapsed(index))
              continue
            }
            guard members.contains(to), !inGroup.contains(to) else { continue }
            best = max(best, elapsed(index) + most[to])
          }
        }
        for number in group {
          most[number] = best
          if best > limit { bad[number] = true }
        }
      }
    }
    // Every state whose own steps lead to a marked one, without the goal, can break the rule.
    var incoming = [[Int]](repeating: [], count: count)
    for number in others where isExpanded[number] {
      for index in ownSteps(from: number) where members.contains(transitions[index].to) {
        incoming[transitions[index].to].append(number)
      }
    }
    var pending = others.filter { bad[$0] }
    while let number = pending.popLast() {
      for from in incoming[number] where !bad[from] {
        bad[from] = true
        pending.append(from)
      }
    }
    return bad
  }

  /// Whether the samples of the dependency named `name` include `never`.
  func mayNeverAnswer(_ name: String) -> Bool {
    dependencies.contains { $0.name == name && $0.nevers }
  }

  /// The feature's own steps that leave state `number`: answers and deadlines, not events.
  func ownSteps(from number: Int) -> [Int] {
    outgoing[number].filter { index in
      if case .event = transitions[index].choice { return false }
      return true
    }
  }

  /// The time a step moves the clock.
  func elapsed(_ index: Int) -> Duration {
    if case .clock(let duration) = transitions[index].choice { return duration }
    return .zero
  }

  /// The first way the rule breaks from `start`, if any.
  func breach(
    from start: Int, isGoal: [Bool], limit: Duration?, fairness: ExplorationFairness
  ) -> Breach? {
    // The states the feature's own steps reach from `start` without the goal, breadth first,
    // with the step that first reached each.
    var reachedBy: [Int: Int] = [start: -1]
    var order = [start]
    var next = 0
    while next < order.count {
      let number = order[next]
      next += 1
      guard isExpanded[number] else { continue }
      for index in ownSteps(from: number) {
        let to = transitions[index].to
        guard !isGoal[to], reachedBy[to] == nil else { continue }
        reachedBy[to] = index
        order.append(to)
      }
    }
    func steps(to number: Int) -> [Int] {
      var result: [Int] = []
      var current = number
      while let index = reachedBy[current], index >= 0 {
        result.append(index)
        current = transitions[index].from
      }
      return result.reversed()
    }
    // It stops short.
    if let stuck = order.first(where: {
      isExpanded[$0] && !mustMove($0) && !hasUncontrolledWork($0)
    }) {
      return .stops(steps(to: stuck))
    }
    // It loops: a cycle of own steps among the reached states.
    let members = Set(order)
    for group in stronglyConnectedGroups(among: order, members: members) {
      for core in loopingCores(of: group, limit: limit, fairness: fairness) {
        let (states, loop) = walk(through: core, fairness: fairness)
        return .loops(steps(to: states[0]), loop: loop)
      }
    }
    // It takes too long: the most time from `start` to each state, over the reached states
    // (no loop in them moves the clock, or it was reported above).
    if let limit {
      var most: [Int: Duration] = [start: .zero]
      var via: [Int: Int] = [:]
      var pending = [start]
      while let number = pending.popLast() {
        guard isExpanded[number], let time = most[number] else { continue }
        for index in ownSteps(from: number) {
          let to = transitions[index].to
          // NB: a step to the goal ends the path, and counts: it may reach the goal too late.
          let reachesGoal = isGoal[to]
          guard members.contains(to) || reachesGoal else { continue }
          let total = time + elapsed(index)
          if reachesGoal, total <= limit { continue }
          if !reachesGoal, let known = most[to], known >= total { continue }
          most[to] = total
          via[to] = index
          if total > limit {
            var path: [Int] = []
            var current = to
            var seen: Set<Int> = []
            while let index = via[current], current != start, seen.insert(current).inserted {
              path.append(index)
              current = transitions[index].from
            }
            return .tooLong(path.reversed(), elapsed: total)
          }
          pending.append(to)
        }
      }
    }
    return nil
  }

  /// A closed walk of own steps through every state of `core`, a strongly connected group.
  ///
  /// It gives the states in the order the walk visits them, and its steps (the shortest way from
  /// each state to the next, and back to the first). With ``ExplorationFairness/everyAnswerGiven``, the walk
  /// also gives each answer that the core gives, so the loop printed is a fair one.
  func walk(through core: [Int], fairness: ExplorationFairness) -> (states: [Int], steps: [Int]) {
    let inCore = Set(core)
    let sorted = core.sorted()
    var steps: [Int] = []
    for (offset, number) in sorted.enumerated() {
      let target = sorted[(offset + 1) % sorted.count]
      steps += shortestSteps(from: number, to: target, within: inCore, minimumOne: true)
    }
    guard fairness == .everyAnswerGiven else { return (sorted, steps) }
    var given = Set(steps.compactMap(answerKind))
    var current = sorted[0]
    for number in sorted where isExpanded[number] {
      for index in ownSteps(from: number) where inCore.contains(transitions[index].to) {
        guard let kind = answerKind(index), given.insert(kind).inserted else { continue }
        steps += shortestSteps(from: current, to: number, within: inCore, minimumOne: false)
        steps.append(index)
        current = transitions[index].to
      }
    }
    steps += shortestSteps(from: current, to: sorted[0], within: inCore, minimumOne: false)
    return (sorted, steps)
  }

  /// The parts of a strongly connected `group` whose steps the feature can repeat for ever under
  /// `fairness`: the group itself, or none, when every call is answered in the end; with
  /// ``ExplorationFairness/everyAnswerGiven``, the strongly connected parts left once the states
  /// that offer an answer the group never gives are taken out, again and again (as Emerson and
  /// Lei's algorithm for strong fairness does).
  func loopingCores(of group: [Int], limit: Duration?, fairness: ExplorationFairness) -> [[Int]] {
    guard fairness == .everyAnswerGiven else {
      return canLoop(group, limit: limit) ? [group] : []
    }
    var result: [[Int]] = []
    var pending = [group]
    while let part = pending.popLast() {
      let inPart = Set(part)
      var given: Set<AnswerKind> = []
      var offered: [Int: Set<AnswerKind>] = [:]
      for number in part where isExpanded[number] {
        for index in ownSteps(from: number) {
          guard let kind = answerKind(index) else { continue }
          offered[number, default: []].insert(kind)
          if inPart.contains(transitions[index].to) { given.insert(kind) }
        }
      }
      let unfair = part.filter { !(offered[$0] ?? []).isSubset(of: given) }
      guard !unfair.isEmpty else {
        if canLoop(part, limit: limit) { result.append(part) }
        continue
      }
      let rest = part.filter { (offered[$0] ?? []).isSubset(of: given) }
      let members = Set(rest)
      for smaller in stronglyConnectedGroups(among: rest, members: members) {
        pending.append(smaller)
      }
    }
    return result
  }

  /// An answer as fairness over answers tells them apart: the dependency, and the answer.
  struct AnswerKind: Hashable {
    var dependency: String
    var answer: String
  }

  /// The kind of answer step `index` gives, or nil for a deadline or an event.
  func answerKind(_ index: Int) -> AnswerKind? {
    guard case .answer(let dependency, _, let answer) = transitions[index].choice else {
      return nil
    }
    return AnswerKind(dependency: dependency, answer: answer)
  }

  /// The strongly connected groups of states in `members` under the feature's own steps, from
  /// the states of `order`, in the order Tarjan's algorithm finds them: a group comes before the
  /// groups that lead to it.
  func stronglyConnectedGroups(among order: [Int], members: Set<Int>) -> [[Int]] {
    // Tarjan's algorithm, iterative.
    var index: [Int: Int] = [:]
    var low: [Int: Int] = [:]
    var onStack: Set<Int> = []
    var stack: [Int] = []
    var counter = 0
    var groups: [[Int]] = []
    for root in order where index[root] == nil {
      var work: [(number: Int, next: Int)] = [(root, 0)]
      index[root] = counter
      low[root] = counter
      counter += 1
      stack.append(root)
      onStack.insert(root)
      while let (number, position) = work.last {
        let edges = isExpanded[number] ? ownSteps(from: number) : []
        if position < edges.count {
          work[work.count - 1].next += 1
          let to = transitions[edges[position]].to
          guard members.contains(to) else { continue }
          if index[to] == nil {
            index[to] = counter
            low[to] = counter
            counter += 1
            stack.append(to)
            onStack.insert(to)
            work.append((to, 0))
          } else if onStack.contains(to) {
            low[number] = min(low[number]!, index[to]!)
          }
        } else {
          work.removeLast()
          if let parent = work.last?.number { low[parent] = min(low[parent]!, low[number]!) }
          if low[number] == index[number] {
            var group: [Int] = []
            while let top = stack.popLast() {
              onStack.remove(top)
              group.append(top)
              if top == number { break }
            }
            groups.append(group)
          }
        }
      }
    }
    return groups
  }

  /// The fewest own steps from `from` to `to` inside `group`; at least one step with
  /// `minimumOne`, for a loop from a state back to itself.
  func shortestSteps(from: Int, to: Int, within group: Set<Int>, minimumOne: Bool) -> [Int] {
    if from == to, !minimumOne { return [] }
    var reachedBy: [Int: Int] = [:]
    var queue = [from]
    var next = 0
    while next < queue.count {
      let number = queue[next]
      next += 1
      for index in ownSteps(from: number) {
        let target = transitions[index].to
        guard group.contains(target), reachedBy[target] == nil else { continue }
        reachedBy[target] = index
        if target == to {
          var path: [Int] = []
          var current = to
          repeat {
            let step = reachedBy[current]!
            path.append(step)
            current = transitions[step].from
          } while current != from
          return path.reversed()
        }
        queue.append(target)
      }
    }
    return []
  }
}

/// What a rule over time (`expectEventually`) assumes the feature's own steps do in the end.
///
/// A loop of steps that the fairness rules out is not a way for the rule to break: with
/// ``everyAnswerGiven``, a retry that fails for ever is not, when the dependency can also succeed.
public enum ExplorationFairness: Sendable, Hashable {
  /// Every waiting call is answered in the end, unless its samples include
  /// ``ExploredAnswer/never``, and the clock reaches every deadline; which answer a call gets is
  /// free, so a loop of failures can go on for ever.
  case everyCallAnswered
  /// As ``everyCallAnswered``, and an answer that calls can get again and again is given in the
  /// end: a dependency that can succeed does so, eventually ("assuming the server comes back").
  case everyAnswerGiven
}
