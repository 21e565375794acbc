import DecisionsTesting
import TestSupport
import Testing

@testable import Decisions

/// What the readers of `states()` make a store hold, and what their leaving costs, counted rather
/// than timed (issue 24).
@Suite(.timeLimit(.minutes(3))) struct StateMemoryTests {
  /// Detaching observers one by one costs work in proportion to their number: each detaching used
  /// to search every observer.
  @Test func detachingObserversCostsWorkInProportionToTheirNumber() {
    func removalWork(observers count: UInt64) -> Int {
      let observers = StateObservers<Int>()
      for id in 1...count {
        let observer = StateObserver(id: id, of: Int.self, receive: { _ in true }, finish: {})
        observers.add(observer, latestOnly: id.isMultiple(of: 10))
      }
      for id in 1...count { observers.remove(id: id) }
      #expect(observers.count == 0)
      return observers.removalWork
    }
    let few = removalWork(observers: 1_000)
    let many = removalWork(observers: 4_000)
    #expect(many <= 5 * few)
    #expect(many <= 4 * 4_000)
  }

  /// A detached observer gets no more states, the others keep their order, and an observer that
  /// the store dropped because it was gone is not counted twice when its detaching comes late.
  @Test func aDetachedObserverGetsNoMoreStates() {
    let observers = StateObservers<Int>()
    let calls = Calls<String>()
    for (id, name) in zip(UInt64(1)..., ["a", "b", "c", "d"]) {
      let observer = StateObserver(
        id: id, of: Int.self,
        receive: { state in
          calls.record("\(name)\(state)")
          return name != "c" || state < 2  // c is gone after the second state
        }, finish: {})
      observers.add(observer, latestOnly: false)
    }
    let latest = StateObserver(
      id: 5, of: Int.self,
      receive: {
        calls.record("e\($0)")
        return true
      }, finish: {})
    observers.add(latest, latestOnly: true)
    observers.remove(id: 2)
    #expect(observers.count == 4)
    observers.publish(1)
    observers.publish(2)
    #expect(observers.count == 3)
    observers.remove(id: 3)  // late: the store already dropped c
    #expect(observers.count == 3)
    observers.publishLatest(3)
    observers.publish(3)
    observers.remove(id: 1)
    observers.remove(id: 4)
    #expect(!observers.wantEveryState && observers.wantLatestState)
    observers.publish(4)
    observers.remove(id: 5)
    #expect(observers.count == 0 && !observers.wantLatestState)
    observers.publishLatest(4)
    #expect(calls.all == ["a1", "c1", "d1", "a2", "c2", "d2", "e3", "a3", "d3"])
  }
}
