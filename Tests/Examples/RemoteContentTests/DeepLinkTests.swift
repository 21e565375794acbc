import RemoteContent
import Testing

@Suite struct DeepLinkTests {
  @Test(arguments: [
    ("app://stories/12345", Route.story(ContentID("12345")!)),
    ("app://users/007", .user(ContentID("007")!)),
    ("app://messages/9876", .message(ContentID("9876")!)),
    ("APP://Stories/1", .story(ContentID("1")!)),
    ("app://users/42/", .user(ContentID("42")!)),
    ("  app://messages/5 \n", .message(ContentID("5")!)),
    ("app://stories/123456789012345678", .story(ContentID("123456789012345678")!)),
  ])
  func validLinksParse(link: String, route: Route) throws {
    #expect(try Route.parse(link) == route)
  }

  @Test(arguments: [
    ("", DeepLinkError.empty),
    ("   ", .empty),
    ("stories/12345", .wrongScheme("stories/12345")),
    ("https://stories/12345", .wrongScheme("https://")),
    ("app:/stories/12345", .wrongScheme("app:/stories/12345")),
    ("myapp://stories/1", .wrongScheme("myapp://")),
    ("app://", .missingKind),
    ("app:///12345", .missingKind),
    ("app://videos/1", .unknownKind("videos")),
    ("app://story/1", .unknownKind("story")),
    ("app://stories", .missingID(kind: "story")),
    ("app://users/", .missingID(kind: "user")),
    ("app://messages//", .missingID(kind: "message")),
    ("app://stories/12a", .invalidID("12a")),
    ("app://stories/-1", .invalidID("-1")),
    ("app://stories/1.5", .invalidID("1.5")),
    ("app://stories/１２", .invalidID("１２")),
    ("app://stories/%31", .invalidID("%31")),
    ("app://stories/1234567890123456789", .invalidID("1234567890123456789")),
    ("app://stories/1/comments", .extraPathComponents(["comments"])),
    ("app://stories/1/2/3", .extraPathComponents(["2", "3"])),
    ("app://stories/1?ref=mail", .unexpectedSuffix("?ref=mail")),
    ("app://users/7#top", .unexpectedSuffix("#top")),
  ])
  func malformedLinksSayWhatIsWrong(link: String, error: DeepLinkError) {
    #expect(throws: error) { try Route.parse(link) }
  }

  @Test func errorsReadAsSentences() {
    #expect(
      DeepLinkError.unknownKind("videos").description
        == #"unknown kind "videos" (expected stories, users or messages)"#)
    #expect(DeepLinkError.missingID(kind: "story").description == "the link names no story id")
    #expect(
      DeepLinkError.extraPathComponents(["a", "b"]).description == #"unexpected "a/b" after the id"#
    )
  }

  @Test(arguments: [
    "https://" + String(repeating: "x", count: 1_000_000),
    "app://" + String(repeating: "x", count: 1_000_000),
    "app://stories/" + String(repeating: "1", count: 1_000_000),
    "app://stories/1/" + String(repeating: "a/", count: 500_000),
    "app://stories/1?" + String(repeating: "q", count: 1_000_000),
    String(repeating: "x", count: 1_000_000),
  ])
  func aHugeLinkMakesAShortError(link: String) throws {
    let error = try #require(throws: DeepLinkError.self) { try Route.parse(link) }
    #expect(error.description.count < 120)
  }

  @Test func aRoutePrintsAsItsLink() throws {
    for link in ["app://stories/12345", "app://users/007", "app://messages/9876"] {
      #expect(try Route.parse(link).description == link)
    }
  }

  @Test func idsAreDigitsOnly() {
    #expect(ContentID("007")?.rawValue == "007")
    #expect(ContentID("") == nil)
    #expect(ContentID("1 2") == nil)
    #expect(ContentID("٣") == nil)  // an Arabic-Indic digit is a number, but not ASCII
  }
}
