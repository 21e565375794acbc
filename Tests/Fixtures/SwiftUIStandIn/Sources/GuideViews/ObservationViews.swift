// The SwiftUI code of Docs/Observation.md, type-checked in CI against the stand-in of SwiftUI
// (Sources/SwiftUI) and, on a Mac, against SwiftUI itself. The behaviour these views rely on is
// tested on Linux: `ObservationGuideTests` (a `MainStore`'s state is new when `send` returns) and
// `ChildModelTests` (`withObservationTracking` sees a child model change only when its child does).

import Decisions
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

// MARK: - Child views with models of their own

struct DashboardView: View {
  let model: MainStore<Dashboard>

  var body: some View {
    List {
      ForEach(model.state.downloads) { download in
        if let row = model.child(Dashboard.downloads, id: download.id) {
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
