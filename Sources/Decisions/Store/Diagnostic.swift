extension Store {
  /// One thing a store did, reported to the diagnostics hook passed to
  /// ``Store/init(state:deps:diagnostics:)``: a ``StoreDiagnostic``.
  public typealias Diagnostic = StoreDiagnostic<F>

  /// One thing a store did, with the error of failed work kept as a `Failure`: a ``StoreReport``.
  public typealias Report<Failure: Sendable> = StoreReport<F, Failure>
}

/// One thing a store did, reported to the diagnostics hook passed to
/// ``Store/init(state:deps:diagnostics:)`` or ``MainStore/init(state:deps:diagnostics:)``: a
/// ``StoreReport`` that keeps the error of failed work as thrown.
///
/// For each processed event the hook sees ``StoreReport/received(_:)``, then
/// ``StoreReport/state(_:)``, then one ``StoreReport/decided(_:)`` per decision, in the order
/// performed. Because the core is pure, the sequence of ``StoreReport/received(_:)`` events is a
/// journal that replays to the same states and decisions.
///
/// New cases may be added in a minor release (see "Public API" in Docs/Architecture.md): a
/// `switch` over diagnostics should end with `default:`.
public typealias StoreDiagnostic<F: Feature> = StoreReport<F, any Error>

/// One thing a store did, with the error of failed work kept as a `Failure`.
///
/// The cases are defined once, here: a ``StoreDiagnostic`` is a `StoreReport<F, any Error>`, which
/// the diagnostics hook receives, and a journal's comparable record (`Journal.Record` in
/// `DecisionsTesting`) is a `StoreReport<F, String>`, the same cases with each error as its
/// description. A report is `Equatable` when the feature's event, state and decision are, and
/// `Failure` is. It is a top-level type, not nested in ``Store``, so that ``MainStore`` names it for
/// features that ``Store`` does not take.
///
/// New cases may be added in a minor release (see "Public API" in Docs/Architecture.md): a
/// `switch` over reports should end with `default:`.
public enum StoreReport<F: Feature, Failure: Sendable>: Sendable {
  /// The store started: the next ``state(_:)`` is the state after the core's start (see
  /// ``Core/makeStartDecisions(state:)``), and the ``decided(_:)`` that follow before the first
  /// ``received(_:)`` are its start decisions. Reported once, first.
  case started
  /// The store is about to process this event.
  case received(F.Event)
  /// The state after processing the last received event (reported after every event).
  case state(F.State)
  /// The store is about to perform this decision of the last received event.
  case decided(F.Decision)
  /// The store dropped this event without processing it.
  case ignored(F.Event, reason: IgnoredReason)
  /// A decision started long work keyed `id` (`nil` for unkeyed work); reported right after the
  /// ``decided(_:)`` that started it.
  case workStarted(id: WorkID?)
  /// Long work threw an error and its `run` call had no `catch:` handler to turn it into an event.
  case workFailed(id: WorkID?, error: Failure)
  /// Long work keyed `id` (`nil` for unkeyed work) ended: it returned, threw, or ended after being
  /// cancelled. Reported after its ``workFailed(id:error:)``, if any.
  case workFinished(id: WorkID?)
  /// Long work started in a child's work scope that no declaration in ``Feature/childWork``
  /// covers: nothing will cancel it when the child leaves the state. Reported once per piece of
  /// work, after the event that started it.
  ///
  /// The scope lists the scopes of the embedding features, outermost first.
  case workWithoutLifetime(scope: [WorkID])
  /// Events posted with ``Store/post(_:isolation:)`` reached the store's limit of `limit` waiting events
  /// (see ``Store/init(state:deps:diagnostics:recorder:postLimit:)``), and `refused` posts were
  /// refused: posts from a task off the main actor, which may not block, or that waited longer
  /// than ``Store/postWaitLimit``. Posts from other threads waited for room instead.
  ///
  /// Reported after the events that filled the limit, once each time it is reached.
  case postLimitReached(limit: Int, refused: Int)
}

extension StoreReport {
  /// The same report with the error of failed work transformed, and every other case as it is.
  ///
  /// One of the two switches besides the cases that name each of them, with `StoreTest`'s reading
  /// of a journal in `DecisionsTesting`: a new case is added to both.
  package func mapFailure<NewFailure: Sendable>(
    _ transform: (Failure) -> NewFailure
  ) -> StoreReport<F, NewFailure> {
    switch self {
    case .started: .started
    case .received(let event): .received(event)
    case .state(let state): .state(state)
    case .decided(let decision): .decided(decision)
    case .ignored(let event, let reason): .ignored(event, reason: reason)
    case .workStarted(let id): .workStarted(id: id)
    case .workFailed(let id, let error): .workFailed(id: id, error: transform(error))
    case .workFinished(let id): .workFinished(id: id)
    case .workWithoutLifetime(let scope): .workWithoutLifetime(scope: scope)
    case .postLimitReached(let limit, let refused):
      .postLimitReached(limit: limit, refused: refused)
    }
  }
}

extension StoreReport: Equatable
where F.Event: Equatable, F.State: Equatable, F.Decision: Equatable, Failure: Equatable {}

/// Why a store dropped an event.
///
/// New reasons may be added in a minor release: a `switch` over them should end with `default:`.
public enum IgnoredReason: Sendable, Hashable {
  /// The store was stopped.
  case stopped
  /// The work that sent it had been cancelled or replaced.
  case cancelledWork
  /// The work that sent it had already finished: its ``Send`` was kept and used afterwards.
  case finishedWork
  /// A view's model of a child sent it after the child had left the state: a sheet closed, a row
  /// removed (see ``ChildModel``).
  case goneChild
}
