// The examples of Docs/Observation.md that build on Linux, compiled and run. (The SwiftUI and
// UIKit ones cannot: those frameworks exist only on Apple platforms.)

import DecisionsTesting
import Observation
import Testing

// MARK: - The UIKit pattern, without UIKit

/// Renders a counter into text, again after every change: what a UIKit view controller does with
/// its labels, with strings in their place.
@MainActor
final class CounterRenderer {
  let model: ObservableStore<Counter>
  private(set) var renderedLines: [String] = []

  init(model: ObservableStore<Counter>) {
    self.model = model
    render()
  }

  private func render() {
    withObservationTracking {
      let state = model.state
      renderedLines.append("\(state.count) \(state.isLoadingFact ? "loading…" : state.fact ?? "")")
    } onChange: { [weak self] in
      // Called once, before the next change is applied: render again on the main actor after it.
      Task { @MainActor in self?.render() }
    }
  }
}

@MainActor
@Suite(.timeLimit(.minutes(3))) struct ObservationGuideTests {
  static let deps = Counter.Deps(loadFact: { "\($0) is a number." }, log: { _ in })

  @Test func theModelShowsWhatTheStoreDecided() async {
    let model = ObservableStore<Counter>(state: .init(), deps: Self.deps)
    model.send(.incrementTapped)
    model.send(.factTapped)
    #expect(model.state.count == 0)  // not yet: the store runs on its own executor
    await model.settle()
    #expect(model.state == Counter.State(count: 1, fact: "1 is a number."))
  }

  @Test func sendAndWaitReturnsWithTheNewState() async {
    let model = ObservableStore<Counter>(state: .init(), deps: Self.deps)
    await model.sendAndWait(.incrementTapped)
    #expect(model.state.count == 1)
  }

  @Test func aModelCanObserveAStoreMadeElsewhere() async {
    let store = Store<Counter>(state: .init(count: 10), deps: Self.deps)
    let model = await ObservableStore(observing: store)
    #expect(model.state.count == 10)
    await store.send(.incrementTapped)
    await model.settle()
    #expect(model.state.count == 11)
  }

  @Test func observationTrackingRendersAgainAfterEachChange() async {
    let model = ObservableStore<Counter>(state: .init(), deps: Self.deps)
    let renderer = CounterRenderer(model: model)
    await model.sendAndWait(.incrementTapped)
    while renderer.renderedLines.count < 2 { await Task.yield() }
    #expect(renderer.renderedLines == ["0 ", "1 "])
  }

  @Test func aStateSequenceFeedsCodeThatIsNotUI() async {
    let store = Store<Counter>(state: .init(), deps: Self.deps)
    let titles = Calls<String>()

    let states = await store.states(bufferingPolicy: .bufferingNewest(1))
    let titler = Task {
      for await state in states {
        titles.record("Count: \(state.count)")
      }
    }

    await store.send(.incrementTapped)
    await store.stop()
    await titler.value
    #expect(titles.all.last == "Count: 1")
  }

  @Test func aMainStoreHasTheNewStateWhenSendReturns() async {
    let model = MainStore<Counter>(state: .init(), deps: Self.deps)
    model.send(.incrementTapped)
    #expect(model.state.count == 1)  // already: the core ran on the main actor, inside send
    model.send(.factTapped)
    #expect(model.state.isLoadingFact)
    await model.settle()  // the fact is long work, which runs off the main actor
    #expect(model.state == Counter.State(count: 1, fact: "1 is a number."))
  }

  @Test func childViewsGetModelsOfTheirOwn() async throws {
    let dashboard = MainStore<Dashboard>(
      state: .init(),
      deps: .init(loadFact: { "\($0) is a number." }, fetch: { $0 * 100 }, log: { _ in }))
    let counter = try #require(dashboard.child(Dashboard.counter))  // always there
    counter.send(.incrementTapped)  // the child's event, through the dashboard's core
    #expect(counter.state.count == 1)

    #expect(dashboard.child(Dashboard.sheet) == nil)
    dashboard.send(.openSheet)
    let sheet = dashboard.child(Dashboard.sheet)
    #expect(sheet?.state.count == 1)

    dashboard.send(.addDownload)
    let id = dashboard.state.downloads[0].id
    let download = dashboard.child(Dashboard.downloads, id: id)
    await dashboard.settle()
    #expect(download?.state.bytes == id * 100)
  }
}
