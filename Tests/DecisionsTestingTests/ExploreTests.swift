import Foundation
import Testing

@testable import DecisionsTesting

@Suite struct ExploreTests {
  let door = explore(Door.self, from: .closed) { _ in Door.allEvents }

  static let jammedStory = """
    var test = CoreTest<Door>(state: .closed)
    test.send(.lock, decisions: [.log("locked")]) {
      $0 = .locked
    }
    test.send(.kick, decisions: [.log("jammed")]) {
      $0 = .jammed
    }
    """

  @Test func theSearchFindsEveryStateAndTransitionBreadthFirst() {
    #expect(door.states == [.closed, .open, .locked, .jammed])
    #expect(door.transitions.count == 20)
    #expect(door.isComplete)
    #expect(door.description == "Door: 4 states, 20 transitions, complete")
    #expect(door.shortestPath(to: 3).map(\.event) == [.lock, .kick])
    #expect(door.transitions(from: 2).map(\.to) == [2, 2, 2, 0, 3])
  }

  @Test func theCounterexampleStoryIsCodeThatRuns() {
    #expect(door.story(to: 3) == Self.jammedStory)
    // The story above, pasted: it compiles and passes.
    var test = CoreTest<Door>(state: .closed)
    test.send(.lock, decisions: [.log("locked")]) {
      $0 = .locked
    }
    test.send(.kick, decisions: [.log("jammed")]) {
      $0 = .jammed
    }
  }

  @Test func aBrokenInvariantFailsWithTheShortestStory() {
    let line: UInt = #line + 2
    let failures = withCapturedFailures {
      door.expectInvariant("never jammed") { $0 != .jammed }
    }
    #expect(
      failures.map(\.message) == [
        """
        The invariant "never jammed" does not hold in a state reached in 2 steps:
          .jammed
        The shortest story to it, as a CoreTest:

        \(Self.jammedStory)
        """
      ])
    #expect(failures.first?.line == line)
  }

  @Test func aBrokenTransitionInvariantShowsTheStep() {
    let failures = withCapturedFailures {
      door.expectTransitionInvariant("kicks decide nothing") {
        $0.event != .kick || $0.decisions.isEmpty
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        The transition invariant "kicks decide nothing" does not hold for .kick in a state reached \
        in 1 step:
          before:    .locked
          after:     .jammed
          decisions: [.log("jammed")]
        The shortest story to it, as a CoreTest (its last step breaks the invariant):

        \(Self.jammedStory)
        """
      ])
  }

  @Test func anUnreachableGoalFails() {
    #expect(door.expectReachable("jammed") { $0 == .jammed } == 3)
    let failures = withCapturedFailures {
      door.expectReachable("ajar") { _ in false }
    }
    #expect(
      failures.map(\.message) == [
        "No state that is \"ajar\" is reachable: none of the 4 explored states is."
      ])
  }

  @Test func aStuckStateFailsWithTheStoryToIt() {
    let failures = withCapturedFailures {
      door.expectAlwaysCanReach("open") { $0 == .open }
    }
    #expect(
      failures.map(\.message) == [
        """
        From a state reached in 2 steps, no state that is "open" can be reached (it reaches 0 \
        other states, none of them "open"):
          .jammed
        The shortest story to it, as a CoreTest:

        \(Self.jammedStory)
        """
      ])
    let unjammed = explore(Door.self, from: .closed) { _ in [.open, .close, .lock, .unlock] }
    let none = withCapturedFailures { unjammed.expectAlwaysCanReach("open") { $0 == .open } }
    #expect(none.isEmpty)
  }

  @Test func aLimitCutsTheSearchAndSaysSo() {
    let cut = explore(Odometer.self, from: .init(), limits: .init(states: 5)) { _ in [.add] }
    #expect(cut.limitReached == .states(5))
    #expect(cut.states.count == 5)
    let deep = explore(Odometer.self, from: .init(), limits: .init(depth: 3)) { _ in [.add] }
    #expect(deep.limitReached == .depth(3))
    #expect(deep.states.map(\.count) == [0, 1, 2, 3])
    let failures = withCapturedFailures {
      cut.expectComplete()
      cut.expectReachable("ten") { $0.count == 10 }
      // A cut search never reports a stuck state it could not finish.
      deep.expectAlwaysCanReach("zero") { $0.count == 0 }
    }
    #expect(
      failures.map(\.message) == [
        "The exploration of Odometer was cut by the limit of 5 states after 5 states and 4 "
          + "transitions. Raise the limit, or pass a key that leaves out what grows without bound.",
        "No state that is \"ten\" is reachable: none of the 5 explored states is. The search was "
          + "cut by the limit of 5 states. A state beyond it may be.",
      ])
  }

  @Test func aKeyAbstractionMakesAnInfiniteSpaceFinite() {
    let parity = explore(
      Odometer.self, from: .init(), key: { $0.count % 2 }, events: { _ in [.add] })
    #expect(parity.isComplete)
    #expect(parity.states.map(\.count) == [0, 1])
    #expect(parity.transitions.map(\.to) == [1, 0])
    #expect(parity.number(of: .init(count: 7)) == 1)
  }

  @Test func anImpureCoreFailsTheDeterminismCheck() {
    let failures = withCapturedFailures {
      explore(Impure.self, from: false) { _ in [.poke] }.expectDeterministic()
    }
    #expect(failures.count == 1)
    #expect(
      failures.first?.message.hasPrefix(
        "The core is not deterministic: .poke in the initial state gave another result when sent "
          + "again.\n  first decisions:  [") == true)
    #expect(withCapturedFailures { door.expectDeterministic() }.isEmpty)
  }

  @Test func aBrokenInvariantIsARealTestFailure() {
    withKnownIssue {
      door.expectInvariant("never jammed") { $0 != .jammed }
    }
  }

  @Test func zeroLimitsAreRejected() async {
    await #expect(processExitsWith: .failure) { _ = ExplorationLimits(states: 0) }
    await #expect(processExitsWith: .failure) { _ = ExplorationLimits(depth: 0) }
  }
}

@Suite struct ExploreDiagramTests {
  let door = explore(Door.self, from: .closed) { _ in Door.allEvents }

  @Test func mermaidLabelsEdgesWithEventAndDecisions() {
    #expect(
      door.diagram() == """
        stateDiagram-v2
          state ".closed" as s0
          state ".open" as s1
          state ".locked" as s2
          state ".jammed" as s3
          [*] --> s0
          s0 --> s1 : .open / .chime
          s0 --> s2 : .lock / .log(#quot;locked#quot;)
          s1 --> s0 : .close
          s2 --> s0 : .unlock / .log(#quot;unlocked#quot;)
          s2 --> s3 : .kick / .log(#quot;jammed#quot;)

        """)
  }

  @Test func dotDrawsAProjection() {
    #expect(
      door.diagram(.dot, projection: { $0 == .jammed ? "broken" : "working" }) == """
        digraph "Door" {
          rankdir=LR;
          node [shape=box, style=rounded];
          start [shape=point];
          s0 [label="working"];
          s1 [label="broken"];
          start -> s0;
          s0 -> s0 [label=".open / .chime"];
          s0 -> s0 [label=".lock / .log(\\"locked\\")"];
          s0 -> s0 [label=".close"];
          s0 -> s0 [label=".unlock / .log(\\"unlocked\\")"];
          s0 -> s1 [label=".kick / .log(\\"jammed\\")"];
        }

        """)
  }

  @Test func theDiagramMatchesItsCheckedInSnapshot() {
    door.expectDiagram(named: "door", projection: { $0 })
  }

  @Test func aChangedMachineFailsWithALineDiff() throws {
    let file = snapshotFile(
      named: "door-changed", pathExtension: "mmd", besideTestAt: Self.scratchTestFile)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try door.diagram().write(to: file, atomically: true, encoding: .utf8)
    let unjammed = explore(Door.self, from: .closed) { _ in [.open, .close, .lock, .unlock] }
    let failures = withCapturedFailures {
      unjammed.expectDiagram(
        named: "door-changed", projection: { $0 }, filePath: Self.scratchTestFilePath)
    }
    #expect(
      failures.map(\.message) == [
        """
        The diagram "door-changed" differs from the recorded one at \(file.path) (− recorded, + now):
        @@ -3,5 +3,4 @@
            state ".open" as s1
            state ".locked" as s2
        −   state ".jammed" as s3
            [*] --> s0
            s0 --> s1 : .open / .chime
        @@ -9,3 +8,2 @@
            s1 --> s0 : .close
            s2 --> s0 : .unlock / .log(#quot;unlocked#quot;)
        −   s2 --> s3 : .kick / .log(#quot;jammed#quot;)
        If the new diagram is right, record it again (record: true or DECISIONS_RECORD_TRACES=1).
        """
      ])
    // Record mode writes the new diagram and fails once, asking for a review.
    let recorded = withCapturedFailures {
      unjammed.expectDiagram(
        .dot, named: "door-changed", projection: { $0 }, record: true,
        filePath: Self.scratchTestFilePath)
    }
    #expect(
      recorded.first?.message.hasPrefix("Record mode is on: recorded the diagram at ") == true)
    let dot = snapshotFile(
      named: "door-changed", pathExtension: "dot", besideTestAt: Self.scratchTestFile)
    #expect(try String(contentsOf: dot, encoding: .utf8) == unjammed.diagram(.dot))
  }

  static let scratchTestFilePath: StaticString = "/tmp/decisions-explore-tests/ExploreTests.swift"
  static let scratchTestFile = "\(scratchTestFilePath)"
}

@Suite struct ExploreModelTests {
  let door = explore(Door.self, from: .closed) { _ in Door.allEvents }

  @Test func theCoveringPathsSendEveryTransitionOnce() {
    let paths = door.transitionCoveringPaths()
    #expect(paths.count == 17)
    #expect(paths.first?.description == ".close")
    #expect(paths.last?.description == ".lock → .kick → .kick")
    #expect(paths.last?.testDescription == ".lock → .kick → .kick")
    #expect(paths.last?.steps.map(\.state) == [.locked, .jammed, .jammed])
    let coverage = door.coverage(ofStories: paths.map(\.events))
    #expect(coverage.uncovered.isEmpty)
    #expect(coverage.fraction == 1)
  }

  @Test func coverageReportsWhatTheCoreTestsLeaveOut() {
    let recording = recordingCoreTests {
      var test = CoreTest<Door>(state: .closed)
      test.send(.open, decisions: [.chime]) { $0 = .open }
      test.send(.close) { $0 = .closed }
      expectStep(Door.self, from: .locked, on: .unlock, decisions: [.log("unlocked")]) {
        $0 = .closed
      }
      expectStep(Odometer.self, from: .init(), on: .add) { $0.count = 1 }
    }
    #expect(recording.count == 4)
    let coverage = explore(Door.self, from: .closed) { _ in [.open, .close, .lock, .unlock] }
      .coverage(of: recording)
    #expect(coverage.covered.count == 3)
    #expect(
      coverage.description == """
        3 of 12 transitions of Door covered; not covered:
          in .closed: .close
          in .closed: .lock / .log("locked")
          in .closed: .unlock
          in .open: .open
          in .open: .lock
          in .open: .unlock
          in .locked: .open
          in .locked: .close
          in .locked: .lock
        """)
  }
}
