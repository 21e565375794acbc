import Decisions
import DecisionsTesting
import Testing

/// A journal's records are the store's diagnostics, defined once: `Store.Report`, with each error
/// kept as its description.
@Suite struct JournalRecordTests {
  /// One diagnostic of each case, with the record each must give.
  static let cases: [(diagnostic: Store<Loader>.Diagnostic, record: Journal<Loader>.Record)] = [
    (.started, .started),
    (.received(.tap), .received(.tap)),
    (.state(.loaded("hi")), .state(.loaded("hi"))),
    (.decided(.log("hi")), .decided(.log("hi"))),
    (.ignored(.tap, reason: .cancelledWork), .ignored(.tap, reason: .cancelledWork)),
    (.workStarted(id: WorkID("load")), .workStarted(id: WorkID("load"))),
    (.workStarted(id: nil), .workStarted(id: nil)),
    (
      .workFailed(id: WorkID("load"), error: Loader.Offline()),
      .workFailed(id: WorkID("load"), error: "Offline()")
    ),
    (.workFinished(id: WorkID("load")), .workFinished(id: WorkID("load"))),
    (
      .workWithoutLifetime(scope: [WorkID("row"), WorkID(Int64(1))]),
      .workWithoutLifetime(scope: [WorkID("row"), WorkID(Int64(1))])
    ),
  ]

  @Test func eachDiagnosticBecomesTheRecordOfTheSameCase() {
    for (diagnostic, record) in Self.cases {
      #expect(Journal<Loader>.Record(diagnostic) == record)
    }
  }

  @Test func aJournalRecordsWhatItWasGivenInOrder() {
    let journal = Journal<Loader>(initialState: .idle)
    for (diagnostic, _) in Self.cases { journal.record(diagnostic) }
    #expect(journal.records == Self.cases.map(\.record))
  }

  @Test func recordsOfDifferentCasesOrPayloadsDiffer() {
    let records = Self.cases.map(\.record)
    for (index, record) in records.enumerated() {
      #expect(records.indices.filter { records[$0] == record } == [index])
    }
    #expect(
      Journal<Loader>.Record.workFailed(id: nil, error: "Offline()")
        != .workFailed(id: nil, error: "Other()"))
    #expect(
      Journal<Loader>.Record.ignored(.tap, reason: .stopped)
        != .ignored(.tap, reason: .cancelledWork))
  }

  @Test func aRecordIsTheStoresReportWithTheErrorAsText() {
    // NB: the type is the same, so a case added to `Store.Report` is a record with nothing to copy.
    let record: Store<Loader>.Report<String> = Journal<Loader>.Record.started
    #expect(record == .started)
    if case .workFailed(let id, let error) = Journal<Loader>.Record(
      .workFailed(id: WorkID("sync"), error: Loader.Offline()))
    {
      #expect(id == WorkID("sync"))
      #expect(error.hasPrefix("Offline"))
    } else {
      Issue.record("a failed work's diagnostic did not become a failed work's record")
    }
  }
}
