// The "before" of Docs/FromMVVM.md: the imperative view model, compiled, with the mock classes its
// expectation-based test uses (the guide shows that test, but it is not run here: this package's
// tests never wait on expectations). The "after" is the FactFeature example itself.

import FactFeature
import Observation

protocol FactService: Sendable {
  func loadFact() async throws -> Fact
}
protocol Analytics {
  func track(_ name: String)
}
protocol Logger {
  func log(_ text: String)
}
protocol SnackbarPresenter {
  func show(_ text: String)
}

@MainActor
@Observable
final class FactViewModel {
  var text = ""
  var isLoading = false

  private let service: FactService
  private let analytics: Analytics
  private let logger: Logger
  private let snackbar: SnackbarPresenter

  init(service: FactService, analytics: Analytics, logger: Logger, snackbar: SnackbarPresenter) {
    self.service = service
    self.analytics = analytics
    self.logger = logger
    self.snackbar = snackbar
  }

  func didTapButton() {
    analytics.track("didTapButton")
    isLoading = true
    Task {
      do {
        let fact = try await service.loadFact()
        text = fact.text
        logger.log(fact.text)
        isLoading = false
      } catch {
        snackbar.show("Went wrong")
      }
    }
  }
}

// MARK: - The mocks, one class per protocol

struct MockFactService: FactService {
  var result: Result<Fact, any Error>

  func loadFact() async throws -> Fact {
    try result.get()
  }
}

final class MockAnalytics: Analytics {
  private(set) var tracked: [String] = []

  func track(_ name: String) {
    tracked.append(name)
  }
}

final class MockLogger: Logger {
  var onLog: (String) -> Void = { _ in }

  func log(_ text: String) {
    onLog(text)
  }
}

final class MockSnackbar: SnackbarPresenter {
  func show(_ text: String) {}
}
