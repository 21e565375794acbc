/// A model type of the app, declared at the top level with no annotation: the module's default
/// isolation makes it main-actor isolated, and its conformances with it.
///
/// The features below hold `Item`s in their state, events and decisions, and are main-actor
/// isolated too, so the `==` synthesized for their types compares `Item`s on the main actor. While
/// `Feature` refined `SendableMetatype`, a feature's types were nonisolated and this failed with an
/// error that has no location ("<unknown>:0: error: main actor-isolated conformance of 'Item' to
/// 'Equatable' cannot be used in nonisolated context"); .ci/default-isolation.sh builds that case.
public struct Item: Hashable, Codable, Sendable, Identifiable {
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
