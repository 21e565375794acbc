/// Whether the work in a scope may go on, for a store's check after each event.
@usableFromInline
package enum WorkLifetime: Equatable, Sendable {
  /// A child is in the state where the work belongs; `identity` tells that child from another
  /// that took its place (0 where the state cannot tell them apart, as in a plain array).
  case alive(identity: UInt64)
  /// The child it belongs to left the state: the work must be cancelled.
  case gone
  /// No declaration in ``Feature/childWork`` covers the scope.
  case undeclared

  /// Whether a child is in the state where the work belongs.
  package var isAlive: Bool {
    if case .alive = self { true } else { false }
  }

  /// The same lifetime, for a child whose own identity in its parent is `identity`.
  @inlinable
  func identified(by identity: UInt64) -> WorkLifetime {
    guard case .alive(let inner) = self else { return self }
    return .alive(identity: combine(identity, inner))
  }
}

/// Combines two identities, or fingerprints, into one that differs when either does (but for a
/// chance of 2⁻⁶⁴).
// NB: not boost's hash_combine, which is nearly linear: a test found two states of two lists
// whose versions, drawn from the counter, combined to the fingerprint of an earlier pair, and the
// check was skipped. Each input goes through SplitMix64's finalizer, so an equal result needs
// versions that no counter reaches on purpose.
@inlinable
func combine(_ outer: UInt64, _ inner: UInt64) -> UInt64 {
  mixed(mixed(outer) &+ inner)
}

/// SplitMix64's finalizer: every bit of the result depends on every bit of `value`.
@inlinable
func mixed(_ value: UInt64) -> UInt64 {
  var value = value &+ 0x9E37_79B9_7F4A_7C15
  value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
  value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
  return value ^ (value >> 31)
}

extension Feature {
  /// Whether the work in `scope` (the scopes below this feature, outermost first) may go on in
  /// `state`, by this feature's ``childWork``.
  ///
  /// - Parameters:
  ///   - scope: The work's scope below this feature.
  ///   - state: This feature's state.
  ///   - identity: The identity the work recorded when it started, for a check; `nil` when it
  ///     starts.
  /// - Returns: `.alive` with `identity` when a child with that identity holds the scope (any
  ///   child, for the identity 0 of a scope that cannot tell its children apart); `.alive` with
  ///   another identity when only other children hold it; at start, the identity of the one child
  ///   that holds it, or 0 when several do.
  @usableFromInline
  package static func lifetime(
    ofWorkIn scope: ArraySlice<WorkID>, state: State, matching identity: UInt64? = nil
  ) -> WorkLifetime {
    guard !scope.isEmpty else { return .alive(identity: 0) }
    // NB: every declaration is asked: two collections whose ids have the same type both claim a
    // bare id, and the work must live while either holds it. Cancelling live work would be worse
    // than keeping gone work. So work that starts where several children hold its scope cannot
    // tell which is its own, and records the identity 0: it lives while any of them is there.
    // Work that started where one child held its scope lives while that child holds it, whoever
    // else comes to hold it too.
    var result = WorkLifetime.undeclared
    var alive: UInt64?
    var holders = 0
    let declarations = childWork
    var index = 0  // EventLoop's rule 3: no iterator
    while index < declarations.count {
      let declaration = declarations[index]
      index += 1
      switch declaration.lifetime(scope, state) {
      case .alive(let held)?:
        if let identity, identity == 0 || identity == held { return .alive(identity: identity) }
        if alive == nil { alive = held }
        holders += 1
      case .gone?: result = .gone
      case .undeclared?, nil: break
      }
    }
    guard let alive else { return result }
    return .alive(identity: identity == nil && holders > 1 ? 0 : alive)
  }

  /// A value that changes whenever a child that ``childWork`` covers may have come or gone.
  ///
  /// `nil` when that cannot be told in O(1). The same value means every child with work is still
  /// the same child.
  @usableFromInline
  package static func childrenFingerprint(of state: State) -> UInt64? {
    var fingerprint: UInt64 = 0
    let declarations = childWork
    var index = 0  // EventLoop's rule 3: no iterator
    while index < declarations.count {
      guard let part = declarations[index].fingerprint(state) else { return nil }
      fingerprint = combine(fingerprint, part)
      index += 1
    }
    return fingerprint
  }
}

/// Which children's work a store must look at after an event: see
/// ``Feature/changedChildren(in:marks:)``.
package enum ChildrenChange: Equatable {
  /// No child came or went.
  case none
  /// Only children whose work is in these scopes may have come or gone.
  case scopes([[WorkID]])
  /// Children may have come or gone anywhere: every piece of child work must be looked at.
  case unknown
}

extension Feature {
  /// Which children may have come or gone since the last check, whose fingerprints, one per
  /// declaration in ``childWork``, are `marks`; updates `marks` to the fingerprints of `state`.
  ///
  /// Empty or outdated `marks` (a first check) give ``ChildrenChange/unknown``.
  /// - Complexity: O(*d*) for *d* declarations, plus the scopes of the children added or removed.
  package static func changedChildren(in state: State, marks: inout [UInt64?]) -> ChildrenChange {
    let declarations = childWork
    if marks.count != declarations.count {
      marks = Array(repeating: nil, count: declarations.count)
    }
    var scopes: [[WorkID]] = []
    var isUnknown = false
    var index = 0  // EventLoop's rule 3: no iterator
    while index < declarations.count {
      let declaration = declarations[index]
      let fingerprint = declaration.fingerprint(state)
      if fingerprint == nil || fingerprint != marks[index] {
        if !isUnknown, fingerprint != nil, let mark = marks[index],
          let changed = declaration.changedScopes(state, mark)
        {
          scopes.append(contentsOf: changed)
        } else {
          isUnknown = true
        }
        marks[index] = fingerprint
      }
      index += 1
    }
    if isUnknown { return .unknown }
    return scopes.isEmpty ? .none : .scopes(scopes)
  }
}

/// What a store says when work runs in a child scope that no declaration covers, and no
/// diagnostics hook hears it.
package func workWithoutLifetimeMessage(feature: Any.Type, scope: [WorkID]) -> String {
  "Decisions: \(feature) runs work in the child scope \(scope), which no declaration in "
    + "\(feature).childWork covers, so nothing cancels it when the child leaves the state. Embed "
    + "the child with embed(...) and list its work in childWork; work that must outlive the child "
    + "is the parent's own."
}

extension WorkRegistry {
  /// Cancels the work of the children of `feature` that left `state`, and reports work that no
  /// child lifetime covers (see ``Feature/childWork``): to `diagnostics`, or, without it, by
  /// stopping a debug build.
  /// - Parameters:
  ///   - feature: The feature whose children's work it is.
  ///   - state: The feature's state now.
  ///   - scopes: The scopes of the only children that may have left, or `nil` to look at all work.
  ///   - diagnostics: Where work without a lifetime is reported.
  package func endWorkOfGoneChildren<F: Feature>(
    of feature: F.Type, in state: F.State, scopes: [[WorkID]]?,
    diagnostics: (@Sendable (StoreDiagnostic<F>) -> Void)?
  ) {
    let scopes = endWorkOfGoneChildren(in: scopes) {
      F.lifetime(ofWorkIn: $0, state: state, matching: $1)
    }
    for scope in scopes {
      if let diagnostics {
        diagnostics(.workWithoutLifetime(scope: scope))
      } else {
        assertionFailure(workWithoutLifetimeMessage(feature: F.self, scope: scope))
      }
    }
  }
}
