extension Exploration {
  /// The shortest paths from the initial state that together send every explored transition: for
  /// each transition, the shortest path that ends with it, leaving out those that are the start of
  /// a longer one.
  ///
  /// Use them as the arguments of a parameterized test that drives a real ``Store`` along each
  /// path (see ``EventPath``), so that every transition of the core is also checked in the shell.
  ///
  /// - Complexity: O(*t* × *d*) for *t* transitions and paths of at most *d* events.
  /// - Returns: The paths, in the order of the transitions they end with.
  public func transitionCoveringPaths() -> [EventPath<C>] {
    // A path to a transition is the start of another path exactly when the transition is the one
    // that first reached its target state and that state has transitions of its own.
    let kept = transitions.indices.filter { index in
      let target = transitions[index].to
      return !(parents[target] == index && !outgoing[target].isEmpty)
    }
    return kept.map { index in
      let transition = transitions[index]
      return EventPath(
        from: initialState,
        events: (shortestPath(to: transition.from) + [transition]).map(\.event))
    }
  }
}
