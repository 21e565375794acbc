import Decisions
import DecisionsTesting
import Testing

/// Test ergonomics of issue 35: one stack screen changed in place in a step, and `unimplemented`
/// for closures with a typed throw.
@Suite struct TestErgonomicsTests {
  struct Detail: Equatable, Sendable {
    var title: String
    var isEditing = false
  }

  /// Two cases with the same payload type, told apart by their case.
  enum Screen: Equatable, Sendable {
    case detail(Detail)
    case preview(Detail)
    case notes(String)
  }

  /// A stack whose events change one field of one screen.
  enum Stack: Core {
    struct State: Equatable, Sendable {
      var path = ScreenStack<Screen>()
    }

    enum Event: Equatable, Sendable {
      case open(String)
      case edit(ScreenStack<Screen>.ID)
    }

    typealias Decision = Never

    static func makeDecisions(event: Event, state: inout State) -> [Decision] {
      switch event {
      case .open(let title):
        state.path.push(.detail(Detail(title: title)))
      case .edit(let id):
        if case .detail(var detail) = state.path[id: id] {
          detail.isEditing = true
          state.path[id: id] = .detail(detail)
        }
      }
      return []
    }
  }

  @Test func aScreenIsReadAndChangedInPlaceByItsCase() {
    var stack = ScreenStack<Screen>()
    let detail = stack.push(.detail(Detail(title: "Design")))
    let preview = stack.push(.preview(Detail(title: "Draft")))
    let notes = stack.push(.notes("n"))
    #expect(stack[id: detail, case: Screen.detail] == Detail(title: "Design"))
    // The same payload type in another case is not this case.
    #expect(stack[id: preview, case: Screen.detail] == nil)
    #expect(stack[id: preview, case: Screen.preview] == Detail(title: "Draft"))
    #expect(stack[id: notes, case: Screen.notes] == "n")
    #expect(stack[id: ScreenStack<Screen>.ID(99), case: Screen.detail] == nil)

    stack[id: detail, case: Screen.detail]?.isEditing = true
    #expect(stack[id: detail] == .detail(Detail(title: "Design", isEditing: true)))
    // A change through `?.` to another case changes nothing.
    stack[id: preview, case: Screen.detail]?.title = "Changed"
    #expect(stack[id: preview] == .preview(Detail(title: "Draft")))
    #expect(stack.ids == [detail, preview, notes])

    // Setting a state makes the screen that case; nil changes nothing.
    stack[id: notes, case: Screen.preview] = Detail(title: "Now a preview")
    #expect(stack[id: notes] == .preview(Detail(title: "Now a preview")))
    stack[id: preview, case: Screen.preview] = nil
    #expect(stack.ids == [detail, preview, notes])
  }

  @Test func aStepChangesOneFieldOfOneScreen() {
    var test = CoreTest<Stack>(state: .init())
    test.send(.open("Design")) { $0.path.push(.detail(Detail(title: "Design"))) }
    test.send(.edit(ScreenStack<Screen>.ID(0))) {
      $0.path[id: ScreenStack<Screen>.ID(0), case: Screen.detail]?.isEditing = true
    }
  }

  @Test func aWrongChangeOfOneScreenFailsTheStep() {
    var test = CoreTest<Stack>(state: .init())
    test.send(.open("Design")) { $0.path.push(.detail(Detail(title: "Design"))) }
    withKnownIssue {
      test.send(.edit(ScreenStack<Screen>.ID(0))) {
        // The wrong case: nothing changes, and the step shows the difference.
        $0.path[id: ScreenStack<Screen>.ID(0), case: Screen.preview]?.isEditing = true
      }
    }
  }

  struct Failure: Error, Equatable {
    var reason: String
  }

  /// Deps whose closures throw one error type.
  struct TypedDeps: Sendable {
    var load: @Sendable () async throws(Failure) -> [String]
    var save: @Sendable ([String]) throws(Failure) -> Void
    var count: @Sendable (Int, String) async throws(Failure) -> Int
  }

  @Test func unimplementedMakesClosuresWithATypedThrow() async {
    let unused = Failure(reason: "not in this test")
    let deps = TypedDeps(
      load: unimplemented("load", throwing: unused),
      save: unimplemented("save", throwing: unused),
      count: unimplemented("count", throwing: unused))
    // NB: one block per call, so that each call must fail the test; the typed throw gives
    // `error` as a `Failure`, with no cast.
    await withKnownIssue {
      do throws(Failure) {
        _ = try await deps.load()
        Issue.record("load returned")
      } catch {
        #expect(error == unused)
      }
    } matching: {
      $0.description.contains("Unimplemented dependency called: load")
    }
    withKnownIssue {
      do throws(Failure) {
        try deps.save(["a"])
        Issue.record("save returned")
      } catch {
        #expect(error == unused)
      }
    } matching: {
      $0.description.contains("Unimplemented dependency called: save")
    }
    await withKnownIssue {
      do throws(Failure) {
        _ = try await deps.count(1, "a")
        Issue.record("count returned")
      } catch {
        #expect(error == unused)
      }
    } matching: {
      $0.description.contains("Unimplemented dependency called: count")
    }
  }
}

/// A timer's sleep, read from the clock after the store settles: never a race.
@Suite struct SleepersAfterSettleTests {
  enum Timer: Feature {
    struct State: Equatable, Sendable {
      var isWaiting = false
      var fired = 0
    }

    enum Event: Equatable, Sendable {
      case start
      case fired
    }

    enum Decision: Equatable, Sendable {
      case wait
    }

    struct Deps: Sendable {
      var clock: any Clock<Duration>
    }

    static func makeDecisions(event: Event, state: inout State) -> [Decision] {
      switch event {
      case .start:
        state.isWaiting = true
        return [.wait]
      case .fired:
        state.isWaiting = false
        state.fired += 1
        return []
      }
    }

    static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
      effects.run(id: "timer") { send in
        try await deps.clock.sleep(for: .seconds(1))
        await send(.fired)
      }
    }
  }

  // NB: the guide's advice (Time.md, "Read the sleepers after the store settles"), run 100 times:
  // `settle()` returns only once the work sleeps on the clock.
  @Test func afterSettleTheTimerIsAsleep() async {
    for _ in 0..<100 {
      let clock = TestClock()
      let test = StoreTest<Timer>(state: .init(), deps: .init(clock: clock))
      await test.send(.start, decisions: [.wait]) { $0.isWaiting = true }
      await test.settle()
      #expect(clock.sleeperCount == 1)
      #expect(clock.nextDeadline == TestClock.Instant(offset: .seconds(1)))
      await clock.advance(by: .seconds(1))
      await test.receive(.fired) {
        $0.isWaiting = false
        $0.fired = 1
      }
      #expect(clock.sleeperCount == 0)
      await test.finish()
    }
  }
}
