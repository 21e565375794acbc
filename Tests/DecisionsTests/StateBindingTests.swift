#if canImport(Observation)
  import Decisions
  import Synchronization
  import Testing

  /// A sign-up form: a name the core trims to 10 characters, a toggle, and an optional address
  /// sheet with a field of its own.
  private enum SignUp: Feature {
    struct State: Equatable, Sendable {
      var name = ""
      var agrees = false
      @Presented var address: Address.State?
    }
    enum Event: Equatable, Sendable {
      case nameChanged(String)
      case agreesChanged(Bool)
      case openAddress
      case closeAddress
      case address(Address.Event)
    }
    enum Decision: Equatable, Sendable {
      case address(Address.Decision)
    }
    struct Deps: Sendable {}

    static func makeDecisions(event: Event, state: inout State) -> [Decision] {
      switch event {
      case .nameChanged(let name):
        state.name = String(name.prefix(10))
      case .agreesChanged(let agrees):
        state.agrees = agrees
      case .openAddress:
        state.address = Address.State()
      case .closeAddress:
        state.address = nil
      case .address(let event):
        return Address.makeDecisions(event: event, state: &state.address, embed: Decision.address)
      }
      return []
    }

    static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {}
  }

  private enum Address: Core {
    struct State: Equatable, Sendable {
      var street = ""
    }
    enum Event: Equatable, Sendable {
      case streetChanged(String)
    }
    enum Decision: Equatable, Sendable {}

    static func makeDecisions(event: Event, state: inout State) -> [Decision] {
      switch event {
      case .streetChanged(let street): state.street = street.uppercased()
      }
      return []
    }
  }

  @MainActor
  @Suite struct StateBindingTests {
    @Test func aWriteIsInTheStateWhenItReturns() {
      let store = MainStore<SignUp>(state: .init(), deps: .init())
      let name = store.binding(\.name, send: SignUp.Event.nameChanged)
      #expect(name.wrappedValue == "")
      name.wrappedValue = "Ada"
      #expect(store.state.name == "Ada")
      #expect(name.wrappedValue == "Ada")
      let agrees = store.binding(\.agrees, send: SignUp.Event.agreesChanged)
      agrees.wrappedValue = true
      #expect(store.state.agrees)
    }

    // What the user typed is shown as the core made it, at once: the field never shows a value
    // the state does not have.
    @Test func theCoresAnswerIsShownAtOnce() {
      let store = MainStore<SignUp>(state: .init(), deps: .init())
      let name = store.binding(\.name, send: SignUp.Event.nameChanged)
      name.wrappedValue = "Augusta Ada King"
      #expect(name.wrappedValue == "Augusta Ad")
    }

    @Test func aBindingReadsChangesThatOtherEventsMade() {
      let store = MainStore<SignUp>(state: .init(), deps: .init())
      let name = store.binding(\.name, send: SignUp.Event.nameChanged)
      store.send(.nameChanged("Grace"))
      #expect(name.wrappedValue == "Grace")
    }

    @Test func aChildModelsWriteIsInTheChildsStateWhenItReturns() throws {
      let store = MainStore<SignUp>(state: .init(), deps: .init())
      store.send(.openAddress)
      let model = try #require(
        store.child(Address.self, state: \.$address, event: SignUp.Event.address))
      let street = model.binding(\.street, send: Address.Event.streetChanged)
      street.wrappedValue = "main st"
      #expect(model.state.street == "MAIN ST")
      #expect(store.state.address?.street == "MAIN ST")
      #expect(street.wrappedValue == "MAIN ST")
    }

    // A field of a closed sheet writes nowhere, not into the next sheet.
    @Test func aGoneChildsBindingDropsItsWrites() throws {
      let ignored = Mutex<[IgnoredReason]>([])
      let store = MainStore<SignUp>(
        state: .init(), deps: .init(),
        diagnostics: { diagnostic in
          if case .ignored(_, let reason) = diagnostic { ignored.withLock { $0.append(reason) } }
        })
      store.send(.openAddress)
      let model = try #require(
        store.child(Address.self, state: \.$address, event: SignUp.Event.address))
      let street = model.binding(\.street, send: Address.Event.streetChanged)
      store.send(.closeAddress)
      store.send(.openAddress)
      street.wrappedValue = "old sheet"
      #expect(store.state.address == Address.State())
      #expect(ignored.withLock { $0 } == [.goneChild])
      #expect(street.wrappedValue == "")  // the old sheet's last state
    }

    @Test func aBindingOutlivingItsStoreReadsTheLastValueAndWritesNowhere() {
      var store: MainStore<SignUp>? = MainStore(state: .init(), deps: .init())
      let name = store!.binding(\.name, send: SignUp.Event.nameChanged)
      name.wrappedValue = "Ada"
      weak let released = store
      store = nil
      #expect(released == nil)
      #expect(name.wrappedValue == "Ada")
      name.wrappedValue = "Bea"  // goes nowhere
      #expect(name.wrappedValue == "Ada")
    }

    @Test func aBindingOfClosuresReadsAndWritesThroughThem() {
      var value = 1
      let binding = StateBinding(get: { value }, set: { value = $0 * 2 })
      binding.wrappedValue = 5
      #expect(value == 10)
      #expect(binding.wrappedValue == 10)
    }
  }
#endif
