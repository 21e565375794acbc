import DecisionsTesting
import Foundation

@testable import ReadingList

typealias ScreenID = ScreenStack<ReadingList.Screen>.ID

extension Book {
  static let dune = Book(id: 1, title: "Dune", author: "Frank Herbert")
  static let emma = Book(id: 2, title: "Emma", author: "Jane Austen")
}

extension ReadingList.State {
  /// A list whose file has loaded these books, as after the start.
  static func loaded(_ books: Book...) -> Self {
    var state = Self()
    state.books = .init(IdentifiedArray(uniqueElements: books), status: .loaded)
    return state
  }
}

extension ReadingList.Deps {
  /// Deps whose every closure fails the test that calls it; a test replaces the ones it uses.
  static func unused(
    clock: TestClock, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> Self {
    let error = JSONFileError.unreadable(path: "/unused.json", reason: "unused")
    return Self(
      file: .init(
        clock: clock,
        load: unimplemented(
          "load", throwing: error, fileID: fileID, filePath: filePath, line: line, column: column),
        save: unimplemented(
          "save", throwing: error, fileID: fileID, filePath: filePath, line: line, column: column),
        moveAside: unimplemented(
          "moveAside", throwing: error, fileID: fileID, filePath: filePath, line: line,
          column: column)),
      clock: clock,
      search: unimplemented(
        "search", fileID: fileID, filePath: filePath, line: line, column: column),
      loadCover: unimplemented(
        "loadCover", fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Unused deps whose saves are recorded in `saves`.
  static func saving(
    to saves: Calls<ReadingList.Books>, clock: TestClock, line: UInt = #line
  ) -> Self {
    var deps = unused(clock: clock, line: line)
    deps.file.save = { books throws(JSONFileError) in saves.record(books) }
    return deps
  }
}
