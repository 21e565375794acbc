import Synchronization
import TestSupport
import Testing

@testable import DecisionsTesting

@Suite struct ShrinkTests {
  /// 1,000 random events with the factory code planted in them.
  static let planted = Keypad.recording(seed: 26)
  static let opensOnlyOnTheOwnersCode = Symptom<Keypad>.transitionInvariantBroken(
    "the safe opens only on the owner's code", Keypad.opensOnlyOnTheOwnersCode)
  static let everyMessageIsLogged = Symptom<Chat>.invariantBroken("every message is logged") {
    $0.log.count == $0.sent
  }

  /// The steps a recorder saw when the keypad had no bug: only the owner's code opened it.
  static func recordedBeforeTheBug(_ events: [Keypad.Event]) -> [TraceStep<Keypad>] {
    replay(KeypadBeforeTheBug.self, from: .init(), events: events).map {
      TraceStep(event: $0.event, state: $0.state, decisions: $0.decisions)
    }
  }

  /// Whether `events`, replayed from the start of `recording`, show `symptom`.
  static func shows<C: Core>(
    _ symptom: Symptom<C>, _ events: [C.Event], recording: Replay<C>
  ) -> Bool where C.State: Equatable, C.Decision: Equatable {
    guard let check = symptom.prepare(recording) else { return false }
    let steps = replay(C.self, from: recording.initialState, events: events)
    return check(recording.initialState, steps) != nil
  }

  /// Expects that `events` show `symptom`, and that removing any single one of them makes it go.
  static func expectOneMinimal<C: Core>(
    _ symptom: Symptom<C>, _ events: [C.Event], recording: Replay<C>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) where C.State: Equatable, C.Decision: Equatable {
    #expect(shows(symptom, events, recording: recording), sourceLocation: sourceLocation)
    for index in events.indices {
      var fewer = events
      fewer.remove(at: index)
      #expect(
        !shows(symptom, fewer, recording: recording), "still shows it without event \(index + 1)",
        sourceLocation: sourceLocation)
    }
  }

  static let plantedStory = """
    var test = CoreTest<Keypad>(state: Keypad.State(lastDigits: [], isOpen: false, isLit: false))
    test.send(.digit(7)) {
      $0 = Keypad.State(lastDigits: [7], isOpen: false, isLit: false)
    }
    test.send(.digit(3)) {
      $0 = Keypad.State(lastDigits: [7, 3], isOpen: false, isLit: false)
    }
    test.send(.digit(9)) {
      $0 = Keypad.State(lastDigits: [7, 3, 9], isOpen: false, isLit: false)
    }
    test.send(.digit(1), decisions: [.unlock]) {
      $0 = Keypad.State(lastDigits: [7, 3, 9, 1], isOpen: true, isLit: false)
    }
    """

  // MARK: - The planted bug

  @Test func thePlantedBugShrinksFromAThousandEventsToItsFour() throws {
    let recording = Replay(Keypad.self, from: .init(), events: Self.planted)
    let shrunk = try recording.shrink(keeping: Self.opensOnlyOnTheOwnersCode)
    #expect(shrunk.events == [.digit(7), .digit(3), .digit(9), .digit(1)])
    #expect(shrunk.isOneMinimal)
    #expect(shrunk.originalCount == 1_000)
    #expect(shrunk.replays == 44)
    #expect(shrunk.coreTest == Self.plantedStory)
    Self.expectOneMinimal(Self.opensOnlyOnTheOwnersCode, shrunk.events, recording: recording)
    #expect(
      shrunk.description == """
        Shrunk 1,000 events to 4 in 44 replays; the transition invariant "the safe opens only on \
        the owner's code" is broken.
        The last step breaks it:
          before:    Keypad.State(lastDigits: [7, 3, 9], isOpen: false, isLit: false)
          event:     .digit(1)
          after:     Keypad.State(lastDigits: [7, 3, 9, 1], isOpen: true, isLit: false)
          decisions: [.unlock]
        As a CoreTest (without any one of its events, the symptom goes):

        \(Self.plantedStory)
        """)
  }

  @Test func thePrintedCoreTestCompilesAndPasses() {
    // `plantedStory`, pasted: it compiles and passes; the fix changes its last step.
    var test = CoreTest<Keypad>(state: Keypad.State(lastDigits: [], isOpen: false, isLit: false))
    test.send(.digit(7)) {
      $0 = Keypad.State(lastDigits: [7], isOpen: false, isLit: false)
    }
    test.send(.digit(3)) {
      $0 = Keypad.State(lastDigits: [7, 3], isOpen: false, isLit: false)
    }
    test.send(.digit(9)) {
      $0 = Keypad.State(lastDigits: [7, 3, 9], isOpen: false, isLit: false)
    }
    test.send(.digit(1), decisions: [.unlock]) {
      $0 = Keypad.State(lastDigits: [7, 3, 9, 1], isOpen: true, isLit: false)
    }
  }

  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func everyPlantedRecordingShrinksToTheFactoryCode(seed: UInt64) throws {
    let recording = Replay(Keypad.self, from: .init(), events: Keypad.recording(seed: seed))
    let shrunk = try recording.shrink(keeping: Self.opensOnlyOnTheOwnersCode)
    #expect(shrunk.events == Keypad.factoryCode.map(Keypad.Event.digit))
    #expect(shrunk.replays < 100)
  }

  @Test func shrinkingIsDeterministic() throws {
    let recording = Replay(Keypad.self, from: .init(), events: Self.planted)
    let first = try recording.shrink(keeping: Self.opensOnlyOnTheOwnersCode)
    let second = try recording.shrink(keeping: Self.opensOnlyOnTheOwnersCode)
    #expect(first.events == second.events)
    #expect(first.replays == second.replays)
    #expect(first.description == second.description)
  }

  // MARK: - The three kinds of symptom

  @Test func aStateInvariantShrinksToTheMessageThatBreaksIt() throws {
    let messages = (0..<200).map { "message \($0)" }
    let events = (messages[..<150] + ["hello @@ world"] + messages[150...]).map(Chat.Event.send)
    let recording = Replay(Chat.self, from: .init(), events: events)
    let shrunk = try recording.shrink(keeping: Self.everyMessageIsLogged)
    #expect(shrunk.events == [.send("hello @@ world")])
    #expect(shrunk.isOneMinimal)
    #expect(
      shrunk.detail == """
        The last step leads to a state that breaks it:
          Chat.State(sent: 1, log: [])
        """)
  }

  @Test func aDisagreementWithTheRecordingShrinksToTheChangedStep() throws {
    let recording = Replay(
      Keypad.self, from: .init(), recordedSteps: Self.recordedBeforeTheBug(Self.planted))
    let shrunk = try recording.shrink(keeping: .disagreementWithRecording)
    // The shortest way to the recorded state where the factory code's last digit now opens the
    // safe: the recorder saw the 8 before the code, and the light on.
    #expect(
      shrunk.events == [.digit(8), .digit(7), .digit(3), .digit(9), .light(true), .digit(1)])
    #expect(shrunk.symptom == "today's Keypad disagrees with the recording")
    Self.expectOneMinimal(.disagreementWithRecording, shrunk.events, recording: recording)
    #expect(shrunk.detail.hasPrefix("The last step is sent in a recorded state"))
  }

  @Test func aPredicateOverTheWholeRunShrinks() throws {
    let unlocksTwice = Symptom<Keypad>.run("the safe unlocks twice") { steps in
      steps.flatMap(\.decisions).filter { $0 == .unlock }.count >= 2
    }
    let events = Keypad.recording(seed: 1) + Keypad.recording(seed: 2)
    let recording = Replay(Keypad.self, from: .init(), events: events)
    let shrunk = try recording.shrink(keeping: unlocksTwice)
    #expect(shrunk.events.count == 9)  // a code, a close, a code
    #expect(shrunk.events.contains(.close))
    #expect(shrunk.symptom == "the run shows \"the safe unlocks twice\"")
    Self.expectOneMinimal(unlocksTwice, shrunk.events, recording: recording)
  }

  @Test func anInvariantTheInitialStateBreaksShrinksToNoEvents() throws {
    let recording = Replay(Chat.self, from: .init(sent: 1), events: [.send("hi")])
    let shrunk = try recording.shrink(keeping: Self.everyMessageIsLogged)
    #expect(shrunk.events.isEmpty)
    #expect(shrunk.coreTest == "var test = CoreTest<Chat>(state: Chat.State(sent: 1, log: []))")
  }

  // MARK: - Simplifying payloads

  @Test func payloadsAreSimplifiedToTheSmallestThatStillFails() throws {
    let events = ["hi", "hello @@ world", "bye"].map(Chat.Event.send)
    let recording = Replay(Chat.self, from: .init(), events: events)
    let shrunk = try recording.shrink(keeping: Self.everyMessageIsLogged, simplify: Chat.simpler)
    #expect(shrunk.events == [.send("@@")])
    #expect(shrunk.isOneMinimal)
    #expect(
      shrunk.coreTest == """
        var test = CoreTest<Chat>(state: Chat.State(sent: 0, log: []))
        test.send(.send("@@")) {
          $0 = Chat.State(sent: 1, log: [])
        }
        """)
  }

  @Test func withoutSimplifyingThePayloadStaysAsRecorded() throws {
    let events = ["hi", "hello @@ world", "bye"].map(Chat.Event.send)
    let shrunk = try Replay(Chat.self, from: .init(), events: events)
      .shrink(keeping: Self.everyMessageIsLogged)
    #expect(shrunk.events == [.send("hello @@ world")])
  }

  // MARK: - Bad input

  @Test func anEmptyRecordingIsAnError() {
    #expect(throws: ShrinkError.emptyRecording) {
      try Replay(Chat.self, from: .init(), events: []).shrink(keeping: Self.everyMessageIsLogged)
    }
    #expect(
      ShrinkError.emptyRecording.description
        == "The recording has no events: there is nothing to shrink.")
  }

  @Test func aSymptomTheRecordingDoesNotShowIsAnError() {
    let recording = Replay(Chat.self, from: .init(), events: [.send("hi"), .send("bye")])
    let error = ShrinkError.symptomNotShown(
      symptom: "the invariant \"every message is logged\" is broken", events: 2)
    #expect(throws: error) { try recording.shrink(keeping: Self.everyMessageIsLogged) }
    #expect(
      error.description == """
        The whole recording (2 events), replayed through today's core, does not show that the \
        invariant "every message is logged" is broken: there is nothing to shrink. The feature \
        may have changed since the recording was made, or the symptom may be stated wrongly.
        """)
  }

  @Test func aDisagreementWithARecordingOfEventsOnlyIsAnError() {
    let recording = Replay(Keypad.self, from: .init(), events: Self.planted)
    #expect(
      throws: ShrinkError.nothingRecorded(symptom: "today's Keypad disagrees with the recording")
    ) {
      try recording.shrink(keeping: .disagreementWithRecording)
    }
  }

  @Test func aDisagreementWithARecordingThatAgreesIsAnError() {
    let events: [Keypad.Event] = [.digit(2), .digit(5)]
    let recording = Replay(
      Keypad.self, from: .init(), recordedSteps: replay(Keypad.self, from: .init(), events: events))
    #expect(
      throws: ShrinkError.symptomNotShown(
        symptom: "today's Keypad disagrees with the recording", events: 2)
    ) {
      try recording.shrink(keeping: .disagreementWithRecording)
    }
  }

  @Test func aReplayLimitBelowOneIsAnError() {
    let recording = Replay(Chat.self, from: .init(), events: [.send("@@")])
    #expect(throws: ShrinkError.invalidReplayLimit(0)) {
      try recording.shrink(keeping: Self.everyMessageIsLogged, replayLimit: 0)
    }
  }

  @Test func theReplayLimitStopsTheSearchWithARunThatStillFails() throws {
    let recording = Replay(Keypad.self, from: .init(), events: Self.planted)
    let shrunk = try recording.shrink(keeping: Self.opensOnlyOnTheOwnersCode, replayLimit: 20)
    #expect(shrunk.replays == 20)
    #expect(!shrunk.isOneMinimal)
    #expect(Self.shows(Self.opensOnlyOnTheOwnersCode, shrunk.events, recording: recording))
    #expect(
      shrunk.description.contains("the replay limit stopped the search: it may not be minimal"))
  }

  // MARK: - The test helper

  @Test func expectNoSymptomFailsWithTheShrunkStory() throws {
    let recording = Replay(Keypad.self, from: .init(), events: Self.planted)
    let line: UInt = #line + 2
    let failures = withCapturedFailures {
      recording.expectNoSymptom(Self.opensOnlyOnTheOwnersCode)
    }
    let shrunk = try recording.shrink(keeping: Self.opensOnlyOnTheOwnersCode)
    #expect(failures.map(\.message) == [shrunk.description])
    #expect(failures.first?.line == line)
    withKnownIssue {
      recording.expectNoSymptom(Self.opensOnlyOnTheOwnersCode)
    }
  }

  @Test func expectNoSymptomPassesWhenTheRunIsClean() {
    let recording = Replay(Chat.self, from: .init(), events: [.send("hi")])
    #expect(withCapturedFailures { recording.expectNoSymptom(Self.everyMessageIsLogged) } == [])
    let empty = Replay(Chat.self, from: .init(), events: [])
    #expect(withCapturedFailures { empty.expectNoSymptom(Self.everyMessageIsLogged) } == [])
  }

  @Test func expectNoSymptomFailsForADisagreementWithNothingRecorded() {
    let recording = Replay(Keypad.self, from: .init(), events: [.digit(1)])
    let failures = withCapturedFailures {
      recording.expectNoSymptom(.disagreementWithRecording)
    }
    #expect(
      failures.map(\.message) == [
        ShrinkError.nothingRecorded(symptom: "today's Keypad disagrees with the recording")
          .description
      ])
  }

  // MARK: - The search itself

  @Test func ddminFindsEveryEventOfAnInterleavedNeedle() {
    // The symptom: the run holds each of 10, 20, 30 (in any order), among 0..<100 shuffled.
    var random = SeededRandom(seed: 7)
    let events = (0..<100).shuffled(using: &random)
    let symptom = Symptom<Sum>.run("holds 10, 20 and 30") { steps in
      Set([10, 20, 30]).isSubset(of: steps.map(\.event))
    }
    let shrunk = try? Replay(Sum.self, from: 0, events: events).shrink(keeping: symptom)
    #expect(shrunk.map { Set($0.events) } == [10, 20, 30])
    #expect(shrunk?.isOneMinimal == true)
  }

  @Test func chunksAreNearlyEqualAndInOrder() {
    #expect(chunked(Array(0..<7), into: 3) == [[0, 1], [2, 3], [4, 5, 6]])
    #expect(chunked([0, 1], into: 2) == [[0], [1]])
  }
}

/// A core that adds up the numbers sent to it, for tests of the search.
enum Sum: Core {
  static func makeDecisions(event: Int, state: inout Int) -> [Never] {
    state += event
    return []
  }
}

extension ShrinkTests {
  @Test func aLongPayloadLosesEveryCharacterItCanInOnePass() throws {
    let text =
      String(repeating: "lorem ipsum ", count: 10) + "@@" + String(repeating: "!", count: 50)
    let shrunk = try Replay(Chat.self, from: .init(), events: [.send("hi"), .send(text)])
      .shrink(keeping: Self.everyMessageIsLogged, simplify: Chat.simpler)
    #expect(shrunk.events == [.send("@@")])
  }

  @Test func aSimplifyThatOffersTheEventItselfStillEnds() throws {
    let shrunk = try Replay(Chat.self, from: .init(), events: [.send("@@")])
      .shrink(keeping: Self.everyMessageIsLogged, simplify: { [$0] })
    #expect(shrunk.events == [.send("@@")])
    #expect(shrunk.isOneMinimal)
    #expect(shrunk.replays < 1_000)
  }
}

extension ShrinkTests {
  @Test func aSimplifyThatGoesRoundInACircleStillEnds() throws {
    let swap: @Sendable (Chat.Event) -> [Chat.Event] = { event in
      event == .send("@@x") ? [.send("x@@")] : [.send("@@x")]
    }
    let shrunk = try Replay(Chat.self, from: .init(), events: [.send("@@x")])
      .shrink(keeping: Self.everyMessageIsLogged, simplify: swap)
    #expect(shrunk.events.count == 1)
    #expect(shrunk.isOneMinimal)
    #expect(shrunk.replays < 10_000)
  }
}

extension ShrinkTests {
  @Test func aSymptomThatRemovingCanUndoStillShrinksToAOneMinimalRun() throws {
    // "The sum ends at a multiple of 7": removing an event that is not needed can make it go,
    // which misleads the binary search; the result still fails and ddmin leaves it 1-minimal.
    let endsAtASeventh = Symptom<Sum>.run("the sum ends at a multiple of 7") {
      guard let sum = $0.last?.state else { return false }
      return sum > 0 && sum.isMultiple(of: 7)
    }
    let events = [3, 1, 4, 1, 5, 9, 2, 5, 6, 6]  // 42
    let recording = Replay(Sum.self, from: 0, events: events)
    let shrunk = try recording.shrink(keeping: endsAtASeventh)
    #expect(shrunk.isOneMinimal)
    Self.expectOneMinimal(endsAtASeventh, shrunk.events, recording: recording)
  }
}

extension ShrinkTests {
  /// Symptoms of sums, some that removing events can undo and some that it cannot.
  static let sumSymptoms: [Symptom<Sum>] = [
    .run("a multiple of 7") { steps in
      guard let sum = steps.last?.state else { return false }
      return sum > 0 && sum.isMultiple(of: 7)
    },
    .run("at least 40") { ($0.last?.state ?? 0) >= 40 },
    .run("a 7 before a 3") { steps in
      guard let seven = steps.firstIndex(where: { $0.event == 7 }) else { return false }
      return steps[(seven + 1)...].contains { $0.event == 3 }
    },
    .invariantBroken("below 25") { $0 < 25 },
    .transitionInvariantBroken("no 9 after 20") { $0.event != 9 || $0.before < 20 },
  ]

  @Test(arguments: 0..<25)
  func everyShrunkRunFailsAndIsOneMinimal(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(seed))
    let events = (0..<30).map { _ in 1 + random.next(below: 9) }
    let recording = Replay(Sum.self, from: 0, events: events)
    for symptom in Self.sumSymptoms {
      guard let shrunk = try? recording.shrink(keeping: symptom) else {
        #expect(!Self.shows(symptom, events, recording: recording), "\(symptom.name)")
        continue
      }
      #expect(shrunk.isOneMinimal)
      Self.expectOneMinimal(symptom, shrunk.events, recording: recording)
    }
  }
}

extension ShrinkTests {
  /// A symptom that shows on every other check, whatever the run: as flaky as a check can be.
  static func alternating() -> Symptom<Sum> {
    let checks = Mutex(0)
    return .run("every other check") { _ in
      checks.withLock { count in
        count += 1
        return count.isMultiple(of: 2) == false
      }
    }
  }

  @Test func aSymptomThatShowsOnlySometimesIsReportedAsFlaky() throws {
    let recording = Replay(Sum.self, from: 0, events: Array(1...20))
    // Without the re-check, the search's last answer is trusted: a "1-minimal" run that does not
    // show the symptom when replayed.
    let flaky = ShrinkError.flakySymptom(
      symptom: "the run shows \"every other check\"", events: 1)
    #expect(throws: flaky) { try recording.shrink(keeping: Self.alternating()) }
    let error = ShrinkError.flakySymptom(symptom: "the run shows \"x\"", events: 1)
    #expect(
      error.description == """
        The shrunk run (1 event) showed that the run shows "x" during the search, and not when it \
        was replayed again: the symptom shows only sometimes, so no shrunk run can be trusted. \
        Make the symptom's check and the core pure: they must not read a clock, a random number \
        or shared state.
        """)
  }

  @Test func expectNoSymptomFailsForAFlakySymptom() {
    let recording = Replay(Sum.self, from: 0, events: Array(1...20))
    let failures = withCapturedFailures { recording.expectNoSymptom(Self.alternating()) }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("the symptom shows only sometimes") == true)
  }
}

extension ShrinkTests {
  /// A clock for the time limit that advances one second each time the search reads it.
  final class SecondPerRead: Sendable {
    let reads = Mutex(0)

    func elapsed() -> Duration {
      .seconds(
        reads.withLock { count in
          defer { count += 1 }
          return count
        })
    }
  }

  @Test func theTimeLimitStopsTheSearchWithARunThatStillFails() throws {
    let recording = Replay(Keypad.self, from: .init(), events: Self.planted)
    let clock = SecondPerRead()
    let shrunk = try recording.shrink(
      keeping: Self.opensOnlyOnTheOwnersCode, simplify: nil, replayLimit: 100_000,
      timeLimit: .seconds(10), elapsed: clock.elapsed)
    #expect(shrunk.replays == 10)  // one read before each replay, the eleventh refused
    #expect(shrunk.stoppedBy == .time(.seconds(10)))
    #expect(!shrunk.isOneMinimal)
    #expect(Self.shows(Self.opensOnlyOnTheOwnersCode, shrunk.events, recording: recording))
    #expect(shrunk.events.count < 1_000)
    #expect(
      shrunk.description.contains(
        "the time limit (10.0 seconds) stopped the search: it may not be minimal"))
  }

  @Test func theReplayLimitIsSaidToBeTheOneThatStopped() throws {
    let recording = Replay(Keypad.self, from: .init(), events: Self.planted)
    let shrunk = try recording.shrink(keeping: Self.opensOnlyOnTheOwnersCode, replayLimit: 20)
    #expect(shrunk.stoppedBy == .replays(20))
    let whole = try recording.shrink(keeping: Self.opensOnlyOnTheOwnersCode)
    #expect(whole.stoppedBy == nil)
  }

  @Test func aTimeLimitBelowOrAtZeroIsAnError() {
    let recording = Replay(Chat.self, from: .init(), events: [.send("@@")])
    #expect(throws: ShrinkError.invalidTimeLimit(.zero)) {
      try recording.shrink(keeping: Self.everyMessageIsLogged, timeLimit: .zero)
    }
    #expect(
      ShrinkError.invalidTimeLimit(.seconds(-1)).description
        == "The time limit must be more than zero, not -1.0 seconds.")
  }

  /// `count` zeros and `ones` ones, shuffled: a sum where the ones are the events that matter.
  static func onesAmongZeros(_ ones: Int, of count: Int, seed: UInt64) -> [Int] {
    var random = SeededRandom(seed: seed)
    return (Array(repeating: 1, count: ones) + Array(repeating: 0, count: count - ones))
      .shuffled(using: &random)
  }

  @Test func aLongRunWhereHalfTheEventsMatterShrinksInLinearlyManyReplays() throws {
    let events = Self.onesAmongZeros(1_500, of: 3_000, seed: 3)
    let recording = Replay(Sum.self, from: 0, events: events)
    for symptom in [
      Symptom<Sum>.invariantBroken("below 1,500") { $0 < 1_500 },
      .run("ends at 1,500 or more") { ($0.last?.state ?? 0) >= 1_500 },
    ] {
      let shrunk = try recording.shrink(keeping: symptom)
      #expect(shrunk.events == Array(repeating: 1, count: 1_500), "\(symptom.name)")
      #expect(shrunk.isOneMinimal)
      // Pinning alone would take about 1,500 binary searches of 12 replays each.
      #expect(shrunk.replays < 3 * 3_000, "\(symptom.name): \(shrunk.replays) replays")
    }
  }

  @Test func aLongRunWhereFewEventsMatterShrinksInFewReplays() throws {
    let events = Self.onesAmongZeros(8, of: 20_000, seed: 4)
    let recording = Replay(Sum.self, from: 0, events: events)
    let shrunk = try recording.shrink(keeping: .invariantBroken("below 8") { $0 < 8 })
    #expect(shrunk.events == Array(repeating: 1, count: 8))
    #expect(shrunk.isOneMinimal)
    #expect(shrunk.replays < 400, "\(shrunk.replays) replays")
  }

  @Test(arguments: 0..<5)
  func everyShrunkLongRunFailsAndIsOneMinimal(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(100 + seed))
    let events = (0..<1_100).map { _ in 1 + random.next(below: 9) }
    let recording = Replay(Sum.self, from: 0, events: events)
    for symptom in Self.sumSymptoms {
      guard let shrunk = try? recording.shrink(keeping: symptom) else {
        #expect(!Self.shows(symptom, events, recording: recording), "\(symptom.name)")
        continue
      }
      #expect(shrunk.isOneMinimal)
      Self.expectOneMinimal(symptom, shrunk.events, recording: recording)
    }
  }
}
