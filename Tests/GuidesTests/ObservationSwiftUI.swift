// The SwiftUI code of Docs/Observation.md. SwiftUI is only on Apple platforms, so this file
// compiles there (in Xcode, or `swift build --build-tests` on a Mac) and is empty on Linux. The
// behaviour these views rely on is tested on Linux beside it, without SwiftUI:
// `ObservationGuideTests` (a `MainStore`'s state is new when `send` returns) and `ChildModelTests`
// (`withObservationTracking` sees a child model change only when its child does).
//
// On Linux it was type-checked once against a stub of the SwiftUI API it uses (`Binding`'s
// initializer as SwiftUI declares it: `@isolated(any) @Sendable` closures); it is not built by CI.

#if canImport(SwiftUI)
  import Decisions
  import SearchFeature
  import SwiftUI

  // MARK: - A view that owns its model

  struct CounterView: View {
    @State private var model = ObservableStore<Counter>(state: .init(), deps: .live)

    var body: some View {
      VStack(spacing: 16) {
        HStack {
          Button("−") { model.send(.decrementTapped) }
          Text("\(model.state.count)").monospacedDigit()
          Button("+") { model.send(.incrementTapped) }
        }
        Button("Tell me a fact") { model.send(.factTapped) }
          .disabled(model.state.isLoadingFact)
        if model.state.isLoadingFact {
          ProgressView()
        } else if let fact = model.state.fact {
          Text(fact)
        }
      }
    }
  }

  // MARK: - Lifecycle events

  struct ThermometerView: View {
    let model: ObservableStore<Thermometer>

    var body: some View {
      Text(model.state.celsius.map { "\($0) °C" } ?? "–")
        .onAppear { model.send(.appeared) }
        .onDisappear { model.send(.disappeared) }
    }
  }

  // MARK: - A text field bound to a MainStore's state

  struct SearchView: View {
    let model: SearchViewModel

    var body: some View {
      VStack {
        TextField("Search", text: Binding(get: { model.query }, set: { model.queryChanged($0) }))
        ProgressView().opacity(model.isSearching ? 1 : 0)
        List(model.results, id: \.self) { Text($0) }
      }
    }
  }

  // MARK: - Child views with models of their own

  struct DashboardView: View {
    let model: MainStore<Dashboard>

    var body: some View {
      List {
        ForEach(model.state.downloads) { download in
          if let row = model.child(
            Download.self, id: download.id, in: \.downloads, event: Dashboard.Event.download)
          {
            DownloadRow(model: row)  // invalidated only when this download changes
          }
        }
      }
    }
  }

  struct DownloadRow: View {
    let model: ChildModel<Download>

    var body: some View {
      HStack {
        Text("File \(model.state.id)")
        Spacer()
        Text(model.state.bytes.map { "\($0) bytes" } ?? "–")
      }
    }
  }
#endif
