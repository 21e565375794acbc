// What the attack tests of steps taken back compare: the exploration of a feature with steps taken
// back (`StepsTakenBack.$areTaken`) and without, by its graph, its shape, its printed paths and
// what it reports.

import Decisions
import Testing

@testable import DecisionsTesting

/// The exploration of `explored`, with steps taken back and without.
func both<F: Feature>(
  _ explored: () -> FeatureExploration<F>
) -> (takenBack: FeatureExploration<F>, returned: FeatureExploration<F>) {
  let takenBack = StepsTakenBack.$areTaken.withValue(true) { explored() }
  let returned = StepsTakenBack.$areTaken.withValue(false) { explored() }
  return (takenBack, returned)
}

/// An exploration's states, each with its transitions, in order, as text.
func graph<F: Feature>(of exploration: FeatureExploration<F>) -> [String] {
  exploration.snapshots.indices.map { number in
    "\(number) t=\(exploration.time(of: number)) \(exploration.snapshots[number]): "
      + exploration.transitions(from: number).map { "\($0.choice) → \($0.to)" }.joined(
        separator: ", ")
  }
}

/// An exploration's states as a set, each with the set of its transitions, named by the state
/// they reach: what stays when only the order in which states were found differs.
func shape<F: Feature>(of exploration: FeatureExploration<F>) -> Set<String> {
  Set(
    exploration.snapshots.indices.map { number in
      let steps = exploration.transitions(from: number).map {
        "\($0.choice) → \(exploration.snapshots[$0.to])"
      }
      return "\(exploration.snapshots[number]) @\(exploration.time(of: number)): "
        + steps.sorted().joined(separator: " | ")
    })
}

/// The comment a printed path gets when, taken again, it ends in another state.
let endsElsewhere = "// Taken again, this path does not end in the state"

/// The states whose printed path, taken again, ends elsewhere.
func statesEndingElsewhere<F: Feature>(_ exploration: FeatureExploration<F>) -> [Int] {
  exploration.snapshots.indices.filter {
    exploration.storeTest(to: $0).contains(endsElsewhere)
  }
}

/// What differs between the exploration of `explored` with steps taken back and without: the
/// graph, whether it is complete, the states not returned to, the problems, the stop, the
/// printed paths that end elsewhere; empty if nothing does.
struct Sweep {
  /// What differed, by feature.
  var found: [String] = []
  /// How many steps the explorations took back, and how many pieces of work they started again.
  var stepsTakenBack = 0
  var workStartedAgain = 0

  mutating func check<F: Feature>(_ name: String, _ explored: () -> FeatureExploration<F>) {
    let (takenBack, returned) = both(explored)
    found += differences(name, takenBack, returned)
    stepsTakenBack += takenBack.stepsTakenBack.steps
    workStartedAgain += takenBack.stepsTakenBack.workStartedAgain
  }
}

func differences<F: Feature>(
  _ name: String, _ takenBack: FeatureExploration<F>, _ returned: FeatureExploration<F>
) -> [String] {
  var found: [String] = []
  func compare<T: Equatable>(_ what: String, _ value: (FeatureExploration<F>) -> T) {
    let (one, other) = (value(takenBack), value(returned))
    if one != other { found.append("\(name): \(what): \(one) taken back, \(other) returned") }
  }
  compare("states") { $0.snapshots.count }
  compare("transitions") { $0.transitions.count }
  compare("graph") { graph(of: $0) == graph(of: returned) }
  compare("shape") { shape(of: $0) == shape(of: returned) }
  compare("complete") { $0.isComplete }
  compare("not returned to") { $0.statesNotReturnedTo }
  compare("uncontrolled") { $0.statesWithUncontrolledWork }
  compare("limit") { "\(String(describing: $0.limitReached))" }
  compare("stopped") { $0.stopped ?? "" }
  compare("problems") { "\($0.problems.map { "\($0.transition): \($0.reports)" })" }
  compare("ending elsewhere") { statesEndingElsewhere($0) }
  compare("printed paths") { exploration in
    exploration.snapshots.indices.map { exploration.storeTest(to: $0) }
  }
  return found
}
