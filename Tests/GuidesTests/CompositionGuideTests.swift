// The tests of Docs/Composition.md, compiled and run.

import DecisionsTesting
import Testing

@Suite struct DashboardCoreTests {
  @Test func aChildsDecisionsComeBackWrapped() {
    var test = CoreTest<Dashboard>(state: .init())
    test.send(.counter(.factTapped), decisions: [.counter(.loadFact(0))]) {
      $0.counter.isLoadingFact = true
    }
    test.send(.addDownload, decisions: [.download(id: 1, .fetch(1))]) {
      $0.downloads = [Download.State(id: 1, isDownloading: true)]
      $0.nextDownloadID = 2
    }
  }

  @Test func anEventForAChildThatIsGoneChangesNothing() {
    var test = CoreTest<Dashboard>(state: .init())
    test.send(.sheet(.incrementTapped))  // no sheet is open
    test.send(.download(id: 7, .start))  // no download 7
  }

  @Test func closingTheSheetCancelsItsWork() {
    var test = CoreTest<Dashboard>(state: .init(counter: .init(count: 3)))
    test.send(.openSheet) {
      $0.sheet = Counter.State(count: 3)
    }
    test.send(.sheet(.factTapped), decisions: [.sheet(.loadFact(3))]) {
      $0.sheet?.isLoadingFact = true
    }
    test.send(.closeSheet) {
      $0.sheet = nil
    }
  }

  @Test func theTitleFormHasACoreAndNoWork() {
    var test = CoreTest<Dashboard>(state: .init())
    test.send(.editTitle) {
      $0.titleForm = TitleForm.State(title: "Dashboard")
    }
    test.send(.titleForm(.titleChanged("Downloads"))) {
      $0.titleForm?.title = "Downloads"
    }
    test.send(.saveTitle) {
      $0.title = "Downloads"
      $0.titleForm = nil
    }
    test.send(.titleForm(.titleChanged("Late")))  // no form is open: dropped
  }
}

@Suite(.timeLimit(.minutes(3))) struct DashboardStoreTests {
  @Test func removingARowEndsItsLoad() async throws {
    let fetches = ControlledDependency<Int, Int>()
    let test = StoreTest<Dashboard>(
      state: .init(),
      deps: .init(
        loadFact: unimplemented("loadFact"), fetch: { try await fetches($0) },
        log: unimplemented("log")))
    await test.send(.addDownload, decisions: [.download(id: 1, .fetch(1))]) {
      $0.downloads = [Download.State(id: 1, isDownloading: true)]
      $0.nextDownloadID = 2
    }
    let fetch = try await fetches.nextCall()
    await test.send(.removeDownload(id: 1)) {
      $0.downloads = []
    }
    #expect(!fetch.isWaiting)  // the store cancelled it with its row
    await test.finish()
  }

  @Test func twoCountersLoadSideBySideInTheirOwnScopes() async throws {
    let facts = ControlledDependency<Int, String>()
    let test = StoreTest<Dashboard>(
      state: .init(),
      deps: .init(
        loadFact: { try await facts($0) }, fetch: unimplemented("fetch"), log: unimplemented("log")),
      exhaustivity: .off)
    await test.send(.openSheet)
    await test.send(.counter(.factTapped))  // work "fact" in the counter's scope
    await test.send(.sheet(.factTapped))  // work "fact" in the sheet's scope: no clash
    let first = try await facts.nextCall()
    let second = try await facts.nextCall()  // both loads are in flight at once
    first.answer("fact \(first.arguments)")
    second.answer("fact \(second.arguments)")
    await test.settle()
    #expect(await test.state.counter.fact == "fact 0")
    #expect(await test.state.sheet?.fact == "fact 0")
    await test.finish()
  }

  @Test func removingADownloadCancelsOnlyItsWork() async throws {
    let fetches = ControlledDependency<Int, Int>()
    let logged = Calls<String>()
    let test = StoreTest<Dashboard>(
      state: .init(),
      deps: .init(
        loadFact: unimplemented("loadFact"), fetch: { try await fetches($0) }, log: logged.record),
      exhaustivity: .off)
    await test.send(.addDownload)  // id 1
    await test.send(.addDownload)  // id 2, whose fetch fails
    await test.send(.addDownload)  // id 3
    // NB: the three fetches run side by side, so their calls come in any order.
    var calls: [ControlledDependency<Int, Int>.Call] = []
    for _ in 1...3 { calls.append(try await fetches.nextCall()) }
    await test.send(.removeDownload(id: 1))  // cancels the fetch of row 1, and only that one
    for call in calls {
      switch call.arguments {
      case 1: break  // cancelled with its row
      case 2: call.fail(Offline())
      default: call.answer(call.arguments * 1_000)
      }
    }
    await test.settle()
    await test.expectState(
      .init(
        downloads: [.init(id: 2), .init(id: 3, bytes: 3_000)],
        nextDownloadID: 4))
    #expect(logged.all == ["download 2: failed: offline"])
    await test.finish()
  }
}

@MainActor
@Suite struct DashboardModelTests {
  @Test func aChildsModelComesFromItsDeclaration() async {
    let dashboard = MainStore<Dashboard>(
      state: .init(), deps: .init(loadFact: { "\($0)" }, fetch: { $0 * 100 }, log: { _ in }))
    dashboard.send(.addDownload)
    let row = dashboard.child(Dashboard.downloads, id: 1)
    await dashboard.settle()
    #expect(row?.state.bytes == 100)
    #expect(dashboard.child(Dashboard.sheet) == nil)  // no sheet is open
    dashboard.send(.openSheet)
    dashboard.child(Dashboard.sheet)?.send(.incrementTapped)
    #expect(dashboard.state.sheet?.count == 1)
    dashboard.child(Dashboard.counter)?.send(.incrementTapped)  // always there: never nil
    #expect(dashboard.state.counter.count == 1)
  }
}
