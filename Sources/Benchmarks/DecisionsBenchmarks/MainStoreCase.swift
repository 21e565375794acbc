import Decisions

#if canImport(Observation)
  import Observation
#endif

// MARK: - 14. The main-actor store

/// Case 14: events sent to a ``MainStore`` on the main actor, each processed before `send` returns.
///
/// With no decisions (a), with one quick decision (b), and with no decisions while a view and a
/// child model's view observe the state and re-read it after every change (c), the worst case of a
/// render per event. Case 9b's `ObservableStore`, whose state arrives a turn later, is the other
/// way to run a feature for the UI.
@MainActor
func mainStoreCase(_ plan: Plan) async -> [Row] {
  #if canImport(Observation)
    let plain = await measure(
      "14a", "MainStore.send on main, no decisions", events: plan.events(1_000_000), plan: plan
    ) { events in
      let store = MainStore<Counter>(state: .init(), deps: .none)
      let start = ContinuousClock.now
      for _ in 0..<events { store.send(.increment) }
      let elapsed = ContinuousClock.now - start
      check(store.state.count == events, "the store counted \(store.state.count) of \(events)")
      return elapsed
    }
    let quick = await measure(
      "14b", "MainStore.send on main, one quick decision", events: plan.events(1_000_000),
      plan: plan
    ) { events in
      let total = Total()
      let store = MainStore<Counter>(state: .init(), deps: .init(log: { total.add($0) }))
      let start = ContinuousClock.now
      for _ in 0..<events { store.send(.tap(1)) }
      let elapsed = ContinuousClock.now - start
      check(store.state.count == events, "the store counted \(store.state.count) of \(events)")
      check(total.value == events, "the executor logged \(total.value) of \(events) decisions")
      return elapsed
    }
    let observed = await measure(
      "14c", "…no decisions, a view + a child's view re-read", events: plan.events(200_000),
      plan: plan
    ) { events in
      let store = MainStore<Top>(state: .init(), deps: .init(middle: .init(counter: .none)))
      let child = store.child(Middle.self, state: \.middle, event: Top.Event.middle)
      let parentView = Rerender { _ = store.state }
      let childView = Rerender { _ = child.state }
      let start = ContinuousClock.now
      for _ in 0..<events {
        store.send(.middle(.counter(.increment)))
        parentView.renderIfInvalidated()
        childView.renderIfInvalidated()
      }
      let elapsed = ContinuousClock.now - start
      let count = store.state.middle.counter.count
      check(count == events, "the store counted \(count) of \(events)")
      check(child.state.counter.count == events, "the child model lags behind the store")
      check(
        parentView.renders == events + 1 && childView.renders == events + 1,
        "the views rendered \(parentView.renders) and \(childView.renders) times for \(events)")
      return elapsed
    }
    return [plain, quick, observed]
  #else
    return []
  #endif
}

#if canImport(Observation)
  /// A stand-in for a view: reads what `read` reads under `withObservationTracking`, and reads it
  /// again (a render) when asked after a change invalidated it.
  @MainActor
  final class Rerender {
    /// How many times it read: the first render and one per invalidation.
    private(set) var renders = 0
    private var isInvalidated = true
    private let read: @MainActor () -> Void

    init(reading read: @escaping @MainActor () -> Void) {
      self.read = read
      renderIfInvalidated()
    }

    /// Reads again if a change invalidated the last read.
    func renderIfInvalidated() {
      guard isInvalidated else { return }
      isInvalidated = false
      renders += 1
      withObservationTracking {
        read()
      } onChange: { [self] in
        MainActor.assumeIsolated { isInvalidated = true }
      }
    }
  }
#endif
