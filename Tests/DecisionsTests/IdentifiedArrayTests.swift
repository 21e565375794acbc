import Foundation
import Testing

@testable import Decisions

@Suite struct IdentifiedArrayTests {
  struct Row: Identifiable, Equatable, Sendable, Codable {
    var id: Int
    var value = 0
  }

  @Test func keepsOrderAndFindsByID() {
    var rows: IdentifiedArray<Row> = [Row(id: 3), Row(id: 1), Row(id: 2)]
    #expect(rows.ids == [3, 1, 2])
    #expect(rows[id: 1] == Row(id: 1))
    #expect(rows.index(id: 2) == 2)
    #expect(rows[id: 9] == nil)
    rows[id: 1]?.value = 5
    #expect(Array(rows) == [Row(id: 3), Row(id: 1, value: 5), Row(id: 2)])
  }

  @Test func removingAtOffsetsKeepsTheOthersInOrder() {
    var rows: IdentifiedArray<Row> = [Row(id: 3), Row(id: 1), Row(id: 2), Row(id: 5)]
    rows.remove(atOffsets: [3, 1, 9])
    #expect(rows.ids == [3, 2])
    #expect(rows[id: 2] == Row(id: 2))
    #expect(rows.index(id: 2) == 1)
    rows.remove(atOffsets: [])
    #expect(rows.ids == [3, 2])
  }

  @Test func settingAppendsUpdatesAndRemoves() {
    var rows = IdentifiedArray<Row>()
    rows[id: 7] = Row(id: 7)
    rows[id: 8] = Row(id: 8)
    rows[id: 7] = Row(id: 7, value: 1)
    #expect(Array(rows) == [Row(id: 7, value: 1), Row(id: 8)])
    rows[id: 7] = nil
    #expect(rows.ids == [8])
    #expect(rows.index(id: 8) == 0)
  }

  @Test func insertingAndRemovingKeepPositionsRight() {
    var rows = IdentifiedArray(uniqueElements: (0..<5).map { Row(id: $0) })
    rows.insert(Row(id: 10), at: 1)
    #expect(rows.ids == [0, 10, 1, 2, 3, 4])
    #expect(rows.remove(id: 2) == Row(id: 2))
    #expect(rows.remove(id: 2) == nil)
    rows.removeAll { $0.id.isMultiple(of: 2) }
    #expect(rows.ids == [1, 3])
    for (position, row) in rows.enumerated() { #expect(rows.index(id: row.id) == position) }
    #expect(
      rows.update(id: 3) { row -> Int in
        row.value = 9
        return row.value
      } == 9)
    #expect(rows.update(id: 4) { _ in 0 } == nil)
  }

  @Test func equalityHashingAndDescriptionFollowTheElements() {
    let a: IdentifiedArray<Row> = [Row(id: 1), Row(id: 2)]
    let b = IdentifiedArray(uniqueElements: [Row(id: 1), Row(id: 2)])
    #expect(a == b)
    #expect(a != [Row(id: 2), Row(id: 1)])
    #expect("\(IdentifiedArray<Row>())" == "[]")
    #expect(Mirror(reflecting: a).children.count == 2)
  }

  @Test func repeatedIDsAreCombinedAtTheFirstPosition() throws {
    let answer = [
      Row(id: 2, value: 1), Row(id: 1), Row(id: 2, value: 5), Row(id: 3), Row(id: 1, value: 4),
    ]
    let first = IdentifiedArray(answer) { kept, _ in kept }
    #expect(Array(first) == [Row(id: 2, value: 1), Row(id: 1), Row(id: 3)])
    #expect(first.index(id: 3) == 2)
    let summed = IdentifiedArray(answer) { kept, later in
      Row(id: kept.id, value: kept.value + later.value)
    }
    #expect(Array(summed) == [Row(id: 2, value: 6), Row(id: 1, value: 4), Row(id: 3)])
    struct Refused: Error {}
    #expect(throws: Refused.self) {
      try IdentifiedArray(answer) { _, _ in throw Refused() }
    }
    #expect(
      IdentifiedArray([Row(id: 1), Row(id: 2)]) { _, _ in
        Issue.record("no repeat")
        return Row(id: 0)
      }.ids == [1, 2])
  }

  @Test func combiningIntoAnotherIDStopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      _ = IdentifiedArray([Row(id: 1), Row(id: 1)]) { _, _ in Row(id: 2) }
    }
  }

  @Test func aDuplicateIDStopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      var rows: IdentifiedArray<Row> = [Row(id: 1)]
      rows.append(Row(id: 1))
    }
  }

  @Test func aCoreFindsItsChildByIDWithoutASearch() {
    var rows = IdentifiedArray(uniqueElements: (0..<1_000).map { Row(id: $0) })
    let decisions = Bump.makeDecisions(event: .bump, id: 999, in: &rows) { id, decision in
      "\(id): \(decision)"
    }
    #expect(decisions == ["999: bumped"])
    #expect(rows[id: 999]?.value == 1)
    #expect(Bump.makeDecisions(event: .bump, id: 5_000, in: &rows) { "\($0) \($1)" }.isEmpty)
  }

  /// A child core that counts its bumps.
  enum Bump: Core {
    typealias State = Row
    enum Event: Sendable { case bump }
    typealias Decision = String
    static func makeDecisions(event: Event, state: inout Row) -> [String] {
      state.value += 1
      return ["bumped"]
    }
  }
}

/// Each element's identity, and the log of changes that the stores read to check only what an
/// event changed.
@Suite struct IdentifiedArrayIdentityTests {
  struct Row: Identifiable, Equatable, Sendable {
    var id: Int
    var value = 0
  }

  @Test func anElementKeepsItsIdentityThroughUpdates() throws {
    var rows: IdentifiedArray<Row> = [Row(id: 1), Row(id: 2)]
    let identity = try #require(rows.identity(of: 1))
    rows[id: 1]?.value = 5
    rows.update(id: 1) { $0.value += 1 }
    rows[id: 1] = Row(id: 1, value: 9)
    rows.insert(Row(id: 0), at: 0)
    rows.remove(id: 2)
    #expect(rows.identity(of: 1) == identity)
  }

  @Test func anElementRemovedAndAddedBackIsANewElement() throws {
    var rows: IdentifiedArray<Row> = [Row(id: 1), Row(id: 2)]
    let first = try #require(rows.identity(of: 1))
    let other = try #require(rows.identity(of: 2))
    rows.remove(id: 1)
    rows.append(Row(id: 1))
    #expect(rows.identity(of: 1) != first)
    #expect(rows.identity(of: 2) == other)
    // Equality looks at the elements only.
    #expect(rows == [Row(id: 2), Row(id: 1)])
  }

  @Test func removingAllThatMatchKeepsTheOthersIdentities() throws {
    var rows = IdentifiedArray(uniqueElements: (0..<6).map { Row(id: $0) })
    let before = rows.ids.map { rows.identity(of: $0) }
    rows.removeAll { $0.id.isMultiple(of: 2) }
    #expect(rows.ids == [1, 3, 5])
    #expect(rows.ids.map { rows.identity(of: $0) } == [before[1], before[3], before[5]])
    #expect(rows.identity(of: 0) == nil)
  }

  @Test func theStructureChangesOnlyWhenElementsComeOrGo() {
    var rows: IdentifiedArray<Row> = [Row(id: 1)]
    let structure = rows.structure
    let version = rows.version
    rows[id: 1]?.value = 3
    #expect(rows.structure == structure)
    #expect(rows.version != version)
    rows.append(Row(id: 2))
    #expect(rows.structure != structure)
  }

  @Test func changesSinceAVersionNameTheElementsChanged() {
    var rows = IdentifiedArray(uniqueElements: (0..<100).map { Row(id: $0) })
    let seen = rows.version
    #expect(rows.changes(since: seen) == [])
    rows[id: 5]?.value = 1
    rows.remove(id: 7)
    rows.append(Row(id: 200))
    #expect(rows.changes(since: seen) == [5, 7, 200])
    // A copy that changed on its own tells its own changes from the shared version.
    var copy = rows
    copy.update(id: 9) { $0.value = 2 }
    #expect(copy.changes(since: rows.version) == [9])
    #expect(rows.changes(since: copy.version) == nil)
  }

  @Test func tooManyChangesOrAnotherCollectionsVersionAreNotKnown() {
    var rows = IdentifiedArray(uniqueElements: (0..<100).map { Row(id: $0) })
    let seen = rows.version
    for id in 0..<17 { rows[id: id]?.value = 1 }
    #expect(rows.changes(since: seen) == nil)
    let other: IdentifiedArray<Row> = [Row(id: 1)]
    #expect(rows.changes(since: other.version) == nil)
    #expect(other.changes(since: 0) == [1])
  }

  @Test func structuralChangesNameTheElementsAddedOrRemovedWhateverWasUpdated() {
    var rows = IdentifiedArray(uniqueElements: (0..<100).map { Row(id: $0) })
    let seen = rows.structure
    #expect(rows.structuralChanges(since: seen) == [])
    for _ in 0..<3 {
      for id in 0..<20 { rows[id: id]?.value += 1 }
    }
    #expect(rows.structuralChanges(since: seen) == [])
    rows.remove(id: 7)
    for id in 20..<40 { rows[id: id]?.value += 1 }
    rows.append(Row(id: 7))
    rows.insert(Row(id: 300), at: 0)
    #expect(rows.structuralChanges(since: seen) == [7, 7, 300])
  }

  @Test func tooManyStructuralChangesOrAnotherCollectionsStructureAreNotKnown() {
    var rows = IdentifiedArray(uniqueElements: (0..<100).map { Row(id: $0) })
    let seen = rows.structure
    rows.removeAll { $0.id < 17 }
    #expect(rows.structuralChanges(since: seen) == nil)
    let other = IdentifiedArray(uniqueElements: (0..<100).map { Row(id: $0) })
    #expect(rows.structuralChanges(since: other.structure) == nil)
    #expect(other.structuralChanges(since: rows.structure) == nil)
  }

  @Test func codesAsAnArrayInOrder() throws {
    let rows: IdentifiedArray<IdentifiedArrayTests.Row> = [.init(id: 3, value: 1), .init(id: 1)]
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(rows)
    #expect(String(decoding: data, as: UTF8.self) == #"[{"id":3,"value":1},{"id":1,"value":0}]"#)
    let decoded = try JSONDecoder().decode(
      IdentifiedArray<IdentifiedArrayTests.Row>.self, from: data)
    #expect(decoded == rows)
    #expect(decoded[id: 1] == IdentifiedArrayTests.Row(id: 1))
  }

  @Test func refusesToDecodeRepeatedIDs() {
    let data = Data(#"[{"id":3,"value":1},{"id":3,"value":2}]"#.utf8)
    #expect {
      try JSONDecoder().decode(IdentifiedArray<IdentifiedArrayTests.Row>.self, from: data)
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.debugDescription == "Two elements have the id 3."
    }
  }
}
