import Decisions
import Foundation

extension Persisted.Deps {
  /// Deps of a persisted value for an exploration with effects, and for the store tests its
  /// checks print: the file's closures are dependencies of `effects` whose answers the explorer
  /// chooses among those given, and the quiet period waits on the explored clock.
  ///
  /// ```swift
  /// static func deps(_ effects: ExploredEffects) -> Notes.Deps {
  ///   Notes.Deps(file: .explored(effects, loads: [.value(nil), .value(["milk"])]))
  /// }
  /// ```
  /// The dependencies are named after `name`: `file.load`, `file.save` and `file.moveAside`, as
  /// the printed paths show them. A save is one call whatever the value (the value is in the
  /// state the search tells apart). An error answer that is a `JSONFileError` is thrown as it is;
  /// any other error thrown by a call (a cancelled `never`, an ``ExploredEffectsError``) is
  /// thrown as the file's error of that closure, with the error's text as its reason:
  /// ``Decisions/JSONFileError/unreadable(path:reason:)``,
  /// ``Decisions/JSONFileError/writeFailed(path:reason:)`` or
  /// ``Decisions/JSONFileError/moveAsideFailed(path:reason:)``, whose path is the dependency's
  /// name.
  /// - Parameters:
  ///   - effects: The exploration's doubles, as `explore` gives them to the deps.
  ///   - name: The value's name in the printed paths: `"file"` unless given.
  ///   - loads: The answers to try for a load: no file (`nil`) unless given.
  ///   - saves: The answers to try for a save: a write that succeeds unless given.
  ///   - movesAside: The answers to try for moving a file that did not load aside: no file to
  ///     move (`nil`) unless given.
  /// - Returns: The deps.
  public static func explored(
    _ effects: ExploredEffects, name: String = "file",
    loads: [ExploredAnswer<Value?>] = [.value(nil)],
    saves: [ExploredAnswer<Void>] = [.value(())],
    movesAside: [ExploredAnswer<URL?>] = [.value(nil)]
  ) -> Self {
    let load: @Sendable () async throws -> Value? = effects.dependency(
      "\(name).load", answers: loads)
    let save: @Sendable () async throws -> Void = effects.dependency(
      "\(name).save", answers: saves)
    let moveAside: @Sendable () async throws -> URL? = effects.dependency(
      "\(name).moveAside", answers: movesAside)
    return Self(
      clock: effects.clock,
      load: { () async throws(JSONFileError) -> Value? in
        do {
          return try await load()
        } catch {
          throw fileError(error) { .unreadable(path: "\(name).load", reason: $0) }
        }
      },
      save: { (_: Value) async throws(JSONFileError) in
        do {
          try await save()
        } catch {
          throw fileError(error) { .writeFailed(path: "\(name).save", reason: $0) }
        }
      },
      moveAside: { () async throws(JSONFileError) -> URL? in
        do {
          return try await moveAside()
        } catch {
          throw fileError(error) { .moveAsideFailed(path: "\(name).moveAside", reason: $0) }
        }
      })
  }
}

/// `error` as a file's error: itself when it is one, otherwise `wrap` of its text.
private func fileError(_ error: any Error, _ wrap: (String) -> JSONFileError) -> JSONFileError {
  (error as? JSONFileError) ?? wrap(String(describing: error))
}
