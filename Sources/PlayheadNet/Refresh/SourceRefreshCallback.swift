import Foundation
import PlayheadCore

/// The answer to one refresh request (seed 003's `AVPSourceRefreshCallback`): call
/// `onSuccess` with a fresh URL or `onError` with a reason, once, from any thread.
///
/// Only the first answer counts; later calls, and any call after the player stopped
/// waiting (its timeout passed or the item closed), are ignored and return false.
public final class SourceRefreshCallback: Sendable {

  /// What the handler answered.
  enum Outcome: Sendable, Equatable {
    case success(URL)
    case failure(String)
    /// The waiter gave up (timeout or cancellation) before an answer came.
    case abandoned
  }

  private let outcome = Locked<Outcome?>(nil)
  /// Raised when an answer arrives, to wake the waiting loader.
  let signal = WakeSignal()

  init() {}

  /// Hands the player the fresh URL for the expired request; false when an answer was
  /// already given or the player no longer waits.
  @discardableResult
  public func onSuccess(_ newURL: URL) -> Bool {
    settle(.success(newURL))
  }

  /// Tells the player no fresh URL can be had; the item fails with a `.sourceExpired`
  /// error carrying `message`. False when an answer was already given.
  @discardableResult
  public func onError(_ message: String) -> Bool {
    settle(.failure(message))
  }

  /// Whether an answer was given (or the player stopped waiting).
  public var isCompleted: Bool { outcome.value != nil }

  /// The answer so far, if any.
  var current: Outcome? { outcome.value }

  /// Marks the callback abandoned unless it was answered; returns the final outcome.
  func abandon() -> Outcome {
    outcome.withLock { outcome in
      if let outcome { return outcome }
      outcome = .abandoned
      return .abandoned
    }
  }

  private func settle(_ value: Outcome) -> Bool {
    let settled = outcome.withLock { outcome in
      guard outcome == nil else { return false }
      outcome = value
      return true
    }
    guard settled else { return false }
    signal.raise()
    return true
  }
}
