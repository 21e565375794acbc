/// A core together with the way its decisions are performed: the feature's *imperative shell*.
///
/// The executor, ``execute(_:deps:effects:)``, maps one decision to work done through the feature's
/// ``Deps``: a plain struct of closures, one per capability. It should have few branches — one `case`
/// per decision, with no `default:` — and no logic of its own: every choice belongs in
/// ``Core/makeDecisions(event:state:)``.
///
/// Work comes in two kinds:
/// - **Quick work** (logging, tracking, showing a snackbar) is done in place, synchronously, in the
///   order the decisions were returned.
/// - **Long work** (anything that awaits) is started with ``Effects/run(id:priority:operation:catch:)``.
///   It runs as tracked child work of the ``Store``, never blocks event processing, and sends its
///   results back as events. It can be keyed, cancelled and replaced.
///
/// ```swift
/// extension FactFeature: Feature {
///   struct Deps: Sendable {
///     var loadFact: @Sendable () async throws -> Fact
///     var log: @Sendable (String) -> Void
///   }
///
///   static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
///     switch decision {
///     case .load:
///       effects.run(id: "load") { send in
///         await send(.finishLoading(try await deps.loadFact()))
///       } catch: { error in
///         .failedLoading(String(describing: error))
///       }
///     case .log(let text):
///       deps.log(text)
///     }
///   }
/// }
/// ```
public protocol Feature: Core
where State: Sendable, Event: Sendable, Decision: Sendable {
  /// The capabilities the executor performs decisions with: a struct of `@Sendable` closures.
  ///
  /// Build live values with a static factory (`.live(...)`); tests replace any closure with a literal.
  /// A feature with no work (its `Decision` is `Never`) needs none: `Void` unless it says.
  associatedtype Deps: Sendable = Void

  /// Performs one decision through `deps`, using `effects` for long work and for sending events back.
  ///
  /// The store calls this on its own executor, once per decision, in the order the core returned them,
  /// right after the new state has been stored and published. It must not block: anything that awaits
  /// belongs in ``Effects/run(id:priority:operation:catch:)``.
  /// - Parameters:
  ///   - decision: The decision to perform.
  ///   - deps: The feature's dependencies.
  ///   - effects: The handle for starting and cancelling long work and sending events. It is only valid
  ///     during this call; do not store it.
  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>)

  /// How long the work of the children this feature runs in scopes of their own lives: the `work`
  /// of each embedding the feature declares, such as `[downloads.work, sheet.work]` for
  /// `static let downloads = embed(…)` (see ``Feature/embed(_:list:event:decision:request:)``).
  ///
  /// After each event, the store cancels the work of every child the event removed from the state,
  /// so a feature cannot forget to: a sheet closed, a row removed, a screen popped. The default
  /// declares none, which suits a feature that embeds no child with work.
  ///
  /// Work in a child scope that no declaration covers is a mistake, reported when the event that
  /// started it has been processed: as ``StoreReport/workWithoutLifetime(scope:)`` to a
  /// diagnostics hook (a `StoreTest` fails the test on it when the test ends, at `finish()`), or,
  /// without a hook, by stopping a debug build with a message that names the scope. A release build
  /// without a hook lets the work run.
  static var childWork: [ChildWork<State>] { get }
}

extension Feature {
  /// No child runs in a scope of its own.
  public static var childWork: [ChildWork<State>] { [] }
}

extension Feature where Decision == Never {
  /// Performs nothing: a feature whose `Decision` is `Never` makes no decisions, so a core with no
  /// work, such as a form, writes no executor.
  public static func execute(_ decision: Never, deps: Deps, effects: Effects<Event>) {}
}
