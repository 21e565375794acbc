import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Why an HTTP `GET` did not return a body.
package enum HTTPFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// The server could not be reached.
  case unreachable(String)
  /// The server did not answer in time.
  case timedOut(seconds: Double)
  /// The server answered with a status other than 200.
  case status(Int)

  /// The cause, for a log line.
  package var description: String {
    switch self {
    case .unreachable(let detail): "server unreachable: \(detail)"
    case .timedOut(let seconds): "no answer within \(seconds.formatted()) s"
    case .status(let status): "HTTP status \(status)"
    }
  }
}

/// Fetches `url` and returns the body of a 200 response.
/// - Parameters:
///   - url: What to fetch.
///   - timeout: How long to wait for an answer.
///   - session: The session to fetch with.
/// - Throws: ``HTTPFailure`` for every way the request can fail.
/// - Returns: The body.
package func httpGet(
  _ url: URL, timeout: Duration, session: URLSession = .shared
) async throws(HTTPFailure) -> Data {
  let seconds =
    Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
  var request = URLRequest(url: url)
  request.timeoutInterval = seconds
  do {
    let (data, response) = try await session.data(for: request)
    if let status = (response as? HTTPURLResponse)?.statusCode, status != 200 {
      throw HTTPFailure.status(status)
    }
    return data
  } catch let failure as HTTPFailure {
    throw failure
  } catch let error as URLError where error.code == .timedOut {
    throw .timedOut(seconds: seconds)
  } catch {
    throw .unreachable((error as? URLError)?.localizedDescription ?? String(describing: error))
  }
}
