// The tests and the demo of Docs/GettingStarted.md, compiled and run.

import DecisionsTesting
import Foundation
import Testing

// MARK: - Step 3: core tests

@Suite struct CounterCoreTests {
  @Test func aFactIsAboutTheCurrentCount() {
    var test = CoreTest<Counter>(state: .init())
    test.send(.incrementTapped) {
      $0.count = 1
    }
    test.send(.factTapped, decisions: [.loadFact(1)]) {
      $0.isLoadingFact = true
    }
    test.send(.factTapped)  // already loading: nothing happens
    test.send(.factLoaded("1 is odd.")) {
      $0.isLoadingFact = false
      $0.fact = "1 is odd."
    }
  }

  @Test func changingTheCountCancelsTheLoad() {
    var test = CoreTest<Counter>(state: .init(count: 5))
    test.send(.factTapped, decisions: [.loadFact(5)]) {
      $0.isLoadingFact = true
    }
    test.send(.decrementTapped, decisions: [.cancelFact]) {
      $0.count = 4
      $0.isLoadingFact = false
    }
    test.send(.factLoaded("5 is odd."))  // too late: changes nothing
  }

  @Test func aFailedLoadIsLogged() {
    expectStep(
      Counter.self, from: .init(count: 2, isLoadingFact: true), on: .factFailed("offline"),
      decisions: [.log("No fact about 2: offline")]
    ) {
      $0.isLoadingFact = false
    }
  }
}

// MARK: - Step 5: executor and store tests

/// What the tests' `loadFact` throws; `"\(error)"` makes it `.factFailed("offline")`.
struct Offline: Error, CustomStringConvertible {
  var description: String { "offline" }
}

@Suite(.timeLimit(.minutes(3))) struct CounterShellTests {
  @Test func loadFactSendsTheFactBack() async {
    let asked = Calls<Int>()
    let execution = await perform(
      Counter.Decision.loadFact(7), of: Counter.self,
      deps: .init(loadFact: asked.recording { "\($0) is lucky." }, log: unimplemented("log")))
    #expect(execution.events == [.factLoaded("7 is lucky.")])
    #expect(execution.startedWork == [WorkID("fact")])
    #expect(asked.all == [7])
  }

  @Test func aFailedLoadSendsItsReasonBack() async {
    let execution = await perform(
      Counter.Decision.loadFact(7), of: Counter.self,
      deps: .init(loadFact: { _ in throw Offline() }, log: unimplemented("log")))
    #expect(execution.events == [.factFailed("offline")])
  }

  @Test func aTapLoadsAFactInARealStore() async {
    let test = StoreTest<Counter>(
      state: .init(),
      deps: .init(loadFact: { "\($0) is a number." }, log: unimplemented("log")))
    await test.send(.incrementTapped) { $0.count = 1 }
    await test.send(.factTapped, decisions: [.loadFact(1)]) { $0.isLoadingFact = true }
    await test.receive(.factLoaded("1 is a number.")) {
      $0.isLoadingFact = false
      $0.fact = "1 is a number."
    }
    await test.finish()
  }
}

// MARK: - Step 6: the demo

@Suite(.timeLimit(.minutes(3))) struct CounterDemoTests {
  /// The tutorial's `main.swift`, line for line, with `print` captured so the test can check it.
  @Test func theDemoPrintsEachState() async {
    let printed = Calls<String>()
    @Sendable func print(_ line: String) { printed.record(line) }

    // main.swift
    let store = Store<Counter>(state: .init(), deps: .live)
    let states = await store.states()
    let printer = Task {
      for await state in states {
        let fact = state.isLoadingFact ? "loading a fact…" : state.fact ?? "no fact"
        print("count \(state.count): \(fact)")
      }
    }

    await store.send(.incrementTapped)
    await store.send(.incrementTapped)
    await store.send(.factTapped)
    await store.settle()  // the fact has arrived
    await store.stop()  // ends `states`, so the printer's loop ends
    await printer.value
    // end of main.swift

    #expect(
      printed.all == [
        "count 0: no fact",
        "count 1: no fact",
        "count 2: no fact",
        "count 2: loading a fact…",
        "count 2: 2 is even.",
      ])
  }
}
