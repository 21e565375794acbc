#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Why a ``JSONFile`` could not load, save or move aside its file.
///
/// Whatever the error, the file that was at the path is still there, unchanged: loading only
/// reads, and saving writes a new file beside it that replaces it in one step only once it is
/// complete. Its ``description`` is a sentence for the user, naming the file:
///
/// ```
/// /Users/ann/Library/notes.json is in format version 3, newer than the 2 this app reads: update the app to open it.
/// ```
///
/// Compare errors with `==` in tests, or match a case: `if case .newerVersion = error`. Its
/// `localizedDescription` is the same sentence.
public enum JSONFileError: Error, Hashable, Sendable, Codable, CustomStringConvertible,
  LocalizedError
{
  // MARK: - Loading

  /// The file could not be read: it is a folder, a pipe or a device, a folder on its path is a
  /// file, or the system refused (permissions).
  case unreadable(path: String, reason: String)
  /// The file is larger than the file's ``JSONFile/maximumBytes``, so it was not read.
  case tooLarge(path: String, byteCount: Int, limit: Int)
  /// The file is empty, or its JSON ends before its value does: a write that stopped halfway.
  case truncated(path: String, byteCount: Int)
  /// The file is not JSON, not in the format ``JSONFile`` writes, or its value does not decode.
  ///
  /// The reason names the place in the file: `value.notes[1]: Expected to decode String but found
  /// number instead.`
  case corrupt(path: String, reason: String)
  /// The file was written in a newer format version than the one this app reads.
  case newerVersion(path: String, found: Int, supported: Int)

  // MARK: - Saving

  /// The save was refused because the file at the path does not load, for the reason given:
  /// saving would replace data this app cannot read. Move the file aside first, with
  /// ``JSONFile/moveAside()``.
  indirect case refusedToReplace(JSONFileError)
  /// The value encodes to more than the file's ``JSONFile/maximumBytes``, which loading would
  /// refuse, so it was not saved.
  case valueTooLarge(path: String, byteCount: Int, limit: Int)
  /// The value could not be encoded or written (a folder could not be created, the disk is full);
  /// the file at the path, if any, is as it was.
  case writeFailed(path: String, reason: String)

  // MARK: - Moving aside

  /// The file could not be moved aside; it is still at its path.
  case moveAsideFailed(path: String, reason: String)

  /// The path of the file the error is about.
  public var path: String {
    switch self {
    case .unreadable(let path, _), .tooLarge(let path, _, _), .truncated(let path, _),
      .corrupt(let path, _), .newerVersion(let path, _, _), .valueTooLarge(let path, _, _),
      .writeFailed(let path, _), .moveAsideFailed(let path, _):
      return path
    case .refusedToReplace(let reason):
      return reason.path
    }
  }

  /// What went wrong, as a sentence that names the file: the ``description``.
  public var errorDescription: String? { description }

  /// What went wrong, as a sentence that names the file.
  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      return "Could not read \(path): \(sentence(reason))"
    case .tooLarge(let path, let byteCount, let limit):
      return "\(path) is \(byteCount) bytes, over the limit of \(limit): it was not read."
    case .truncated(let path, 0):
      return "\(path) is empty (0 bytes)."
    case .truncated(let path, let byteCount):
      return """
        \(path) is truncated: its JSON ends after \(byteCount) byte\(byteCount == 1 ? "" : "s"), \
        before its value does.
        """
    case .corrupt(let path, let reason):
      return "\(path) is corrupt: \(sentence(reason))"
    case .newerVersion(let path, let found, let supported):
      return """
        \(path) is in format version \(found), newer than the \(supported) this app reads: \
        update the app to open it.
        """
    case .refusedToReplace(let reason):
      return """
        Did not save over \(reason.path), which does not load: move it aside first. \(reason)
        """
    case .valueTooLarge(let path, let byteCount, let limit):
      return """
        Did not save \(path): the value is \(byteCount) bytes as JSON, over the limit of \(limit) \
        that loading accepts.
        """
    case .writeFailed(let path, let reason):
      return "Could not save \(path): \(sentence(reason))"
    case .moveAsideFailed(let path, let reason):
      return "Could not move \(path) aside: \(sentence(reason))"
    }
  }

  /// `reason` ending in one full stop: a reason may end in its own (an encoder's message does).
  private func sentence(_ reason: String) -> String {
    reason.hasSuffix(".") ? reason : reason + "."
  }
}
