// NB: FoundationEssentials where there is one, as in JSONFile.swift: the whole of Foundation made
// importing it the longest phase of a clean build of the library.
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A value kept in a file, as a child feature: loaded when its parent starts, saved a quiet
/// period after the last change, one write at a time, and never written over a file that did not
/// load.
///
/// A parent embeds it as a child that is always there, and changes ``State/value`` in its own
/// core as it would any state. The declaration's ``EmbeddedChild/savingChanges(in:_:)`` notices
/// the change and decides the save:
/// ```swift
/// var notes = Persisted<[String]>.State([])                       // State
/// case file(Persisted<[String]>.Event)                            // Event
/// case file(Persisted<[String]>.Decision)                         // Decision
/// var file: Persisted<[String]>.Deps                              // Deps
/// static let file = embed(
///   Persisted<[String]>.self, state: \.notes, event: Event.file, decision: Decision.file)
/// static let childWork = [file.work]
/// static func makeStartDecisions(state: inout State) -> [Decision] { file.start(in: &state) }
/// static func makeDecisions(event: Event, state: inout State) -> [Decision] {
///   file.savingChanges(in: &state) { state in
///     switch event {
///     case .file(let event): return file.makeDecisions(event: event, in: &state)
///     // …
///     }
///   }
/// }
/// // in execute:
/// case .file(let decision): file.execute(decision, deps: deps.file, effects: effects)
/// ```
/// Its deps come from a ``JSONFile`` with ``Deps/file(_:clock:)``; a test gives it a file in a
/// temporary folder and a `TestClock`. On its own, in a store of just the value (settings, say),
/// it is changed with ``Event/edited(_:)``.
///
/// **The machine.** ``State/status`` says where the file stands:
/// - ``Status/loading``: the file is being read. The value takes no edits: a change the parent
///   makes is undone by ``EmbeddedChild/savingChanges(in:_:)``, since the file's value replaces
///   it. A view disables editing until ``State/isLoaded``.
/// - ``Status/loaded``: the value came from the file, or there was none (the value is the one the
///   state was made with). A change waits for ``State/quietPeriod`` with no other change, then is
///   written; a change during a write is written after it; ``Event/saveNowRequested`` writes at
///   once. A failed write keeps ``State/saveError`` and the change, which the next change or
///   ``Event/saveNowRequested`` writes again.
/// - ``Status/failed(_:)``: the file did not load. Nothing is edited or written, so the file that
///   did not load stays as it is, until ``Event/retryTapped`` reads it again or
///   ``Event/startOverTapped`` moves it aside to a backup (``State/backup``) and starts from the
///   value the state was made with.
/// - ``Status/movingAside``: the file that did not load is being moved aside.
public enum Persisted<Value: Codable & Equatable & Sendable>: Feature {
  /// Where the file stands.
  public enum Status: Hashable, Sendable, Codable {
    /// The file is being read: the value takes no edits.
    case loading
    /// The value came from the file, or there was none: changes are saved.
    case loaded
    /// The file did not load: nothing is edited or saved until a retry or a start over.
    case failed(JSONFileError)
    /// The file that did not load is being moved aside, to start over.
    case movingAside
  }

  /// The value and where its file stands.
  public struct State: Equatable, Sendable, Codable {
    /// The value, as the parent shows it; change it in the parent's core.
    public var value: Value {
      didSet { isChanged = true }
    }
    /// Where the file stands.
    public var status: Status
    /// Changes that no write has started to save yet.
    public var hasUnsavedChanges = false
    /// A wait for a quiet period runs: a write comes at its end.
    public var isWaitingToSave = false
    /// A write runs: no other starts until it ends.
    public var isWriting = false
    /// Why the last write failed, until one succeeds.
    public var saveError: JSONFileError?
    /// Where a file that did not load was kept, after a start over.
    public var backup: URL?
    /// How long after the last change the value is written: a period below zero waits none, and
    /// one over 100 years waits 100 years.
    public var quietPeriod: Duration
    // NB: neither is compared nor encoded: they are bookkeeping of a step, false and 0 between
    // steps.
    /// Whether `value` was set since the change was last decided: raised by its `didSet`, so an
    /// unchanged value costs no comparison, and a change costs no copy.
    var isChanged = false
    /// How many calls of ``EmbeddedChild/savingChanges(in:_:)`` run, one inside the other.
    var nesting = 0

    /// A value whose file is yet to be read, or, with `status`, one that stands as given.
    /// - Parameters:
    ///   - value: The value until the file is read, and the value when there is no file or
    ///     after a start over.
    ///   - status: Where the file stands: ``Status/loading`` unless given (a test of a loaded
    ///     value gives ``Status/loaded``).
    ///   - quietPeriod: How long after the last change the value is written: 1 second unless
    ///     given.
    public init(_ value: Value, status: Status = .loading, quietPeriod: Duration = .seconds(1)) {
      self.value = value
      self.status = status
      self.quietPeriod = quietPeriod
    }

    /// A value in a standing given field by field, as a test's diff and a printed story show it.
    /// - Parameters:
    ///   - value: The value.
    ///   - status: Where the file stands.
    ///   - hasUnsavedChanges: Whether changes wait for a write to start.
    ///   - isWaitingToSave: Whether a wait for the quiet period runs.
    ///   - isWriting: Whether a write runs.
    ///   - saveError: Why the last write failed.
    ///   - backup: Where a file that did not load was kept.
    ///   - quietPeriod: How long after the last change the value is written.
    public init(
      value: Value, status: Status, hasUnsavedChanges: Bool = false, isWaitingToSave: Bool = false,
      isWriting: Bool = false, saveError: JSONFileError? = nil, backup: URL? = nil,
      quietPeriod: Duration = .seconds(1)
    ) {
      self.init(value, status: status, quietPeriod: quietPeriod)
      self.hasUnsavedChanges = hasUnsavedChanges
      self.isWaitingToSave = isWaitingToSave
      self.isWriting = isWriting
      self.saveError = saveError
      self.backup = backup
    }

    /// Whether the value came from the file, or there was none: it can be edited.
    public var isLoaded: Bool { status == .loaded }

    /// Whether the two are the same value in the same standing; whether a change has been seen
    /// yet does not count.
    public static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.value == rhs.value && lhs.status == rhs.status
        && lhs.hasUnsavedChanges == rhs.hasUnsavedChanges
        && lhs.isWaitingToSave == rhs.isWaitingToSave && lhs.isWriting == rhs.isWriting
        && lhs.saveError == rhs.saveError && lhs.backup == rhs.backup
        && lhs.quietPeriod == rhs.quietPeriod
    }

    private enum CodingKeys: String, CodingKey {
      case value, status, hasUnsavedChanges, isWaitingToSave, isWriting, saveError, backup
      case quietPeriod
    }
  }

  /// What the user asked, and what the file work found.
  public enum Event: Equatable, Sendable, Codable {
    /// The value was replaced, for the component on its own (a parent changes ``State/value`` in
    /// its core instead): saved like any change, and refused until the file is loaded.
    case edited(Value)
    /// The file was read: its value, or `nil` when there was no file.
    case loaded(Value?)
    /// The file did not load.
    case loadFailed(JSONFileError)
    /// After a failed load, the user asked to try again.
    case retryTapped
    /// After a failed load, the user asked to start over, the file kept as a backup.
    case startOverTapped
    /// The file that did not load was moved aside (`nil`: nothing was there).
    case movedAside(to: URL?)
    /// The file that did not load could not be moved aside.
    case moveAsideFailed(JSONFileError)
    /// No change came for the quiet period.
    case quietPeriodEnded
    /// The app is about to quit or go to the background: write what is pending now.
    case saveNowRequested
    /// The write finished.
    case saved
    /// The write failed; the file is as it was.
    case saveFailed(JSONFileError)
  }

  /// The file work.
  public enum Decision: Equatable, Sendable {
    /// Read the file.
    case load
    /// Send ``Event/quietPeriodEnded`` after a delay; replaces a wait that runs.
    case waitToSave(Duration)
    /// Cancel the wait for a quiet period.
    case cancelWait
    /// Write the value to the file.
    case write(Value)
    /// Move the file that did not load aside, to a backup.
    case moveAside
  }

  /// What the file work needs.
  public struct Deps: Sendable {
    /// The clock of the quiet period.
    public var clock: any Clock<Duration>
    /// Reads the file: `nil` when there is none.
    public var load: @Sendable () async throws(JSONFileError) -> Value?
    /// Writes the file.
    public var save: @Sendable (Value) async throws(JSONFileError) -> Void
    /// Moves the file aside, to a backup; `nil` when nothing was there.
    public var moveAside: @Sendable () async throws(JSONFileError) -> URL?

    /// Deps from their parts.
    public init(
      clock: any Clock<Duration>,
      load: @escaping @Sendable () async throws(JSONFileError) -> Value?,
      save: @escaping @Sendable (Value) async throws(JSONFileError) -> Void,
      moveAside: @escaping @Sendable () async throws(JSONFileError) -> URL?
    ) {
      self.clock = clock
      self.load = load
      self.save = save
      self.moveAside = moveAside
    }

    /// Deps that read, write and move `file`, with the quiet period on `clock`.
    /// - Parameters:
    ///   - file: The file.
    ///   - clock: The clock of the quiet period: a `ContinuousClock` unless given.
    /// - Returns: The deps.
    public static func file(
      _ file: JSONFile<Value>, clock: any Clock<Duration> = ContinuousClock()
    ) -> Deps {
      Deps(
        clock: clock,
        // NB: `@concurrent`: the file work blocks, so it runs off the store's actor, whatever
        // the isolation of the code that calls it.
        load: { @concurrent () throws(JSONFileError) in try file.load() },
        save: { @concurrent (value) throws(JSONFileError) in try file.save(value) },
        moveAside: { @concurrent () throws(JSONFileError) in try file.moveAside() })
    }
  }

  /// The start: the file is read.
  ///
  /// No work runs at a start, so a state that says a write or a wait runs (one restored from a
  /// recording, say) is told it does not: a write that never ends would hold back every other.
  /// - Parameter state: The state.
  /// - Returns: The decision to read the file.
  public static func makeStartDecisions(state: inout State) -> [Decision] {
    state.status = .loading
    state.hasUnsavedChanges = false
    state.isWaitingToSave = false
    state.isWriting = false
    state.isChanged = false
    return [.load]
  }

  /// Decides what an event of the file work, or a request of the user's, changes and does.
  public static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .edited(let value):
      guard state.status == .loaded else { return [] }
      state.value = value
      return decideChange(&state, undoingTo: nil)

    case .loaded(let value):
      guard state.status == .loading else { return [] }
      state.status = .loaded
      if let value { state.value = value }
      state.isChanged = false  // the file's value is not written back
      state.hasUnsavedChanges = false
      return []

    case .loadFailed(let error):
      guard state.status == .loading else { return [] }
      state.status = .failed(error)
      return []

    case .retryTapped:
      guard case .failed = state.status else { return [] }
      state.status = .loading
      return [.load]

    case .startOverTapped:
      guard case .failed = state.status else { return [] }
      state.status = .movingAside
      return [.moveAside]

    case .movedAside(let backup):
      guard state.status == .movingAside else { return [] }
      state.status = .loaded
      state.backup = backup
      return []

    case .moveAsideFailed(let error):
      guard state.status == .movingAside else { return [] }
      state.status = .failed(error)
      return []

    case .quietPeriodEnded:
      state.isWaitingToSave = false
      return writeIfIdle(&state)

    case .saveNowRequested:
      guard state.isWaitingToSave else { return writeIfIdle(&state) }
      state.isWaitingToSave = false
      return [.cancelWait] + writeIfIdle(&state)

    case .saved:
      state.isWriting = false
      state.saveError = nil
      return state.isWaitingToSave ? [] : writeIfIdle(&state)

    case .saveFailed(let error):
      state.isWriting = false
      state.saveError = error
      state.hasUnsavedChanges = true
      return []
    }
  }

  /// Decides the save of a change of the value, if there was one: it is written once no change
  /// has come for the quiet period.
  ///
  /// While the file is not loaded, the change is refused: the value goes back to `before`.
  static func decideChange(_ state: inout State, undoingTo before: Value?) -> [Decision] {
    guard state.isChanged else { return [] }
    guard state.status == .loaded else {
      if let before { state.value = before }
      state.isChanged = false
      return []
    }
    state.isChanged = false
    state.hasUnsavedChanges = true
    state.isWaitingToSave = true
    return [.waitToSave(state.quietPeriod)]
  }

  /// Writes the value if it changed and no write runs; a running write is followed by another
  /// when it ends.
  private static func writeIfIdle(_ state: inout State) -> [Decision] {
    guard state.status == .loaded, state.hasUnsavedChanges, !state.isWriting else { return [] }
    state.hasUnsavedChanges = false
    state.isWriting = true
    return [.write(state.value)]
  }

  /// Performs the file work through the deps.
  public static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load:
      effects.run(id: "load") { send in
        do throws(JSONFileError) {
          await send(.loaded(try await deps.load()))
        } catch {
          await send(.loadFailed(error))
        }
      }
    case .waitToSave(let delay):
      // NB: a period from a decoded state may be any `Duration`: a clock traps on a sleep past
      // what it can represent (`.seconds(Int64.max)`), so the wait is kept to 0–100 years.
      let delay = min(max(delay, .zero), longestQuietPeriod)
      effects.run(id: "wait to save") { send in
        try await deps.clock.sleep(for: delay)
        await send(.quietPeriodEnded)
      }
    case .cancelWait:
      effects.cancel(id: "wait to save")
    case .write(let value):
      effects.run(id: "write") { send in
        do throws(JSONFileError) {
          try await deps.save(value)
          await send(.saved)
        } catch {
          await send(.saveFailed(error))
        }
      }
    case .moveAside:
      effects.run(id: "move aside") { send in
        do throws(JSONFileError) {
          await send(.movedAside(to: try await deps.moveAside()))
        } catch {
          await send(.moveAsideFailed(error))
        }
      }
    }
  }
}

extension Persisted.State: Hashable where Value: Hashable {
  /// Hashes what `==` compares: whether a change has been seen yet does not count.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(value)
    hasher.combine(status)
    hasher.combine(hasUnsavedChanges)
    hasher.combine(isWaitingToSave)
    hasher.combine(isWriting)
    hasher.combine(saveError)
    hasher.combine(backup)
    hasher.combine(quietPeriod)
  }
}

extension Persisted.State: CustomReflectable {
  /// Reflects as what `==` compares, in the order of
  /// ``init(value:status:hasUnsavedChanges:isWaitingToSave:isWriting:saveError:backup:quietPeriod:)``,
  /// so that a test's diff shows only fields a test can set, and a printed story compiles.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "value": value, "status": status, "hasUnsavedChanges": hasUnsavedChanges,
        "isWaitingToSave": isWaitingToSave, "isWriting": isWriting, "saveError": saveError as Any,
        "backup": backup as Any, "quietPeriod": quietPeriod,
      ] as KeyValuePairs<String, Any>, displayStyle: .struct)
  }
}

extension EmbeddedChild where Parent: Feature, Child: Feature {
  /// The start of a persisted value: the file is read.
  ///
  /// Return it from the parent's `makeStartDecisions`.
  /// - Parameter state: The parent's state.
  /// - Returns: The decision to read the file, as the parent's.
  public func start<Value>(in state: inout Parent.State) -> [Parent.Decision]
  where Child == Persisted<Value> {
    modify(&state) { Persisted<Value>.makeStartDecisions(state: &$0) }.map(decision)
  }

  /// Runs `body`, the parent's core, and decides the save of the persisted value if `body`
  /// changed it: wrap the parent's `makeDecisions` in it, so that no change is left unsaved.
  ///
  /// A change is seen by a flag that setting ``Persisted/State/value`` raises, not by comparing
  /// values: an unchanged value costs nothing, and a changed one is changed in place, with no
  /// copy. Setting it to the same value counts as a change, and writes the same value again.
  ///
  /// A change made while the file is not loaded (it is being read, or did not load) is undone:
  /// the file's value is not known yet, or must not be written over. A view disables editing
  /// until ``Persisted/State/isLoaded``.
  ///
  /// The call may be nested: a child's request runs the parent's core again inside the step.
  /// Only the outermost call decides, after the whole step: a change is saved once, and undone
  /// whole.
  /// - Parameters:
  ///   - state: The parent's state.
  ///   - body: The parent's core, on the parent's state.
  /// - Returns: The decisions of `body`, then the save's, as the parent's.
  /// - Complexity: O(1) beyond `body` when the file is loaded.
  public func savingChanges<Value>(
    in state: inout Parent.State, _ body: (inout Parent.State) -> [Parent.Decision]
  ) -> [Parent.Decision] where Child == Persisted<Value> {
    var isOutermost = false
    var before: Value?
    _ = modify(&state) { persisted in
      isOutermost = persisted.nesting == 0
      persisted.nesting += 1
      // NB: a copy to undo with only while the file is not loaded: a loaded value is changed in
      // place, whatever its size.
      if isOutermost, !persisted.isLoaded { before = persisted.value }
      return []
    }
    var decisions = body(&state)
    let saves = modify(&state) { persisted in
      persisted.nesting -= 1
      guard isOutermost else { return [] }
      return Persisted<Value>.decideChange(&persisted, undoingTo: before)
    }
    decisions += saves.map(decision)
    return decisions
  }
}

/// The longest wait for a quiet period: 100 years, a wait every clock can represent.
private let longestQuietPeriod = Duration.seconds(100 * 365 * 24 * 3600)
