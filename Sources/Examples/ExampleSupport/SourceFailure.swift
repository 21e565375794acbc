/// Why a source of number facts failed, bundled or over HTTP, in words fit for a log line or a
/// screen: the error of both examples' sources.
public enum SourceFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// The bundled source failed on purpose, to show the failure path.
  case simulatedFailure
  /// The server could not be reached.
  case unreachable(String)
  /// The whole request took longer than allowed.
  case timedOut(seconds: Double)
  /// The server answered with a status other than 200.
  case httpStatus(Int)
  /// The response was not the JSON the source expects.
  case malformedResponse(String)
  /// There were no facts to use: the bundled list was missing, unreadable or empty.
  case noFacts(String)
  /// The response body was larger than allowed.
  case tooLarge(limit: Int)

  /// The failure of an HTTP request, as a source reports it.
  package init(_ failure: HTTPFailure) {
    switch failure {
    case .unreachable(let detail): self = .unreachable(detail)
    case .timedOut(let seconds): self = .timedOut(seconds: seconds)
    case .status(let status): self = .httpStatus(status)
    case .tooLarge(let limit): self = .tooLarge(limit: limit)
    }
  }

  /// The cause, in a few words.
  public var description: String {
    switch self {
    case .simulatedFailure: "simulated failure (--failure-rate)"
    case .unreachable(let detail): "server unreachable: \(detail)"
    case .timedOut(let seconds): "no answer within \(seconds.formatted()) s"
    case .httpStatus(let status): "HTTP status \(status)"
    case .malformedResponse(let detail): "malformed response: \(detail)"
    case .noFacts(let detail): "no facts: \(detail)"
    case .tooLarge(let limit): HTTPFailure.tooLarge(limit: limit).description
    }
  }
}
