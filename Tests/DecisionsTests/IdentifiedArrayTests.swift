import Decisions
import Testing

@Suite struct IdentifiedArrayTests {
  struct Row: Identifiable, Equatable, Sendable {
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
