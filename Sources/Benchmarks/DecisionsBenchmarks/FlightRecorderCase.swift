import Decisions

// MARK: - 17. A flight recorder

/// The recorder of case 17: the last 1,000 events and a checkpoint every 100, well under the
/// events of a run, so the ring is full for most of it.
func benchmarkRecorder(invariant: Bool = false) -> FlightRecorder<Counter> {
  FlightRecorder(
    capacity: 1_000, checkpointInterval: 100,
    invariant: invariant ? .init("the count is not negative") { $0.count >= 0 } : nil,
    save: { _ in check(false, "the recorder saved a recording; its invariant always holds") })
}

/// Case 17: the stores of cases 2 and 4, each measured without and then with a flight recorder, in
/// the same run, so that the difference is what the recorder costs per event; and case 4 with the
/// recorder checking an invariant after each event.
func flightRecorderCase(_ plan: Plan) async -> [Row] {
  let events = plan.events(1_000_000)
  var rows: [Row] = []
  for (id, title, recorder) in [
    ("17a", "await send, no decisions (case 2)", nil),
    ("17b", "…with a flight recorder", benchmarkRecorder()),
  ] {
    rows.append(
      await measure(id, title, events: events, plan: plan) { events in
        let store = Store<Counter>(state: .init(), deps: .none, recorder: recorder)
        let elapsed = await timedInBackground {
          for _ in 0..<events { await store.send(.increment) }
        }
        await expectCount(store, events)
        if recorder != nil { await expectRecorded(store, events) }
        return elapsed
      })
  }
  for (id, title, recorder) in [
    ("17c", "await send, one quick decision (case 4)", nil),
    ("17d", "…with a flight recorder", benchmarkRecorder()),
    ("17e", "…with a recorder checking an invariant", benchmarkRecorder(invariant: true)),
  ] {
    rows.append(
      await measure(id, title, events: events, plan: plan) { events in
        let total = Total()
        let store = Store<Counter>(
          state: .init(), deps: .init(log: { total.add($0) }), recorder: recorder)
        let elapsed = await timedInBackground {
          for _ in 0..<events { await store.send(.tap(1)) }
        }
        await expectCount(store, events)
        check(total.value == events, "the executor logged \(total.value) of \(events) decisions")
        if recorder != nil { await expectRecorded(store, events) }
        return elapsed
      })
  }
  for (recorded, plain) in [(1, 0), (3, 2), (4, 2)] where !rows[recorded].nanos.isEmpty {
    guard !rows[plain].nanos.isEmpty else { continue }
    rows[recorded].note =
      "the recorder adds \(readable(rows[recorded].median - rows[plain].median)) ns per event "
      + "(\(rows[recorded].id) − \(rows[plain].id))"
  }
  return rows
}

/// Checks that the store's recorder kept the last events, ending with the store's state.
func expectRecorded(_ store: Store<Counter>, _ events: Int) async {
  guard let recording = await store.flightRecording() else {
    return check(false, "the store with a recorder has no recording")
  }
  let kept = recording.events.count
  check(
    kept >= min(events, 1_000) && kept <= 1_099,
    "the recording has \(kept) events; a capacity of 1,000 keeps 1,000 to 1,099")
  check(
    recording.eventsBefore + kept == events,
    "the recording has \(recording.eventsBefore) + \(kept) events of \(events)")
  check(recording.finalState.count == events, "the recording's last state is not the store's")
}
