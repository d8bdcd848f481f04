import Foundation
import Synchronization

/// A value and the lock that guards it: the value is reachable only inside `withLock`, so
/// no code can read or write it without holding the lock.
///
/// A class whose mutable state lives in a `Locked` (and whose other stored properties are
/// `let` constants of `Sendable` types) is `Sendable` without `@unchecked`. The lock is not
/// recursive: calling `withLock` again from inside the closure deadlocks, so keep the
/// closure short and never call out to other code from it.
public final class Locked<Value: Sendable>: @unchecked Sendable {
  // Unchecked Sendable: `stored` is only reached inside `withLock`, with `lock` held. The
  // lock is a pthread mutex (NSLock), not `Synchronization.Mutex`: on Linux that one is a
  // bare futex that ThreadSanitizer cannot see, so every guarded access read as a race.
  private let lock = NSLock()
  private var stored: Value

  /// Guards `value`.
  public init(_ value: Value) {
    stored = value
  }

  /// Runs `body` with the value, holding the lock; what `body` returns or throws passes
  /// through.
  public func withLock<Result: Sendable, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&stored)
  }

  /// A copy of the value, read under the lock.
  public var value: Value {
    withLock { $0 }
  }
}

/// Hands out identifiers unique within the process, in increasing order, from any thread.
///
/// One source serves every kind of identifier (players, items, loaders, sessions), so no
/// two objects of any kind ever share a number.
public enum ProcessUniqueID {
  private static let last = Atomic<UInt64>(0)

  /// The next identifier: 1 for the first call, then one more for each call.
  public static func next() -> UInt64 {
    last.wrappingAdd(1, ordering: .relaxed).newValue
  }
}
