extension Store {
  /// One thing a store did, reported to the diagnostics hook passed to
  /// ``Store/init(state:deps:diagnostics:)``.
  ///
  /// For each processed event the hook sees ``received(_:)``, then ``state(_:)``, then one
  /// ``decided(_:)`` per decision, in the order performed. Because the core is pure, the sequence of
  /// ``received(_:)`` events is a journal that replays to the same states and decisions.
  ///
  /// New cases may be added in a minor release (see "Public API" in Docs/Architecture.md): a
  /// `switch` over diagnostics should end with `default:`.
  public enum Diagnostic: Sendable {
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
    case workFailed(id: WorkID?, error: any Error)
    /// Long work keyed `id` (`nil` for unkeyed work) ended: it returned, threw, or ended after being
    /// cancelled. Reported after its ``workFailed(id:error:)``, if any.
    case workFinished(id: WorkID?)
    /// Long work started in a child's work scope that no declaration in ``Feature/childWork``
    /// covers: nothing will cancel it when the child leaves the state. Reported once per piece of
    /// work, after the event that started it.
    ///
    /// The scope lists the scopes of the embedding features, outermost first.
    case workWithoutLifetime(scope: [WorkID])
  }
}

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
}
