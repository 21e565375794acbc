#if canImport(Observation)
  /// A value of a view model's state that a control reads and writes, where a write is an event.
  ///
  /// A text field, toggle or picker shows a value of the state, and what the user enters goes to
  /// the core as an event, which decides what the state becomes:
  /// ```swift
  /// let query = model.binding(\.query, send: Search.Event.queryChanged)
  /// query.wrappedValue = "swift"  // sends .queryChanged("swift")
  /// query.wrappedValue  // the state's query: "swift", or what the core made of it
  /// ```
  /// On a ``MainStore`` and its child models the write has been processed when it returns, so a
  /// read right after it shows the new state: text input never lags or jumps. A core that trims or
  /// refuses a value is shown at once doing so.
  ///
  /// In SwiftUI, `Binding(binding)` makes a SwiftUI `Binding` of it (`import DecisionsSwiftUI`).
  /// A navigation stack's path and a presented child's sheet have bindings of their own:
  /// `binding(_:send:)` with a ``ScreenStack``, `binding(_:dismiss:)` with a presented child's
  /// declaration.
  @MainActor
  public struct StateBinding<Value> {
    /// Reads the value from the state.
    package let read: @MainActor () -> Value
    /// Sends the event for a new value.
    package let write: @MainActor (Value) -> Void

    /// A binding that reads with `get` and writes with `set`.
    /// - Parameters:
    ///   - get: Reads the value, usually from a model's state.
    ///   - set: Takes a new value, usually by sending an event.
    public init(
      get: @escaping @MainActor () -> Value, set: @escaping @MainActor (Value) -> Void
    ) {
      self.read = get
      self.write = set
    }

    /// The value: reading it reads the state, and writing it sends the event.
    public var wrappedValue: Value {
      get { read() }
      nonmutating set { write(newValue) }
    }
  }

  extension MainStore {
    /// A binding of a value of the state, whose writes send an event: for a text field, toggle or
    /// picker.
    ///
    /// ```swift
    /// TextField("Search", text: Binding(store.binding(\.query, send: Search.Event.queryChanged)))
    /// ```
    /// A write is processed when it returns, as ``send(_:)`` is: the state shows the core's answer
    /// to it at once. The binding holds the store weakly; once the store is gone it reads the last
    /// value it read or wrote, and its writes go nowhere.
    /// - Parameters:
    ///   - value: The value in the state.
    ///   - event: Makes the event that a new value sends.
    /// - Returns: The binding.
    public func binding<Value>(
      _ value: KeyPath<F.State, Value>, send event: @escaping (Value) -> F.Event
    ) -> StateBinding<Value> {
      makeBinding(of: self, value, send: event)
    }
  }

  extension ChildModel {
    /// A binding of a value of the child's state, whose writes send the child's event: for a text
    /// field, toggle or picker of a child view.
    ///
    /// On a child model of a ``MainStore`` a write is processed when it returns, as on the store.
    /// A child model of an ``ObservableStore`` shows the store's state a main-actor turn or more
    /// after it: a text field bound to it can lag, so put forms on a `MainStore`. Once the child
    /// is gone (``isGone``), writes are dropped as its events are.
    /// - Parameters:
    ///   - value: The value in the child's state.
    ///   - event: Makes the child's event that a new value sends.
    /// - Returns: The binding.
    public func binding<Value>(
      _ value: KeyPath<Child.State, Value>, send event: @escaping (Value) -> Child.Event
    ) -> StateBinding<Value> {
      makeBinding(of: self, value, send: event)
    }
  }

  /// A binding of `value` in `model`'s state that sends `event`, holding the model weakly.
  @MainActor
  private func makeBinding<Model: ViewModel, Value>(
    of model: Model, _ value: KeyPath<Model.ModelCore.State, Value>,
    send event: @escaping (Value) -> Model.ModelCore.Event
  ) -> StateBinding<Value> {
    var last = model.state[keyPath: value]
    return StateBinding(
      get: { [weak model] in
        if let model { last = model.state[keyPath: value] }
        return last
      },
      set: { [weak model] in
        guard let model else { return }
        model.send(event($0))
        last = model.state[keyPath: value]
      })
  }
#endif
