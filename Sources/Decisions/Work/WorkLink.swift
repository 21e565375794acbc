/// How work reports back to whoever runs it: the one link type that a ``WorkRegistry``, its
/// ``WorkActivity`` and work's tasks talk to.
///
/// Abstract: a store's ``LoopLink`` hops to the store's isolation and calls its ``EventLoop``;
/// a ``WorkRecorder`` records what the work of `DecisionsTesting`'s `perform` does. The link holds
/// its owner weakly, so work never keeps its owner alive, and a report that finds the owner gone is
/// dropped.
// NB: a class rather than a protocol: the registry and work's tasks call it without knowing the
// owner's type, and a call costs one dynamic dispatch, no existential. Not generic: the registry,
// which is not either, holds it; the report that carries an event goes through the route, which
// knows the link's concrete type.
@usableFromInline
package class WorkLink: @unchecked Sendable {
  /// Creates a link.
  init() {}

  // MARK: - From work's tasks

  /// Reports on the owner's isolation that the work with `token` ended, on `error` if it threw one
  /// that no handler took.
  func finish(_ token: UInt64, error: (any Error)?) async {}

  /// Work began to wait for the test: the owner may have settled.
  ///
  /// Called on the waiting task, when the registry listens (see
  /// ``WorkRegistry/setListening(_:)``).
  func waitBegan() {}

  /// Returns once the owner has settled: for a test clock that woke the owner's work.
  func settle() async {}

  /// Whether the owner still exists.
  var isAlive: Bool { false }

  /// Resumes the owner's settle waiter with `id`, whose task was cancelled.
  func resumeSettleWaiter(_ id: UInt64) async {}

  /// Resumes the owner's settle waiters if it has settled.
  func resumeSettleWaitersIfSettled() async {}

  // MARK: - On the owner's isolation, inside the executor's call

  /// Work started, keyed `id` (`nil` for unkeyed work), when the registry reports requests.
  func started(_ id: WorkID?) {}

  /// An executor asked for a cancellation, when the registry reports requests.
  func cancelRequested(_ request: CancelRequest) {}

  /// Which child, in the owner's state now, the work in child scope `scope` belongs to; called as
  /// the work starts.
  func lifetime(ofWorkIn scope: ArraySlice<WorkID>) -> WorkLifetime { .alive(identity: 0) }
}
