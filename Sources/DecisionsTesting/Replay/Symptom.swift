import Decisions

/// What counts as the failure when a run is shrunk: the symptom that the shorter run must still
/// show (see ``Replay/shrink(keeping:simplify:replayLimit:timeLimit:)``).
///
/// ```swift
/// let symptom = Symptom<FactLoader>.invariantBroken("never more failures than taps") {
///   $0.failures <= 3
/// }
/// ```
///
/// Invariants say what must hold, as in ``Exploration``: the symptom is that one does not. A
/// symptom's closures must be pure, like the core: the shrinker replays many runs and trusts each
/// answer.
///
/// A symptom of a feature whose conformances are not isolated is `Sendable`, and its closures are
/// `@Sendable`. A main-actor feature's (in a module with default main-actor isolation) takes
/// closures that run on the main actor, where the shrinker runs them: it reads the state's
/// properties as any main-actor code does.
public struct Symptom<C: Core> {
  /// What the symptom is, for messages: the invariant's name, or the predicate's.
  public let name: String
  /// Whether a run that shows the symptom at one step still shows it when cut after that step.
  let showsInPrefix: Bool
  /// Makes the check for runs of a replay: nil when the replay cannot show the symptom at all.
  ///
  /// NB: not `@Sendable`, so that a main-actor feature's closures fit; see the `Sendable`
  /// conformance below.
  let prepare: (Replay<C>) -> Check?

  /// Where in a run the symptom shows, or nil when it does not.
  typealias Check = (_ initialState: C.State, _ steps: [TraceStep<C>]) -> Showing?

  /// Where a run shows a symptom, and what to say about it.
  struct Showing {
    /// How many steps the run needs to show it: 0 when the initial state does.
    var steps: Int
    /// What the run shows there, for the report.
    var detail: String
  }

  /// A state breaks an invariant: at some point of the run, `holds` is false.
  ///
  /// The initial state is checked too. A run that breaks the invariant after *n* events breaks it
  /// whatever follows, so the shrinker cuts each failing run there. `holds` runs where the run is
  /// shrunk, on the caller's isolation: a main-actor feature's reads its state on the main actor.
  /// (For a feature whose conformances are not isolated, Swift picks the overload that takes a
  /// `@Sendable` closure, and the symptom is `Sendable`.)
  /// - Parameters:
  ///   - name: What the invariant says, for messages.
  ///   - holds: Whether a state satisfies the invariant.
  /// - Returns: The symptom.
  public static func invariantBroken(
    _ name: String, _ holds: @escaping (C.State) -> Bool
  ) -> Symptom {
    invariant(name, holds)
  }

  /// The one implementation of ``invariantBroken(_:_:)``, for both kinds of closures.
  static func invariant(_ name: String, _ holds: @escaping (C.State) -> Bool) -> Symptom {
    checking("the invariant \"\(name)\" is broken", showsInPrefix: true) { initial, steps in
      if !holds(initial) {
        return Showing(
          steps: 0, detail: "The initial state breaks it:\n  " + describe(initial, indent: "  "))
      }
      guard let index = steps.firstIndex(where: { !holds($0.state) }) else { return nil }
      return Showing(
        steps: index + 1,
        detail: "The last step leads to a state that breaks it:\n  "
          + describe(steps[index].state, indent: "  "))
    }
  }

  /// A step breaks a transition invariant, a rule about what an event may do: for some step of
  /// the run, `holds` is false.
  ///
  /// The shrinker cuts each failing run after the first step that breaks it. `holds` runs on the
  /// caller's isolation, as for ``invariantBroken(_:_:)``.
  /// - Parameters:
  ///   - name: What the invariant says, for messages.
  ///   - holds: Whether a step satisfies the invariant.
  /// - Returns: The symptom.
  public static func transitionInvariantBroken(
    _ name: String, _ holds: @escaping (CoreStep<C>) -> Bool
  ) -> Symptom {
    transitionInvariant(name, holds)
  }

  /// The one implementation of ``transitionInvariantBroken(_:_:)``, for both kinds of closures.
  static func transitionInvariant(_ name: String, _ holds: @escaping (CoreStep<C>) -> Bool)
    -> Symptom
  {
    checking("the transition invariant \"\(name)\" is broken", showsInPrefix: true) {
      initial, steps in
      var before = initial
      for (index, step) in steps.enumerated() {
        let transition = CoreStep<C>(
          before: before, event: step.event, after: step.state, decisions: step.decisions)
        if !holds(transition) {
          return Showing(
            steps: index + 1, detail: "The last step breaks it:\n" + stepLines(transition))
        }
        before = step.state
      }
      return nil
    }
  }

  /// A predicate of your own over the whole run shows the symptom: `shows` returns true.
  ///
  /// The predicate sees every step of a run (each event, the state after it and its decisions),
  /// so it can say things no single step can, such as "two snackbars in a row". The shrinker
  /// cannot cut a failing run short for it, so it replays more than for an invariant. `shows` runs
  /// on the caller's isolation, as for ``invariantBroken(_:_:)``.
  /// - Parameters:
  ///   - name: What the predicate finds, for messages: "two snackbars in a row".
  ///   - shows: Whether a run, as its steps, shows the symptom.
  /// - Returns: The symptom.
  public static func run(
    _ name: String, _ shows: @escaping (_ steps: [TraceStep<C>]) -> Bool
  ) -> Symptom {
    predicate(name, shows)
  }

  /// The one implementation of ``run(_:_:)``, for both kinds of closures.
  static func predicate(_ name: String, _ shows: @escaping ([TraceStep<C>]) -> Bool) -> Symptom {
    checking("the run shows \"\(name)\"", showsInPrefix: false) { _, steps in
      shows(steps) ? Showing(steps: steps.count, detail: "") : nil
    }
  }

  /// A symptom whose check is the same for every replay.
  private static func checking(
    _ name: String, showsInPrefix: Bool, _ check: @escaping Check
  ) -> Symptom {
    Symptom(name: name, showsInPrefix: showsInPrefix) { _ in check }
  }

  fileprivate init(
    name: String, showsInPrefix: Bool, prepare: @escaping (Replay<C>) -> Check?
  ) {
    self.name = name
    self.showsInPrefix = showsInPrefix
    self.prepare = prepare
  }
}

extension Symptom where C.State: Equatable, C.Event: Equatable, C.Decision: Equatable {
  /// Today's core disagrees with the recording: some step is sent in a state, with an event, that
  /// the recording also has, and gives another state or other decisions than the recording shows.
  ///
  /// Only a replay with recorded steps can show it (one made from a ``Journal``). The recorded
  /// steps where today's core decides otherwise are found once, by sending each recorded event in
  /// its recorded state; a shorter run shows the symptom when it reaches one of them. So the shrunk
  /// run is a shortest way from the initial state to a step where the feature has changed since the
  /// recording (or where the core is not pure).
  public static var disagreementWithRecording: Symptom {
    Symptom(
      name: "today's \(typeName(C.self)) disagrees with the recording", showsInPrefix: true
    ) { replay in
      guard let recorded = replay.recordedSteps else { return nil }
      // The recorded steps today's core does not repeat, with their recorded states before.
      var changed: [(before: C.State, recorded: TraceStep<C>)] = []
      var before = replay.initialState
      for step in recorded {
        var after = before
        let decisions = C.makeDecisions(event: step.event, state: &after)
        if after != step.state || decisions != step.decisions {
          changed.append((before, step))
        }
        before = step.state
      }
      return { [changed] initial, steps in
        guard !changed.isEmpty else { return nil }
        var before = initial
        for (index, step) in steps.enumerated() {
          let match = changed.first { $0.before == before && $0.recorded.event == step.event }
          if let match {
            let indent = "             "
            let lines = [
              "The last step is sent in a recorded state, where the recording shows:",
              "  state:     " + describe(match.recorded.state, indent: indent),
              "  decisions: " + describe(match.recorded.decisions, indent: indent),
              "but today's core gives:",
              "  state:     " + describe(step.state, indent: indent),
              "  decisions: " + describe(step.decisions, indent: indent),
            ]
            return Showing(steps: index + 1, detail: lines.joined(separator: "\n"))
          }
          before = step.state
        }
        return nil
      }
    }
  }
}

/// The lines that show a step: the state before, the state after and the decisions.
func stepLines<C: Core>(_ step: CoreStep<C>) -> String {
  """
    before:    \(describe(step.before, indent: "             "))
    event:     \(describe(step.event, indent: "             "))
    after:     \(describe(step.after, indent: "             "))
    decisions: \(describe(step.decisions, indent: "             "))
  """
}

extension Symptom where C: Feature {
  /// A state breaks the rule a flight recorder checks: the same rule, written once, for the
  /// recorder that saved a recording and for the shrinker that shrinks it.
  ///
  /// ```swift
  /// static let speakerIsAnAttendee = FlightRecorder<MeetingClock>.Invariant(
  ///   "the speaker is an attendee") { $0.speaker < $0.attendees }
  /// // in the app: FlightRecorder(capacity: 1_000, invariant: speakerIsAnAttendee, ...)
  /// // in the test: try replay.shrink(keeping: .invariantBroken(speakerIsAnAttendee))
  /// ```
  /// - Parameter invariant: The recorder's rule.
  /// - Returns: The symptom, named as the rule is.
  public static func invariantBroken(_ invariant: FlightRecorder<C>.Invariant) -> Symptom {
    Symptom.invariant(invariant.name, invariant.holds)
  }
}

// NB: `@unchecked` for the closures, which are the `@Sendable` ones the overloads below take (the
// ones Swift picks for such a feature), or the library's own, which capture only those and
// values. A main-actor feature's symptom may cross to another isolation, but nothing can be done
// with it there: replaying needs the feature's conformance to `Core`, isolated to the main actor
// (SE-0470).
extension Symptom: @unchecked Sendable
where C: SendableMetatype, C.State: Sendable, C.Event: Sendable, C.Decision: Sendable {}

extension Symptom
where C: SendableMetatype, C.State: Sendable, C.Event: Sendable, C.Decision: Sendable {
  /// A state breaks an invariant: at some point of the run, `holds` is false.
  ///
  /// The overload of ``invariantBroken(_:_:)`` for a feature whose conformances are not isolated,
  /// whose symptom is `Sendable`.
  /// - Parameters:
  ///   - name: What the invariant says, for messages.
  ///   - holds: Whether a state satisfies the invariant.
  /// - Returns: The symptom.
  public static func invariantBroken(
    _ name: String, _ holds: @escaping @Sendable (C.State) -> Bool
  ) -> Symptom {
    invariant(name, holds)
  }

  /// A step breaks a transition invariant: for some step of the run, `holds` is false.
  ///
  /// The overload of ``transitionInvariantBroken(_:_:)`` for a feature whose conformances are not
  /// isolated, whose symptom is `Sendable`.
  /// - Parameters:
  ///   - name: What the invariant says, for messages.
  ///   - holds: Whether a step satisfies the invariant.
  /// - Returns: The symptom.
  public static func transitionInvariantBroken(
    _ name: String, _ holds: @escaping @Sendable (CoreStep<C>) -> Bool
  ) -> Symptom {
    transitionInvariant(name, holds)
  }

  /// A predicate of your own over the whole run shows the symptom: `shows` returns true.
  ///
  /// The overload of ``run(_:_:)`` for a feature whose conformances are not isolated, whose
  /// symptom is `Sendable`.
  /// - Parameters:
  ///   - name: What the predicate finds, for messages: "two snackbars in a row".
  ///   - shows: Whether a run, as its steps, shows the symptom.
  /// - Returns: The symptom.
  public static func run(
    _ name: String, _ shows: @escaping @Sendable (_ steps: [TraceStep<C>]) -> Bool
  ) -> Symptom {
    predicate(name, shows)
  }
}
