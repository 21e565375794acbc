import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Why an HTTP `GET` did not return a body.
package enum HTTPFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// The server could not be reached.
  case unreachable(String)
  /// The whole load (connecting, the headers, the body and decoding it) took longer than allowed.
  case timedOut(seconds: Double)
  /// The server answered with a status other than 200.
  case status(Int)
  /// The body is longer than allowed (by its `Content-Length`, or by what arrived).
  case tooLarge(limit: Int)

  /// The cause, for a log line.
  package var description: String {
    switch self {
    case .unreachable(let detail): "server unreachable: \(detail)"
    case .timedOut(let seconds): "no answer within \(seconds.formatted()) s"
    case .status(let status): "HTTP status \(status)"
    case .tooLarge(let limit): "response larger than \(formatByteCount(limit))"
    }
  }
}

/// Fetches `url` and decodes the body of a 200 response, all within `timeout`.
///
/// `timeout` is a deadline for the whole load, not an idle timeout: a server that sends one byte a
/// second is cut off too. The body is streamed and counted as it arrives, so memory stays bounded
/// whatever the `Content-Length` says, or when there is none.
/// - Parameters:
///   - url: What to fetch.
///   - timeout: How long the whole load, decoding included, may take.
///   - maxBytes: The largest body accepted.
///   - decode: Turns the body into the value; runs within the deadline.
/// - Throws: ``HTTPFailure`` for every way the request can fail, or what `decode` throws.
/// - Returns: The decoded body.
package func httpGet<Value: Sendable>(
  _ url: URL, timeout: Duration, maxBytes: Int = defaultMaxResponseBytes,
  decode: @escaping @Sendable (Data) throws -> Value
) async throws -> Value {
  try await withDeadline(timeout) {
    try decode(try await download(url, timeout: timeout, maxBytes: maxBytes))
  }
}

/// Fetches `url` and returns the body of a 200 response, all within `timeout`.
/// - Parameters:
///   - url: What to fetch.
///   - timeout: How long the whole load may take.
///   - maxBytes: The largest body accepted.
/// - Throws: ``HTTPFailure`` for every way the request can fail.
/// - Returns: The body.
package func httpGet(
  _ url: URL, timeout: Duration, maxBytes: Int = defaultMaxResponseBytes
) async throws(HTTPFailure) -> Data {
  do {
    return try await httpGet(url, timeout: timeout, maxBytes: maxBytes) { $0 }
  } catch let failure as HTTPFailure {
    throw failure
  } catch {
    // NB: only cancellation gets here: `download` throws nothing else, and the closure nothing.
    throw .unreachable(String(describing: error))
  }
}

/// Runs `operation`, and throws ``HTTPFailure/timedOut(seconds:)`` instead when it has not finished
/// within `timeout`, cancelling it.
/// - Parameters:
///   - timeout: How long `operation` may take.
///   - operation: The work; it must stop soon after it is cancelled.
/// - Throws: What `operation` throws, or ``HTTPFailure/timedOut(seconds:)``.
/// - Returns: What `operation` returns.
package func withDeadline<Value: Sendable>(
  _ timeout: Duration, _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
  try await withThrowingTaskGroup(of: DeadlineOutcome<Value>.self) { group in
    group.addTask { .finished(try await operation()) }
    group.addTask {
      try await Task.sleep(for: timeout)
      return .deadline
    }
    defer { group.cancelAll() }
    switch try await group.next() {
    case .finished(let value): return value
    case .deadline: throw HTTPFailure.timedOut(seconds: timeout.inSeconds)
    case nil: throw CancellationError()
    }
  }
}

/// How a race against a deadline ended.
private enum DeadlineOutcome<Value: Sendable>: Sendable {
  case finished(Value)
  case deadline
}

/// Streams the body of `url` into memory, at most `maxBytes` of it, until cancelled.
private func download(_ url: URL, timeout: Duration, maxBytes: Int) async throws -> Data {
  var request = URLRequest(url: url)
  // The idle timeout; the deadline is `withDeadline`'s.
  request.timeoutInterval = timeout.inSeconds
  let loader = BodyLoader(maxBytes: maxBytes)
  let session = URLSession(configuration: .ephemeral, delegate: loader, delegateQueue: nil)
  defer { session.finishTasksAndInvalidate() }
  let task = session.dataTask(with: request)
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { continuation in
      loader.start(task, continuation: continuation)
    }
  } onCancel: {
    loader.finish(.failure(CancellationError()))
  }
}

/// Receives one response's body, chunk by chunk, and stops it as soon as it is too large.
private final class BodyLoader: NSObject, URLSessionDataDelegate, Sendable {
  private struct Contents {
    var continuation: CheckedContinuation<Data, any Error>?
    var task: URLSessionTask?
    var body = Data()
    /// Set once: how the load ended.
    var outcome: Result<Data, any Error>?
    var hasEnded: Bool {
      if case .some = outcome { true } else { false }
    }
  }

  private let maxBytes: Int
  private let contents = LockedValue(Contents())

  init(maxBytes: Int) {
    self.maxBytes = maxBytes
  }

  /// Starts `task`, unless the load already ended (it was cancelled before it started).
  func start(_ task: URLSessionTask, continuation: CheckedContinuation<Data, any Error>) {
    let early = contents.withLock { contents -> Result<Data, any Error>? in
      if let outcome = contents.outcome { return outcome }
      contents.continuation = continuation
      contents.task = task
      return nil
    }
    if let early {
      continuation.resume(with: early)
    } else {
      task.resume()
    }
  }

  /// Ends the load with `outcome`, once; later calls do nothing.
  ///
  /// Cancels the task, if it runs.
  func finish(_ outcome: Result<Data, any Error>) {
    let (continuation, task) = contents.withLock {
      contents -> (CheckedContinuation<Data, any Error>?, URLSessionTask?) in
      guard !contents.hasEnded else { return (nil, nil) }
      contents.outcome = outcome
      contents.body = Data()
      defer {
        contents.continuation = nil
        contents.task = nil
      }
      return (contents.continuation, contents.task)
    }
    continuation?.resume(with: outcome)
    // NB: not in place: swift-corelibs-foundation's `cancel()`, called from a delegate callback
    // during a chunked body, never returns, and the body keeps flowing into memory.
    if let task { DispatchQueue.global().async { task.cancel() } }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    if let status = (response as? HTTPURLResponse)?.statusCode, status != 200 {
      completionHandler(.cancel)
      finish(.failure(HTTPFailure.status(status)))
    } else if response.expectedContentLength > Int64(maxBytes) {
      completionHandler(.cancel)
      finish(.failure(HTTPFailure.tooLarge(limit: maxBytes)))
    } else {
      completionHandler(.allow)
    }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let tooLarge = contents.withLock { contents -> Bool in
      guard !contents.hasEnded else { return false }
      guard contents.body.count + data.count <= maxBytes else { return true }
      contents.body.append(data)
      return false
    }
    if tooLarge { finish(.failure(HTTPFailure.tooLarge(limit: maxBytes))) }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    guard let error else {
      let body = contents.withLock { $0.body }
      finish(.success(body))
      return
    }
    let failure: HTTPFailure
    if let error = error as? URLError {
      failure =
        error.code == .timedOut
        ? .timedOut(seconds: task.originalRequest?.timeoutInterval ?? 0)
        : .unreachable(error.localizedDescription)
    } else {
      failure = .unreachable(String(describing: error))
    }
    finish(.failure(failure))
  }
}
