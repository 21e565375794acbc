/// Records the arguments of every call to a dependency, in order, for assertions.
///
/// ```swift
/// let logged = Calls<String>()
/// let deps = FactFeature.Deps(loadFact: { fact }, log: logged.record, /* … */)
/// // … run the feature …
/// #expect(logged.all == ["hi"])
/// ```
/// For a closure with several parameters, record a tuple or a small struct:
/// `track: { name, count in tracked.record((name, count)) }`.
public final class Calls<Arguments: Sendable>: Sendable {
  private let log = SharedLog<Arguments>()

  /// Creates an empty recorder.
  public init() {}

  /// Records one call's arguments.
  @Sendable
  public func record(_ arguments: Arguments) {
    log.append(arguments)
  }

  /// The arguments of every call so far, in order.
  public var all: [Arguments] {
    log.all
  }

  /// How many calls were recorded.
  public var count: Int {
    log.count
  }

  /// Returns a closure that records its arguments and returns `result`.
  /// - Parameter result: What every call returns.
  /// - Returns: A recording closure.
  public func returning<Result: Sendable>(
    _ result: Result
  ) -> @Sendable (Arguments) -> Result {
    { arguments in
      self.record(arguments)
      return result
    }
  }

  /// Returns a closure that records its arguments and then runs `body` with them.
  /// - Parameter body: What every call does after it is recorded.
  /// - Returns: A recording closure.
  public func recording<Result>(
    _ body: @escaping @Sendable (Arguments) async throws -> Result
  ) -> @Sendable (Arguments) async throws -> Result {
    { arguments in
      self.record(arguments)
      return try await body(arguments)
    }
  }
}

extension Calls where Arguments == Void {
  /// Records one call of a closure without arguments.
  @Sendable
  public func record() {
    record(())
  }

  /// Returns a closure without arguments that records each call and returns `result`.
  /// - Parameter result: What every call returns.
  /// - Returns: A recording closure.
  public func returning<Result: Sendable>(_ result: Result) -> @Sendable () -> Result {
    {
      self.record(())
      return result
    }
  }

  /// Returns a closure without arguments that records each call and then runs `body`.
  /// - Parameter body: What every call does after it is recorded.
  /// - Returns: A recording closure.
  public func recording<Result>(
    _ body: @escaping @Sendable () async throws -> Result
  ) -> @Sendable () async throws -> Result {
    {
      self.record(())
      return try await body()
    }
  }
}
