/// A model type of the app, declared at the top level, where the module's default isolation would
/// make it main-actor isolated, and its conformances with it.
///
/// THE ANNOTATION: `nonisolated`. The features below hold `Item`s in their state, events and
/// decisions. A feature's types are nonisolated, and so is the `==` synthesized for them, which
/// can only compare `Item`s through a nonisolated `Equatable` conformance; `IdentifiedArray` and the
/// cores need the same of `Identifiable` and of the initializer. Without it the build fails with
/// errors at the lines that use them, and, for the synthesized `==`, with one that has no location:
///
///     <unknown>:0: error: main actor-isolated conformance of 'Item' to 'Equatable' cannot be used
///     in nonisolated context [#IsolatedConformances]
///
/// .ci/default-isolation.sh builds copies without it and checks that they fail.
public nonisolated struct Item: Equatable, Sendable, Identifiable {
  /// The item's identity.
  public let id: Int
  /// What is to be done.
  public var title: String
  /// Whether it is done.
  public var isDone = false

  /// An item.
  public init(id: Int, title: String, isDone: Bool = false) {
    self.id = id
    self.title = title
    self.isDone = isDone
  }
}
