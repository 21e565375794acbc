// The SwiftUI code of Docs/Navigation.md, type-checked in CI against the stand-in of SwiftUI
// (Sources/SwiftUI) and, on a Mac, against SwiftUI itself. What the adapters do beyond their
// types is tested on Linux: `NavigationBindingTests` (a path's and a sheet's binding) and
// `DialogPresentationTests` (one answer per showing of a dialog).

import Decisions
import DecisionsSwiftUI
import SwiftUI

// MARK: - A stack of screens

struct NotesView: View {
  let store: MainStore<NoteList>

  var body: some View {
    NavigationStack(path: Binding(store.binding(\.path, send: NoteList.Event.pathChanged))) {
      NoteListView(store: store)
        .navigationDestination(for: ScreenStack<NoteDetail.State>.ID.self) { id in
          if let detail = store.child(NoteList.details, id: id) {
            NoteDetailView(model: detail)
          }
        }
    }
  }
}

struct NoteListView: View {
  let store: MainStore<NoteList>

  var body: some View {
    List {
      ForEach(store.state.notes, id: \.self) { note in
        Button(note) { store.send(.open(note)) }
      }
    }
  }
}

struct NoteDetailView: View {
  let model: ChildModel<NoteDetail>

  var body: some View {
    VStack {
      Text(model.state.note)
      Button("Delete") { model.send(.deleteTapped) }
    }
  }
}

// MARK: - One destination at a time

struct AccountView: View {
  let store: MainStore<Account>

  var body: some View {
    Button("Rename") { store.send(.renameTapped) }
      .sheet(item: Binding(store.binding(Account.rename, dismiss: .dismissed))) { rename in
        RenameView(model: rename)
      }
  }
}

#if !os(macOS)
  /// The same binding drives a full-screen cover, which macOS does not have.
  struct AccountCoverView: View {
    let store: MainStore<Account>

    var body: some View {
      Button("Rename") { store.send(.renameTapped) }
        .fullScreenCover(item: Binding(store.binding(Account.rename, dismiss: .dismissed))) {
          RenameView(model: $0)
        }
    }
  }
#endif

struct RenameView: View {
  let model: ChildModel<Rename>

  var body: some View {
    TextField("Name", text: Binding(model.binding(\.name, send: Rename.Event.nameChanged)))
    Button("Save") { model.send(.saveTapped) }
      .disabled(model.state.isAvailable != true)
  }
}

// MARK: - Alerts and confirmation dialogs

struct InboxView: View {
  let store: MainStore<Inbox>

  var body: some View {
    List {
      ForEach(store.state.messages, id: \.self) { id in
        Button("Message \(id)") { store.send(.deleteTapped(id: id)) }
      }
    }
    .dialog(store.state.dialog) { store.send(.dialog($0)) }
  }
}

// MARK: - Bindings: controls that write events

struct SearchFieldView: View {
  let store: MainStore<SearchField>

  var body: some View {
    TextField("Search", text: Binding(store.binding(\.query, send: SearchField.Event.queryChanged)))
  }
}
