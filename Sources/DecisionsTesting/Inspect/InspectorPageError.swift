import Decisions

/// Why an inspector page could not be made.
public enum InspectorPageError: Error, Equatable, Sendable {
  /// The run has more steps than the page's limit.
  case tooManySteps(count: Int, limit: Int)
  /// The page would take more bytes than its limit: its states are too large to show whole.
  case tooLarge(limit: Int)
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
    }
  }
}
