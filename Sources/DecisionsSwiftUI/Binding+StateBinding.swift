// DecisionsSwiftUI: the few adapters between a feature's models and SwiftUI. The whole module is
// inside `#if canImport(SwiftUI)`, so it builds, empty, where SwiftUI is not (Linux). CI
// type-checks it against a stand-in of SwiftUI's signatures: Tests/Fixtures/SwiftUIStandIn.
#if canImport(SwiftUI)
  import Decisions
  import SwiftUI

  extension Binding {
    /// A SwiftUI binding of a ``StateBinding``: the control reads the state, and its writes send
    /// the binding's event.
    ///
    /// One initializer serves every binding a model makes, each for SwiftUI's own controls and
    /// modifiers:
    /// ```swift
    /// TextField("Name", text: Binding(store.binding(\.name, send: Form.Event.nameChanged)))
    /// NavigationStack(path: Binding(store.binding(\.path, send: NoteList.Event.pathChanged))) {
    /// .sheet(item: Binding(store.binding(Account.rename, dismiss: .dismissed))) { RenameView(model: $0) }
    /// ```
    /// - Parameter binding: The binding, from a model's `binding` methods.
    @MainActor
    public init(_ binding: StateBinding<Value>) {
      let read = binding.read
      let write = binding.write
      self.init(get: { @MainActor in read() }, set: { @MainActor in write($0) })
    }
  }
#endif
