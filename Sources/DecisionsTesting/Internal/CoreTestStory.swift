import Decisions

// The one printer of stories as code: a list of events from a state, as the Swift code of a
// `CoreTest` that a test can paste and run. `explore` prints its counterexamples with it, and
// `Replay.shrink` its shrunk runs, so the two read the same.

/// The story of `events` sent through `core` from `initialState`, as the Swift code of a
/// ``CoreTest``: one `send` per event, with its decisions and, when it changed, the state it leads
/// to.
///
/// Values are printed with `describe`, the text of the diffs: Swift for enums, structs with
/// memberwise initializers and literals.
func coreTestStory<C: Core>(
  _ core: C.Type, from initialState: C.State, events: some Sequence<C.Event>
) -> String {
  var lines = ["var test = CoreTest<\(typeName(C.self))>(state: \(describe(initialState)))"]
  var state = initialState
  var printed = describe(state, indent: "  ")
  for event in events {
    let decisions = C.makeDecisions(event: event, state: &state)
    let after = describe(state, indent: "  ")
    let list = decisions.isEmpty ? "" : ", decisions: " + describe(decisions)
    let send = "test.send(\(describe(event))\(list))"
    if after == printed {
      lines.append(send)
    } else {
      lines.append(send + " {")
      lines.append("  $0 = " + after)
      lines.append("}")
    }
    printed = after
  }
  return lines.joined(separator: "\n")
}
