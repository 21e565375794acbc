import Foundation
import RemoteContent
import Testing

@Suite struct ContentLibraryTests {
  @Test func theBundledLibraryIsConsistentAndBigEnough() throws {
    let library = try ContentLibrary.bundled()
    #expect(library.problems == [])
    #expect(library.users.count >= 10)
    #expect(library.stories.count >= 20)
    #expect(library.messages.count >= 20)
  }

  @Test func theLinksOfTheDocsResolve() throws {
    let library = try ContentLibrary.bundled()
    #expect(
      try library.story(ContentID("12345")!).sender.id
        != library.story(ContentID("12345")!).recipient.id)
    #expect(try library.user(ContentID("007")!).handle.hasPrefix("@"))
    #expect(try library.message(ContentID("9876")!).text.isEmpty == false)
  }

  @Test func aMissingIDIsNotFound() throws {
    let library = try ContentLibrary.bundled()
    #expect(throws: LoadFailure.notFound) { try library.story(ContentID("99999")!) }
  }

  @Test func aBrokenReferenceIsMalformedAndListedAsAProblem() throws {
    var library = try ContentLibrary.bundled()
    library.stories[0].senderID = ContentID("999")!
    let id = library.stories[0].id
    #expect(throws: LoadFailure.malformed("story \(id) refers to missing user 999")) {
      try library.story(id)
    }
    #expect(library.problems == ["story \(id) refers to missing user 999"])
    library.users.append(library.users[0])
    #expect(library.problems.contains("user \(library.users[0].id) appears 2 times"))
  }

  @Test func anExportHasTheServersLayoutAndDecodesBack() throws {
    let library = try ContentLibrary.bundled()
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("decisions-export-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    try library.export(to: directory)
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let data = try Data(contentsOf: directory.appendingPathComponent("stories/12345.json"))
    #expect(try decoder.decode(Story.self, from: data) == library.story(ContentID("12345")!))
    let users = try FileManager.default.contentsOfDirectory(
      atPath: directory.appendingPathComponent("users").path)
    #expect(users.count == library.users.count)
  }

  @Test func aServerThatIsNotThereIsUnreachable() async {
    // Port 9 (discard) on the loopback address: nothing listens, so the connection is refused.
    // NB: a long timeout: on a loaded machine the refusal once took longer than the default 5 s,
    // and the fetch then failed as timed out, another `.unreachable`.
    let deps = ContentScreen.Deps.server(URL(string: "http://127.0.0.1:9")!, timeout: .seconds(60))
    await #expect {
      try await deps.stories.fetch(ContentID("1")!)
    } throws: { error in
      if case .unreachable(let detail) = error as? LoadFailure {
        return detail.hasPrefix("server unreachable")
      }
      return false
    }
  }
}
