import PlayheadCore

/// A viewing situation whose buffer settings Playhead presets (seed 003's player scenes).
///
/// Explicit `BufferSettings` win over the scene's values, whichever is set first.
///
/// | scene | startup | after stall | low / high water | maximum | optimiser (min–max) |
/// | --- | --- | --- | --- | --- | --- |
/// | `none` | 0.5 s | 3 s | 40 / 50 s | 50 s | on, 10–50 s |
/// | `short` (≤ 5 min) | 0.5 s | 1.5 s | 10 / 15 s | 20 s | on, 4–15 s |
/// | `medium` (5–30 min) | 1 s | 2.5 s | 20 / 30 s | 40 s | on, 8–30 s |
/// | `long` (> 30 min) | 1.5 s | 3 s | 45 / 60 s | 90 s | on, 10–60 s |
/// | `live` | 1 s | 2 s | 6 / 10 s | 15 s | off |
///
/// The `none` values are the engine defaults: the seed's 500 ms start buffer, 3000 ms
/// buffer before resuming and 50,000 ms maximum buffer.
public enum PlayerScene: Sendable, Equatable, CaseIterable {
  /// No scene: the engine defaults.
  case none
  /// Short videos up to about five minutes (feeds, previews): a small buffer, fast start.
  case short
  /// Videos of five to thirty minutes.
  case medium
  /// Videos over thirty minutes: a deep buffer once the viewer is committed.
  case long
  /// Live streams: a shallow buffer close to the live edge, no optimiser.
  case live

  /// The scene's preset values.
  public var parameters: LoadControlParameters {
    switch self {
    case .none:
      return .preset(0.5, 3, low: 40, high: 50, maximum: 50, optimizer: (10, 50))
    case .short:
      return .preset(0.5, 1.5, low: 10, high: 15, maximum: 20, optimizer: (4, 15))
    case .medium:
      return .preset(1, 2.5, low: 20, high: 30, maximum: 40, optimizer: (8, 30))
    case .long:
      return .preset(1.5, 3, low: 45, high: 60, maximum: 90, optimizer: (10, 60))
    case .live:
      return .preset(1, 2, low: 6, high: 10, maximum: 15, optimizer: nil)
    }
  }
}

extension LoadControlParameters {
  /// A preset from seconds; a nil optimiser means `.none`.
  fileprivate static func preset(
    _ startup: Double, _ afterRebuffer: Double, low: Double, high: Double, maximum: Double,
    optimizer: (Double, Double)?
  ) -> LoadControlParameters {
    LoadControlParameters(
      startupBuffer: .milliseconds(startup), bufferAfterRebuffer: .milliseconds(afterRebuffer),
      lowWaterMark: .milliseconds(low), highWaterMark: .milliseconds(high),
      maximumBuffer: .milliseconds(maximum),
      optimizer: optimizer.map {
        BufferOptimizer(
          method: .default, minimumDurationSeconds: $0.0, maximumDurationSeconds: $0.1)
      } ?? .none)
  }
}

extension MediaTime {
  /// `seconds` in timescale 1000 (the presets are whole milliseconds).
  fileprivate static func milliseconds(_ seconds: Double) -> MediaTime {
    MediaTime(seconds: seconds, preferredTimescale: 1000)
  }
}
