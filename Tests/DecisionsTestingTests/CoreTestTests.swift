import Testing

@testable import DecisionsTesting

@Suite struct CoreTestPassingTests {
  @Test func aWholeStoryPassesWhenEveryStepIsRight() {
    var test = CoreTest<Loader>(state: .idle)
    test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    test.send(.failed("offline"), decisions: [.log("failed: offline"), .snackbar("Went wrong")]) {
      $0 = .idle
    }
    test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    test.send(.tap, decisions: [.track("tap")])
    test.send(.finished("hi"), decisions: [.log("hi")]) { $0 = .loaded("hi") }
    #expect(test.state == .loaded("hi"))
    #expect(test.step == 5)
  }

  @Test func sendReturnsTheEmittedDecisions() {
    var test = CoreTest<Loader>(state: .idle)
    let decisions = test.send(.tap, decisions: [.track("tap"), .load]) {
      $0 = .loading(previous: nil)
    }
    #expect(decisions == [.track("tap"), .load])
  }

  @Test func expectStepChecksOneStepAndReturnsTheNewState() {
    let state = expectStep(
      Loader.self, from: .loaded("a"), on: .tap, decisions: [.track("tap"), .load]
    ) {
      $0 = .loading(previous: "a")
    }
    #expect(state == .loading(previous: "a"))
  }

  @Test func nonExhaustiveStepsCheckOnlyWhatIsListed() {
    var test = CoreTest<Loader>(state: .idle, exhaustivity: .off)
    test.send(.tap, decisions: [.load])
    test.send(.failed("x"), decisions: [.snackbar("Went wrong")]) { $0 = .idle }
    #expect(test.state == .idle)
  }
}

@Suite struct CoreTestFailureTests {
  @Test func anUnlistedDecisionFailsAndIsNamed() {
    let failures = withCapturedFailures {
      var test = CoreTest<Loader>(state: .idle)
      test.send(.tap, decisions: [.load]) { $0 = .loading(previous: nil) }
    }
    #expect(
      failures.map(\.message) == [
        """
        Step 1, .tap: the decisions differ.
          Emitted but not expected:
            .track("tap")
          Expected: [.load]
          Emitted:  [.track("tap"), .load]
        """
      ])
  }

  @Test func aListedDecisionThatWasNotEmittedFailsAndIsNamed() {
    let failures = withCapturedFailures {
      var test = CoreTest<Loader>(state: .loading(previous: nil))
      test.send(.finished("hi"), decisions: [.log("hi"), .snackbar("Loaded")]) {
        $0 = .loaded("hi")
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        Step 1, .finished("hi"): the decisions differ.
          Expected but not emitted:
            .snackbar("Loaded")
          Expected: [.log("hi"), .snackbar("Loaded")]
          Emitted:  [.log("hi")]
        """
      ])
  }

  @Test func theRightDecisionsInTheWrongOrderFail() {
    let failures = withCapturedFailures {
      var test = CoreTest<Loader>(state: .idle)
      test.send(.tap, decisions: [.load, .track("tap")]) { $0 = .loading(previous: nil) }
    }
    #expect(
      failures.map(\.message) == [
        """
        Step 1, .tap: the decisions are right but their order is not.
          Expected: [.load, .track("tap")]
          Emitted:  [.track("tap"), .load]
        """
      ])
  }

  @Test func aWrongStateFailsWithAStructuralDiff() {
    let failures = withCapturedFailures {
      var test = CoreTest<Loader>(state: .idle)
      test.send(.tap, decisions: [.track("tap"), .load])
      test.send(.finished("hi"), decisions: [.log("hi")]) { $0 = .loaded("hello") }
    }
    #expect(
      failures.map(\.message) == [
        """
        Step 1, .tap: the state differs from the expected one (− expected, + actual):
        Loader.State
        −   .idle
        +   .loading(previous: nil)
        """,
        """
        Step 2, .finished("hi"): the state differs from the expected one (− expected, + actual):
        Loader.State
          .loaded(_:)
        −   "hello"
        +   "hi"
        """,
      ])
  }

  @Test func failuresPointAtTheCallersLine() {
    let failures = withCapturedFailures {
      var test = CoreTest<Loader>(state: .idle)
      test.send(.tap)  // wrong: emits decisions and changes state
    }
    let line = UInt(#line - 2)
    // NB: typed first: literals and `#line` arithmetic inside `#expect` take the type checker long.
    let lines: [UInt] = failures.map(\.line)
    #expect(lines == [line, line])
    #expect(failures.allSatisfy { $0.fileID.hasSuffix("CoreTestTests.swift") })
  }

  @Test func theStoryGoesOnFromTheActualStateAfterAFailure() {
    let failures = withCapturedFailures {
      var test = CoreTest<Loader>(state: .idle)
      test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loaded("wrong") }
      test.send(.finished("hi"), decisions: [.log("hi")]) { $0 = .loaded("hi") }
    }
    #expect(failures.count == 1)
  }

  @Test func nonExhaustiveStepsStillFailOnAMissingDecision() {
    let failures = withCapturedFailures {
      var test = CoreTest<Loader>(state: .idle, exhaustivity: .off)
      test.send(.tap, decisions: [.load, .track("tap")])
    }
    #expect(
      failures.map(\.message) == [
        """
        Step 1, .tap: the decision .track("tap") was not emitted (in the order listed, among the \
        emitted ones).
          Emitted: [.track("tap"), .load]
        """
      ])
  }

  @Test func nonExhaustiveStepsStillFailOnAStateTheyAssert() {
    let failures = withCapturedFailures {
      var test = CoreTest<Loader>(state: .idle, exhaustivity: .off)
      test.send(.tap) { $0 = .loaded("no") }
    }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("+   .loading(previous: nil)") == true)
  }

  @Test func expectStepReportsFailuresAsStepOne() {
    let failures = withCapturedFailures {
      expectStep(Loader.self, from: .idle, on: .tap, decisions: [.load]) {
        $0 = .loading(previous: nil)
      }
    }
    #expect(failures.first?.message.hasPrefix("Step 1, .tap: the decisions differ.") == true)
  }
}

/// The real reporting path, under Swift Testing: a failing helper records an issue.
@Suite struct CoreTestSwiftTestingReportingTests {
  @Test func aWrongDecisionRecordsAnIssue() {
    withKnownIssue {
      var test = CoreTest<Loader>(state: .idle)
      test.send(.tap, decisions: [.load]) { $0 = .loading(previous: nil) }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix("Step 1, .tap: the decisions differ.") }
        && issue.sourceLocation?.fileName == "CoreTestTests.swift"
    }
  }

  @Test func aWrongStateRecordsAnIssue() {
    withKnownIssue {
      expectStep(Loader.self, from: .idle, on: .tap, decisions: [.track("tap"), .load])
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("the state differs") }
    }
  }
}
