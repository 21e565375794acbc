// The fourth kind of Docs/RemoteContent.md ("Adding a fourth kind", step 1), compiled and run. (The
// guide's other block is the coordinator's core itself, in Sources/Examples/RemoteContent.)

import Foundation
import RemoteContent
import Testing

/// A photo: the content of the fourth kind.
public struct Photo: Equatable, Sendable, Codable {
  var id: ContentID
  var caption: String
  var url: URL
}

/// The fourth kind: how a photo is called and presented.
public enum PhotoKind: ContentKind {
  /// The kind's name in messages.
  public static let name = "photo"
  /// Presents a photo: its caption and a link to it.
  public static func present(_ photo: Photo) -> ScreenDescription {
    ScreenDescription(title: photo.caption, rows: [.field("Link", photo.url.absoluteString)])
  }
}

@Suite struct RemoteContentGuideTests {
  @Test func aPhotoIsPresentedWithItsCaptionAndLink() throws {
    let photo = Photo(
      id: try #require(ContentID("12")), caption: "Harbour",
      url: try #require(URL(string: "https://example.com/12.jpg")))
    #expect(
      PhotoKind.present(photo)
        == ScreenDescription(
          title: "Harbour", rows: [.field("Link", "https://example.com/12.jpg")]))
    #expect(PhotoKind.placeholderTitle(id: photo.id) == "Photo 12")
  }
}
