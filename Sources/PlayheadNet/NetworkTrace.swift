import Foundation
import PlayheadCore

/// How a simulated network behaves over time: periods of bandwidth and latency, played in
/// order and repeated from the start when time runs past the last one.
///
/// 1 kbps is 1,000 bits per second. Periods with zero bandwidth model an outage; a trace
/// needs at least one period with bandwidth. The JSON format is the one of the ABR
/// benchmark traces: a list of `{"duration_ms", "bandwidth_kbps", "latency_ms"}` objects.
///
/// Example:
/// ```swift
/// let trace = try NetworkTrace(periods: [
///   .init(durationMs: 30_000, bandwidthKbps: 5_000, latencyMs: 50),
///   .init(durationMs: 60_000, bandwidthKbps: 500, latencyMs: 50),
/// ])
/// ```
public struct NetworkTrace: Sendable, Equatable {
  /// A stretch of time with one bandwidth and latency.
  public struct Period: Sendable, Equatable, Codable {
    /// How long the period lasts, in milliseconds (positive).
    public var durationMs: Double
    /// The bandwidth, in kilobits (1,000 bits) per second (0 = no bytes flow).
    public var bandwidthKbps: Double
    /// The time from sending a request to its first byte, in milliseconds.
    public var latencyMs: Double

    public init(durationMs: Double, bandwidthKbps: Double, latencyMs: Double = 0) {
      self.durationMs = durationMs
      self.bandwidthKbps = bandwidthKbps
      self.latencyMs = latencyMs
    }

    enum CodingKeys: String, CodingKey {
      case durationMs = "duration_ms"
      case bandwidthKbps = "bandwidth_kbps"
      case latencyMs = "latency_ms"
    }
  }

  /// The periods, in order.
  public let periods: [Period]
  /// Each period's start in nanoseconds from the trace's start, plus the total at the end.
  let boundariesNs: [Int64]

  /// Creates a trace; throws `.invalidArgument` for an empty list, a duration that is not
  /// positive and finite, a negative or non-finite bandwidth or latency, no period with
  /// bandwidth, or a total longer than 100 days.
  public init(periods: [Period]) throws(PlayheadError) {
    guard !periods.isEmpty else {
      throw PlayheadError(.invalidArgument, "a network trace needs at least one period")
    }
    var boundaries: [Int64] = [0]
    boundaries.reserveCapacity(periods.count + 1)
    var total: Int64 = 0
    for (index, period) in periods.enumerated() {
      guard period.durationMs.isFinite, period.durationMs > 0 else {
        throw PlayheadError(
          .invalidArgument,
          "network trace period \(index): duration must be positive, got \(period.durationMs) ms")
      }
      guard period.bandwidthKbps.isFinite, period.bandwidthKbps >= 0 else {
        throw PlayheadError(
          .invalidArgument,
          "network trace period \(index): bandwidth must be 0 or more, got "
            + "\(period.bandwidthKbps) kbps")
      }
      guard period.latencyMs.isFinite, period.latencyMs >= 0 else {
        throw PlayheadError(
          .invalidArgument,
          "network trace period \(index): latency must be 0 or more, got \(period.latencyMs) ms")
      }
      total += max(1, Int64((period.durationMs * 1e6).rounded()))
      guard total <= Self.maximumTotalNs else {
        throw PlayheadError(.invalidArgument, "network trace is longer than 100 days")
      }
      boundaries.append(total)
    }
    guard periods.contains(where: { $0.bandwidthKbps > 0 }) else {
      throw PlayheadError(.invalidArgument, "network trace has no period with bandwidth")
    }
    self.periods = periods
    boundariesNs = boundaries
  }

  static let maximumTotalNs: Int64 = 100 * 86_400 * 1_000_000_000

  /// A network with one bandwidth and latency forever.
  ///
  /// A bandwidth that is not positive and finite becomes 0.001 kbps (1 bit per second); a
  /// latency that is negative or not finite becomes 0.
  public static func constant(bandwidthKbps: Double, latencyMs: Double = 0) -> NetworkTrace {
    let bandwidth = bandwidthKbps.isFinite && bandwidthKbps > 0 ? bandwidthKbps : 0.001
    let latency = latencyMs.isFinite && latencyMs >= 0 ? latencyMs : 0
    let period = Period(durationMs: 3_600_000, bandwidthKbps: bandwidth, latencyMs: latency)
    return NetworkTrace(validated: [period])
  }

  private init(validated periods: [Period]) {
    self.periods = periods
    var boundaries: [Int64] = [0]
    for period in periods {
      boundaries.append(boundaries[boundaries.count - 1] + Int64(period.durationMs * 1e6))
    }
    boundariesNs = boundaries
  }

  /// Reads a trace from a JSON file in the format described on the type.
  ///
  /// Throws `.fileNotFound` when the file does not exist, `.ioError` when it cannot be
  /// read, `.unsupportedFormat` when it is not such a JSON list, and the errors of
  /// `init(periods:)`.
  public static func load(contentsOf url: URL) throws(PlayheadError) -> NetworkTrace {
    guard FileManager.default.fileExists(atPath: url.path) else {
      throw PlayheadError(.fileNotFound, "network trace not found: \(url.path)", url: url)
    }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw PlayheadError(.ioError, "cannot read network trace \(url.path)", url: url)
    }
    return try decode(data, name: url.path)
  }

  /// Parses a trace from JSON bytes; `name` appears in error messages.
  public static func decode(_ data: Data, name: String = "network trace") throws(PlayheadError)
    -> NetworkTrace
  {
    let periods: [Period]
    do {
      periods = try JSONReader.decode([Period].self, from: data)
    } catch {
      throw PlayheadError(
        .unsupportedFormat,
        "\(name) is not a JSON list of {duration_ms, bandwidth_kbps, latency_ms} periods: "
          + error.message)
    }
    return try NetworkTrace(periods: periods)
  }

  /// How long the trace lasts before it repeats.
  public var totalDuration: MediaTime { MediaTime(nanoseconds: boundariesNs[periods.count]) }

  /// The period in force `offsetNs` nanoseconds after the trace's start (repeating), and
  /// how many nanoseconds of it are left.
  public func period(atNs offsetNs: Int64) -> (index: Int, remainingNs: Int64) {
    let total = boundariesNs[periods.count]
    let phase = ((offsetNs % total) + total) % total
    // The last boundary at or below `phase`.
    var low = 0
    var high = periods.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if boundariesNs[middle] <= phase { low = middle } else { high = middle - 1 }
    }
    return (low, boundariesNs[low + 1] - phase)
  }
}
