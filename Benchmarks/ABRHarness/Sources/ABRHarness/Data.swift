import Foundation

/// A video ladder: segment duration, level bitrates and every segment's size per level.
struct Ladder {
  /// Segment duration in seconds.
  let segmentSeconds: Double
  /// Level bitrates in bits per second, ascending.
  let bitrates: [Double]
  /// `sizes[segment][level]` in bits.
  let sizes: [[Double]]
  /// `ln(bitrate / lowest)` per level.
  let utilities: [Double]

  var levelCount: Int { bitrates.count }
  var segmentCount: Int { sizes.count }

  init(segmentSeconds: Double, bitrates: [Double], sizes: [[Double]]) {
    self.segmentSeconds = segmentSeconds
    self.bitrates = bitrates
    self.sizes = sizes
    self.utilities = bitrates.map { log($0 / bitrates[0]) }
  }

  /// Reads the Sabre ladder format (`segment_duration_ms`, `bitrates_kbps`,
  /// `segment_sizes_bits`).
  static func load(_ url: URL) throws -> Ladder {
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
    guard let root = object as? [String: Any],
      let duration = (root["segment_duration_ms"] as? NSNumber)?.doubleValue,
      let rates = root["bitrates_kbps"] as? [NSNumber],
      let sizes = root["segment_sizes_bits"] as? [[NSNumber]]
    else { throw HarnessError("\(url.path): not a ladder file") }
    let bitrates = rates.map { $0.doubleValue * 1000 }
    guard duration > 0, !bitrates.isEmpty, bitrates.allSatisfy({ $0 > 0 }),
      zip(bitrates, bitrates.dropFirst()).allSatisfy({ $0 < $1 }), !sizes.isEmpty,
      sizes.allSatisfy({ $0.count == bitrates.count })
    else { throw HarnessError("\(url.path): inconsistent ladder") }
    return Ladder(
      segmentSeconds: duration / 1000, bitrates: bitrates,
      sizes: sizes.map { $0.map(\.doubleValue) })
  }
}

/// One period of a network trace.
struct TracePeriod {
  /// Length in seconds.
  let seconds: Double
  /// Bandwidth in bits per second.
  let bandwidth: Double
  /// Request latency in seconds.
  let latency: Double
}

/// A network trace: periods played in order and repeated.
struct Trace {
  let name: String
  let periods: [TracePeriod]

  /// Reads the Sabre trace format (a list of `duration_ms`, `bandwidth_kbps`, `latency_ms`).
  static func load(_ url: URL) throws -> Trace {
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
    guard let list = object as? [[String: Any]] else {
      throw HarnessError("\(url.path): not a trace file")
    }
    var periods: [TracePeriod] = []
    for entry in list {
      guard let duration = (entry["duration_ms"] as? NSNumber)?.doubleValue,
        let bandwidth = (entry["bandwidth_kbps"] as? NSNumber)?.doubleValue,
        let latency = (entry["latency_ms"] as? NSNumber)?.doubleValue,
        duration >= 0, bandwidth >= 0, latency >= 0
      else { throw HarnessError("\(url.path): bad period \(entry)") }
      periods.append(
        TracePeriod(seconds: duration / 1000, bandwidth: bandwidth * 1000, latency: latency / 1000))
    }
    guard periods.contains(where: { $0.seconds > 0 && $0.bandwidth > 0 }) else {
      throw HarnessError("\(url.path): the trace never carries data")
    }
    return Trace(name: url.deletingPathExtension().lastPathComponent, periods: periods)
  }

  /// Every trace in `directory`, sorted by file name.
  static func loadAll(_ directory: URL) throws -> [Trace] {
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".json") }.sorted()
    guard !names.isEmpty else { throw HarnessError("\(directory.path): no traces") }
    return try names.map { try load(directory.appendingPathComponent($0)) }
  }
}

/// A fatal harness error with a one-line message.
struct HarnessError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
