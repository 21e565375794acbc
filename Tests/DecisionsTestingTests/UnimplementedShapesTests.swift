import Testing

@testable import DecisionsTesting

/// Every closure shape a `Deps` struct can hold gets an `unimplemented` closure from the same call,
/// and each one fails the test when called, naming the dependency.
@Suite struct UnimplementedShapesTests {
  /// A deps struct with one field per shape: sync or async, throwing or not, `Void` or a value,
  /// with zero, one or two arguments.
  struct Deps: Sendable {
    var syncVoid0: @Sendable () -> Void
    var syncVoid1: @Sendable (Int) -> Void
    var syncVoid2: @Sendable (Int, String) -> Void
    var syncThrowsVoid0: @Sendable () throws -> Void
    var syncThrowsVoid1: @Sendable (Int) throws -> Void
    var syncThrowsValue0: @Sendable () throws -> Int
    var syncThrowsValue2: @Sendable (Int, String) throws -> String
    var asyncVoid0: @Sendable () async -> Void
    var asyncVoid1: @Sendable (Int) async -> Void
    var asyncThrowsVoid0: @Sendable () async throws -> Void
    var asyncThrowsVoid1: @Sendable (Int) async throws -> Void
    var asyncThrowsVoid2: @Sendable (Int, String) async throws -> Void
    var asyncThrowsValue0: @Sendable () async throws -> Int
    var asyncThrowsValue1: @Sendable (Int) async throws -> [String]
    var syncValue: @Sendable (Int) -> Int
    var asyncValue: @Sendable () async -> String

    /// Every field unimplemented, from one spelling each: the factory pattern Deps.md shows.
    static func unused() -> Deps {
      Deps(
        syncVoid0: unimplemented("syncVoid0"),
        syncVoid1: unimplemented("syncVoid1"),
        syncVoid2: unimplemented("syncVoid2"),
        syncThrowsVoid0: unimplemented("syncThrowsVoid0"),
        syncThrowsVoid1: unimplemented("syncThrowsVoid1"),
        syncThrowsValue0: unimplemented("syncThrowsValue0"),
        syncThrowsValue2: unimplemented("syncThrowsValue2"),
        asyncVoid0: unimplemented("asyncVoid0"),
        asyncVoid1: unimplemented("asyncVoid1"),
        asyncThrowsVoid0: unimplemented("asyncThrowsVoid0"),
        asyncThrowsVoid1: unimplemented("asyncThrowsVoid1"),
        asyncThrowsVoid2: unimplemented("asyncThrowsVoid2"),
        asyncThrowsValue0: unimplemented("asyncThrowsValue0"),
        asyncThrowsValue1: unimplemented("asyncThrowsValue1"),
        syncValue: unimplemented("syncValue", placeholder: 0),
        asyncValue: unimplemented("asyncValue", placeholder: "")
      )
    }
  }

  @Test func everyShapeFailsNamingItsDependency() async {
    let deps = Deps.unused()
    let failures = await withCapturedFailures {
      deps.syncVoid0()
      deps.syncVoid1(1)
      deps.syncVoid2(1, "a")
      _ = try? deps.syncThrowsVoid0()
      _ = try? deps.syncThrowsVoid1(1)
      _ = try? deps.syncThrowsValue0()
      _ = try? deps.syncThrowsValue2(1, "a")
      await deps.asyncVoid0()
      await deps.asyncVoid1(1)
      _ = try? await deps.asyncThrowsVoid0()
      _ = try? await deps.asyncThrowsVoid1(1)
      _ = try? await deps.asyncThrowsVoid2(1, "a")
      _ = try? await deps.asyncThrowsValue0()
      _ = try? await deps.asyncThrowsValue1(1)
      _ = deps.syncValue(1)
      _ = await deps.asyncValue()
    }
    #expect(
      failures.map(\.message)
        == [
          "syncVoid0", "syncVoid1", "syncVoid2", "syncThrowsVoid0", "syncThrowsVoid1",
          "syncThrowsValue0", "syncThrowsValue2", "asyncVoid0", "asyncVoid1", "asyncThrowsVoid0",
          "asyncThrowsVoid1", "asyncThrowsVoid2", "asyncThrowsValue0", "asyncThrowsValue1",
          "syncValue", "asyncValue",
        ].map { "Unimplemented dependency called: \($0)" })
  }

  @Test func throwingShapesThrowUnimplementedDependency() async {
    let deps = Deps.unused()
    _ = await withCapturedFailures {
      #expect(throws: UnimplementedDependency(name: "syncThrowsVoid1")) {
        try deps.syncThrowsVoid1(1)
      }
      await #expect(throws: UnimplementedDependency(name: "asyncThrowsVoid0")) {
        try await deps.asyncThrowsVoid0()
      }
      await #expect(throws: UnimplementedDependency(name: "asyncThrowsVoid2")) {
        try await deps.asyncThrowsVoid2(1, "a")
      }
    }
  }
}
