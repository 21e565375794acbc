/// The error an unimplemented throwing dependency throws after failing the test.
public struct UnimplementedDependency: Error, Equatable, CustomStringConvertible {
  /// The name the dependency was given, such as `"FactFeature.Deps.loadFact"`.
  public var name: String

  /// A sentence that names the dependency.
  public var description: String {
    "Unimplemented dependency called: \(name)"
  }
}

// NB: one overload per shape of closure — sync or async, throwing or not, returning Void or a value.
// The type of the Deps field picks the overload; a non-throwing closure that returns a value needs a
// placeholder, because it cannot throw and has nothing else to return. The two non-throwing `Void`
// overloads are disfavored: a non-throwing closure converts to a throwing one, so for a field of
// type `() throws -> Void` both they and the throwing overload (with `Result == Void`) would fit.
// Disfavored, they lose that tie, and still win where the field cannot throw.

/// Returns a closure that fails the test, naming `name`, when it is called.
///
/// Use it for every dependency a test's path must not touch:
/// ```swift
/// let deps = FactFeature.Deps(
///   loadFact: { Fact(text: "hi") },
///   track: unimplemented("track"),
///   log: unimplemented("log")
/// )
/// ```
/// When called, it fails with `Unimplemented dependency called: log`, at the line that created it.
/// A shared factory of unimplemented deps should take `fileID`, `filePath`, `line` and `column`
/// parameters and pass them on, so failures point at the test that used the factory.
/// - Parameters:
///   - name: The name to report, such as the field's name.
///   - fileID: The caller's file id, for the failure's location.
///   - filePath: The caller's file path, for the failure's location.
///   - line: The caller's line, for the failure's location.
///   - column: The caller's column, for the failure's location.
/// - Returns: A closure that reports a failure each time it is called.
@_disfavoredOverload
public func unimplemented<each Argument>(
  _ name: String,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) -> Void {
  let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
  return { (_: repeat each Argument) in
    reportFailure(UnimplementedDependency(name: name).description, at: location)
  }
}

/// Returns a closure that fails the test, naming `name`, and returns `placeholder` when called.
/// - Parameters:
///   - name: The name to report, such as the field's name.
///   - placeholder: What the closure returns after failing the test.
///   - fileID: The caller's file id, for the failure's location.
///   - filePath: The caller's file path, for the failure's location.
///   - line: The caller's line, for the failure's location.
///   - column: The caller's column, for the failure's location.
/// - Returns: A closure that reports a failure each time it is called.
public func unimplemented<each Argument, Result: Sendable>(
  _ name: String,
  placeholder: Result,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) -> Result {
  let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
  return { (_: repeat each Argument) in
    reportFailure(UnimplementedDependency(name: name).description, at: location)
    return placeholder
  }
}

/// Returns a throwing closure that fails the test, naming `name`, and throws
/// ``UnimplementedDependency`` when called.
/// - Parameters:
///   - name: The name to report, such as the field's name.
///   - fileID: The caller's file id, for the failure's location.
///   - filePath: The caller's file path, for the failure's location.
///   - line: The caller's line, for the failure's location.
///   - column: The caller's column, for the failure's location.
/// - Returns: A closure that reports a failure and throws each time it is called.
public func unimplemented<each Argument, Result>(
  _ name: String,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) throws -> Result {
  let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
  return { (_: repeat each Argument) in
    let error = UnimplementedDependency(name: name)
    reportFailure(error.description, at: location)
    throw error
  }
}

/// Returns an async closure that fails the test, naming `name`, when it is called.
/// - Parameters:
///   - name: The name to report, such as the field's name.
///   - fileID: The caller's file id, for the failure's location.
///   - filePath: The caller's file path, for the failure's location.
///   - line: The caller's line, for the failure's location.
///   - column: The caller's column, for the failure's location.
/// - Returns: A closure that reports a failure each time it is called.
@_disfavoredOverload
public func unimplemented<each Argument>(
  _ name: String,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) async -> Void {
  let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
  return { (_: repeat each Argument) in
    reportFailure(UnimplementedDependency(name: name).description, at: location)
  }
}

/// Returns an async throwing closure that fails the test, naming `name`, and throws
/// ``UnimplementedDependency`` when called.
/// - Parameters:
///   - name: The name to report, such as the field's name.
///   - fileID: The caller's file id, for the failure's location.
///   - filePath: The caller's file path, for the failure's location.
///   - line: The caller's line, for the failure's location.
///   - column: The caller's column, for the failure's location.
/// - Returns: A closure that reports a failure and throws each time it is called.
public func unimplemented<each Argument, Result>(
  _ name: String,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) async throws -> Result {
  let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
  return { (_: repeat each Argument) in
    let error = UnimplementedDependency(name: name)
    reportFailure(error.description, at: location)
    throw error
  }
}

// NB: a closure typed `throws(Failure)` cannot throw ``UnimplementedDependency``, and Swift has no
// way to make a value of an arbitrary error type: the test names the error it throws. (A field of
// type `() throws(JSONFileError) -> Value` took none of the overloads above: their closures throw
// `any Error`, which does not convert to a typed throw.)

/// Returns a closure with a typed throw that fails the test, naming `name`, and throws `error`
/// when it is called.
///
/// For a dependency whose closure throws one error type, such as `JSONFile`'s:
/// ```swift
/// let unused = JSONFileError.writeFailed(path: "notes.json", reason: "not in this test")
/// let deps = Notes.Deps(load: { [] }, save: unimplemented("save", throwing: unused))
/// ```
/// - Parameters:
///   - name: The name to report, such as the field's name.
///   - error: What the closure throws after failing the test.
///   - fileID: The caller's file id, for the failure's location.
///   - filePath: The caller's file path, for the failure's location.
///   - line: The caller's line, for the failure's location.
///   - column: The caller's column, for the failure's location.
/// - Returns: A closure that reports a failure and throws `error` each time it is called.
public func unimplemented<each Argument, Result, Failure: Error>(
  _ name: String,
  throwing error: Failure,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) throws(Failure) -> Result {
  let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
  return { (_: repeat each Argument) throws(Failure) -> Result in
    reportFailure(UnimplementedDependency(name: name).description, at: location)
    throw error
  }
}

/// Returns an async closure with a typed throw that fails the test, naming `name`, and throws
/// `error` when it is called.
///
/// The async form of the synchronous `unimplemented(_:throwing:)`, for a field such as
/// `@Sendable () async throws(JSONFileError) -> [Note]`.
/// - Parameters:
///   - name: The name to report, such as the field's name.
///   - error: What the closure throws after failing the test.
///   - fileID: The caller's file id, for the failure's location.
///   - filePath: The caller's file path, for the failure's location.
///   - line: The caller's line, for the failure's location.
///   - column: The caller's column, for the failure's location.
/// - Returns: A closure that reports a failure and throws `error` each time it is called.
public func unimplemented<each Argument, Result, Failure: Error>(
  _ name: String,
  throwing error: Failure,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) async throws(Failure) -> Result {
  let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
  return { (_: repeat each Argument) async throws(Failure) -> Result in
    reportFailure(UnimplementedDependency(name: name).description, at: location)
    throw error
  }
}
