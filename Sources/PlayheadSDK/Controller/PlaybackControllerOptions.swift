import Foundation
import PlayheadEngine

/// The controller's options, with typed keys (the seed's options dictionary).
///
/// Copy, change and assign back: `var o = controller.options; o.… = …; controller.options = o`.
/// Set them before `setVideos`: each new session's player is built with the options of the
/// moment; the session already playing keeps its own.
public struct PlaybackControllerOptions: Sendable, Equatable {
  /// Whether the growing buffer optimiser runs (seed 000 "buffer optimisation").
  public enum BufferOptimizerMethod: String, Sendable, Equatable {
    /// Start with a small forward buffer and grow it while the viewer keeps watching.
    case `default`
    /// Leave the forward buffer to the engine (the high-water mark of its load control).
    case none
  }

  /// The optimiser method; `.default` unless changed.
  public var bufferOptimizerMethod: BufferOptimizerMethod = .default
  /// The forward buffer at the start of a video, in seconds (values below 1.0 become 1.0).
  public var bufferOptimizerMinimumDurationSeconds: Double = BufferOptimizer()
    .minimumDurationSeconds
  /// The largest forward buffer, in seconds (values below the minimum become the minimum).
  public var bufferOptimizerMaximumDurationSeconds: Double = BufferOptimizer()
    .maximumDurationSeconds
  /// The seed's AVPlayerViewController-compatibility flag. Linux has no AVPlayerViewController:
  /// the flag is stored and otherwise has no effect.
  public var avPlayerViewControllerCompatibility = false
  /// The session ID sent to the stream-concurrency service (a `sid` claim in the token wins).
  public var authHeartbeatSessionID: String?
  /// Other keys, for plug-ins (kept as given).
  public var custom: [String: JSONValue] = [:]

  public init() {}

  /// A plug-in key's value.
  public subscript(key: String) -> JSONValue? {
    get { custom[key] }
    set { custom[key] = newValue }
  }

  /// The optimiser these options describe, as the engine takes it.
  public var bufferOptimizer: BufferOptimizer {
    BufferOptimizer(
      method: bufferOptimizerMethod == .default ? .default : .none,
      minimumDurationSeconds: bufferOptimizerMinimumDurationSeconds,
      maximumDurationSeconds: bufferOptimizerMaximumDurationSeconds)
  }
}
