import Decisions

/// Why an inspector page could not be made.
public enum InspectorPageError: Error, Equatable, Sendable {
  /// The run has more steps than the page's limit.
  case tooManySteps(count: Int, limit: Int)
  /// The page would take more bytes than its limit because of its states: they and their diffs
  /// take more than half a KiB a step (each distinct one counted once), or the page's header or
  /// list of explored states is too large. The states are too large to show whole.
  case tooLarge(limit: Int)
  /// The page would take more bytes than its limit although its states are small: the run has
  /// too many steps for the limit, at about `bytesPerStep` bytes each (event, decisions, states and
  /// diffs, each distinct text counted once).
  case tooManyStepsForSize(count: Int, bytesPerStep: Int, limit: Int)
}

extension InspectorPageError: CustomStringConvertible {
  /// What went wrong, in a sentence.
  public var description: String {
    switch self {
    case .tooManySteps(let count, let limit):
      "The run has \(count) steps, more than the inspector page's limit of \(limit)."
    case .tooLarge(let limit):
      "The inspector page would be larger than its limit of \(limit) bytes: its states are too "
        + "large to show whole."
    case .tooManyStepsForSize(let count, let bytesPerStep, let limit):
      "The inspector page would be larger than its limit of \(limit) bytes: the run has too many "
        + "steps for it (\(count), at about \(bytesPerStep) bytes each, although its states are "
        + "small); show fewer steps, such as a prefix of the replay, or raise the limit."
    }
  }
}
