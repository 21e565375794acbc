import Decisions

/// A weak reference to a store, for deps that post back to it.
package final class StoreBox<F: Feature & SendableMetatype>: @unchecked Sendable {
  // NB: written once before the store processes anything.
  package weak var store: Store<F>?

  package init() {}
}
