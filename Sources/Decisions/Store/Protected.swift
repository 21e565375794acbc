#if canImport(Darwin)
  import Synchronization

  /// A value behind a mutex.
  ///
  /// On Apple platforms this is `Synchronization.Mutex`.
  @usableFromInline package typealias Protected<Value> = Mutex<Value>
#else
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Android)
    import Android
  #endif

  /// A value behind a mutex, with the API of `Synchronization.Mutex`.
  ///
  /// On Linux `Synchronization.Mutex` hands a contended lock over inside the kernel (a priority-
  /// inheritance futex), where ThreadSanitizer cannot see it, so TSan reports races that are not
  /// there. A pthread mutex gives the same guarantee and is understood by TSan, so
  /// `swift test --sanitize=thread` reports only real races.
  // NB: usable from inlinable code, for `StateSequence`, which is specialized in its callers.
  @usableFromInline
  package struct Protected<Value: ~Copyable>: ~Copyable, @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let value: UnsafeMutablePointer<Value>

    /// Creates a mutex protecting `initialValue`.
    @usableFromInline
    package init(_ initialValue: consuming sending Value) {
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      let status = pthread_mutex_init(mutex, nil)
      precondition(status == 0, "pthread_mutex_init failed with \(status)")
      value = .allocate(capacity: 1)
      value.initialize(to: initialValue)
    }

    deinit {
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
      value.deinitialize(count: 1)
      value.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    package borrowing func withLock<Result: ~Copyable, E: Error>(
      _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body(&value.pointee)
    }
  }
#endif
