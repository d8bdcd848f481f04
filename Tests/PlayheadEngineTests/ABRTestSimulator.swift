import Foundation
import PlayheadCore
import PlayheadEngine

/// A small deterministic streaming simulation for ABR tests: a ladder of 2-second
/// segments, bandwidth as a function of simulated time, a meter like the engine's (fast
/// and slow EWMA, the lower), buffer accounting, stalls, and abandonment checks every
/// 0.1 s. Time advances in 10 ms steps; nothing depends on the host clock.
struct ABRTestSimulator {
  /// One requested segment.
  struct Step {
    var segment: Int
    var level: Int
    var reason: ABRDecision.Reason
    /// Simulated time of the request.
    var requestTime: Double
    /// Buffer when the request was made.
    var bufferAtRequest: Double
    /// Whether this request was abandoned (then `abandonedTo` is set).
    var abandonedTo: Int?
  }

  /// What happened in one run.
  struct Outcome {
    var steps: [Step] = []
    var stallSeconds = 0.0
    /// Simulated times at which stalls began (not counting startup).
    var stallStarts: [Double] = []
    /// Every level requested by an adaptive or manual decision, and every abandonment
    /// target.
    var requestedLevels: [Int] { steps.map(\.level) }
    /// Completed segments in order, by level.
    var playedLevels: [Int] { steps.filter { $0.abandonedTo == nil }.map(\.level) }
  }

  var levels: [BitrateLevel]
  var segmentSeconds = 2.0
  var maximumBuffer = 30.0
  var latency = 0.05
  /// Bandwidth in bits per second at a simulated time.
  var bandwidth: @Sendable (Double) -> Double
  /// The constraints in force for a segment index.
  var constraints: @Sendable (Int) -> ABRConstraints = { _ in .none }

  static let step = 0.01
  static let progressInterval = 0.1

  /// Plays `segments` segments with `controller`.
  func run(controller: ABRController, segments: Int) -> Outcome {
    var outcome = Outcome()
    var now = 0.0
    var buffer = 0.0
    var playing = false
    var started = false
    var meter = Meter()
    var current: Int?
    var forced: Int?
    var segment = 0
    func time(_ seconds: Double) -> MediaTime {
      MediaTime(seconds: seconds, preferredTimescale: 1_000_000)
    }
    func context() -> ABRContext {
      ABRContext(
        throughputBitsPerSecond: meter.estimate, lastTransferBitsPerSecond: meter.last,
        requestLatency: time(latency), bufferLevel: time(buffer),
        maximumBuffer: time(maximumBuffer), currentLevel: current,
        segmentDuration: time(segmentSeconds),
        remainingContent: time(Double(segments - segment - 1) * segmentSeconds),
        phase: !started ? .starting : (playing ? .playing : .stalled),
        constraints: constraints(segment))
    }
    func advance(_ seconds: Double) {
      now += seconds
      guard started else { return }
      if playing {
        if buffer >= seconds {
          buffer -= seconds
        } else {
          outcome.stallSeconds += seconds - buffer
          outcome.stallStarts.append(now - (seconds - buffer))
          buffer = 0
          playing = false
        }
      } else {
        outcome.stallSeconds += seconds
      }
    }
    while segment < segments {
      // Load only while one more segment fits under the maximum buffer.
      while buffer + segmentSeconds > maximumBuffer { advance(Self.step) }
      let level: Int
      let reason: ABRDecision.Reason
      if let target = forced {
        level = target
        reason = .abandoned
        forced = nil
      } else if segment == 0 && current == nil {
        level = controller.selectInitialLevel(levels: levels, context: context())
        reason = .initial
      } else {
        let decision = controller.selectLevel(levels: levels, context: context())
        level = decision.level
        reason = decision.reason
      }
      current = level
      outcome.steps.append(
        Step(
          segment: segment, level: level, reason: reason, requestTime: now,
          bufferAtRequest: buffer))
      let bitrate = Double(levels.first { $0.index == level }?.bandwidth ?? 0)
      let totalBits = bitrate * segmentSeconds
      let requestTime = now
      advance(latency)
      var loaded = 0.0
      var nextCheck = now + Self.progressInterval
      var abandonedTo: Int?
      while loaded < totalBits {
        loaded += bandwidth(now) * Self.step
        advance(Self.step)
        if loaded < totalBits, now >= nextCheck {
          nextCheck += Self.progressInterval
          let download = InProgressDownload(
            level: level, expectedBytes: Int64(totalBits / 8), loadedBytes: Int64(loaded / 8),
            elapsed: time(now - requestTime), timeToFirstByte: time(latency),
            segmentDuration: time(segmentSeconds))
          if let target = controller.shouldAbandon(
            levels: levels, download: download, context: context())
          {
            abandonedTo = target
            break
          }
        }
      }
      let elapsed = now - requestTime
      controller.didCompleteDownload(
        CompletedDownload(
          level: level, bytes: Int64(min(loaded, totalBits) / 8), duration: time(elapsed),
          timeToFirstByte: time(latency), segmentDuration: time(segmentSeconds),
          wasAbandoned: abandonedTo != nil))
      if let target = abandonedTo {
        outcome.steps[outcome.steps.count - 1].abandonedTo = target
        forced = target
        continue
      }
      meter.add(bits: totalBits, seconds: elapsed - latency)
      buffer += segmentSeconds
      started = true
      playing = true
      segment += 1
    }
    return outcome
  }

  /// The engine's meter as the tests model it: EWMAs with half-lives of 3 s and 8 s of
  /// download time, corrected for their zero start; the lower one.
  struct Meter {
    private var averages = [0.0, 0.0]
    private var weight = 0.0
    private let halfLives = [3.0, 8.0]
    private(set) var estimate: Double?
    private(set) var last: Double?

    mutating func add(bits: Double, seconds: Double) {
      guard seconds > 0 else { return }
      let sample = bits / seconds
      weight += seconds
      var lowest = Double.infinity
      for slot in 0..<2 {
        let alpha = pow(0.5, seconds / halfLives[slot])
        averages[slot] = alpha * averages[slot] + (1 - alpha) * sample
        lowest = min(lowest, averages[slot] / (1 - pow(0.5, weight / halfLives[slot])))
      }
      estimate = lowest
      last = sample
    }
  }
}

/// The ladder the ABR tests use: five levels from 300 kbit/s (360p) to 4 Mbit/s (1080p).
enum ABRTestLadder {
  static let levels: [BitrateLevel] = [
    BitrateLevel(index: 0, bandwidth: 300_000, width: 640, height: 360, label: "FD"),
    BitrateLevel(index: 1, bandwidth: 600_000, width: 854, height: 480, label: "LD"),
    BitrateLevel(index: 2, bandwidth: 1_200_000, width: 1280, height: 720, label: "SD"),
    BitrateLevel(index: 3, bandwidth: 2_500_000, width: 1280, height: 720),
    BitrateLevel(index: 4, bandwidth: 4_000_000, width: 1920, height: 1080, label: "HD"),
  ]

  /// A context with only the numbers most tests need.
  static func context(
    throughput: Double?, buffer: Double, current: Int? = nil,
    constraints: ABRConstraints = .none, remaining: Double? = nil, maximumBuffer: Double = 30
  ) -> ABRContext {
    ABRContext(
      throughputBitsPerSecond: throughput,
      bufferLevel: MediaTime(seconds: buffer, preferredTimescale: 1000),
      maximumBuffer: MediaTime(seconds: maximumBuffer, preferredTimescale: 1000),
      currentLevel: current, segmentDuration: MediaTime(value: 2, timescale: 1),
      remainingContent: remaining.map { MediaTime(seconds: $0, preferredTimescale: 1000) },
      constraints: constraints)
  }
}
