// Counterexamples as stories: the shortest path to a state, printed as Swift code that a test can
// paste and run as a `CoreTest`. Values are printed with `describe`, the same text as the diffs,
// which is Swift for enums, structs and literals that have memberwise initializers.

extension Exploration {
  /// The shortest story from the initial state to state `number`, as the Swift code of a
  /// ``CoreTest``: one `send` per event, with its decisions and the state it leads to.
  ///
  /// ```swift
  /// var test = CoreTest<FactFeature>(state: .idle)
  /// test.send(.view(.didTapButton), decisions: [.track(.view(.didTapButton)), .load]) {
  ///   $0 = .loading(previous: nil)
  /// }
  /// ```
  ///
  /// Values print as the failure messages print them: Swift for enums, structs with memberwise
  /// initializers and literals, without module names. A value that prints otherwise (a type with a
  /// custom description) must be edited by hand.
  /// - Parameter number: The number of a state of ``states``.
  /// - Returns: The story's code, one line per `send` and per state.
  public func story(to number: Int) -> String {
    story(of: shortestPath(to: number))
  }

  /// The story of a path of transitions from the initial state, as the Swift code of a
  /// ``CoreTest``.
  func story(of path: [Transition]) -> String {
    coreTestStory(C.self, from: initialState, events: path.lazy.map(\.event))
  }

  /// "the initial state", or "a state reached in 3 steps".
  func whereabouts(_ number: Int) -> String {
    switch depths[number] {
    case 0: "the initial state"
    case 1: "a state reached in 1 step"
    case let steps: "a state reached in \(steps) steps"
    }
  }

  /// The part of a message that tells how to read the story, and the story.
  func storyParagraph(_ path: [Transition], lastStep: String? = nil) -> String {
    let note = lastStep.map { " (\($0))" } ?? ""
    return "The shortest story to it, as a CoreTest\(note):\n\n" + story(of: path)
  }
}
