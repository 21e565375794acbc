import Foundation
import RemoteContent

/// Content for tests, built in code.
enum Fixtures {
  static let ada = User(id: ContentID("007")!, name: "Ada", handle: "@ada", bio: "Writes.")
  static let alan = User(id: ContentID("008")!, name: "Alan", handle: "@alan", bio: "Reads.")
  static let story = Story(
    id: ContentID("12345")!, title: "A title", message: "Once upon a time.", sender: ada,
    recipient: alan, date: Date(timeIntervalSince1970: 1_777_628_400))
  static let message = Message(
    id: ContentID("9876")!, text: "Hi!", from: alan, to: ada,
    date: Date(timeIntervalSince1970: 1_777_628_400))
}

/// A fetch the test answers by hand, with no clocks and no sleeps.
///
/// Each call waits for the next result the test hands in.
final class ManualFetch<Content: Sendable>: Sendable {
  private let stream: AsyncStream<Result<Content, LoadFailure>>
  private let continuation: AsyncStream<Result<Content, LoadFailure>>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
  }

  /// The fetch closure.
  @Sendable func fetch(_ id: ContentID) async throws -> Content {
    for await result in stream { return try result.get() }
    throw CancellationError()
  }

  func succeed(_ content: Content) { continuation.yield(.success(content)) }
  func fail(_ failure: LoadFailure) { continuation.yield(.failure(failure)) }
}
