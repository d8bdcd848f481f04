import Foundation
import PlayheadCore

/// The playback simulator's stand-in for the demuxer, decoders and playback loop: it takes
/// segments from the driver's queue as they arrive and plays each for its declared
/// duration on the clock, never looking at their bytes.
///
/// Playback starts (and resumes after a stall) as the player does (decision 0025): once
/// the media buffered ahead of the play position satisfies the load control's
/// `shouldStartPlayback` (its startup buffer, or after a stall its buffer after a
/// rebuffer), or reaches the end of the content; without a load control, as soon as a
/// segment is buffered. It stalls when the play position reaches the end of the buffered
/// media before the end of the content.
///
/// State moves lazily: `position(at:)` plays from the last time asked up to the given
/// clock time, taking segment arrivals in clock order (each segment carries the clock of
/// its last byte), so the answer is exact however seldom it is asked. Thread-safe: the
/// state sits in a `Locked`.
final class PassThroughPlayback: Sendable {
  /// A segment taken from the queue, without its bytes.
  private struct Arrival: Sendable {
    var segment: HLSSimulationReport.Segment
    var end: MediaTime
  }

  private let state: Locked<State>

  /// The clock when playback started; nil before.
  var playbackStart: MediaTime? { state.withLock { $0.startedAt } }
  /// The segments that have arrived, in order.
  var segments: [HLSSimulationReport.Segment] { state.withLock { $0.played } }
  var stalls: [HLSSimulationReport.Stall] { state.withLock { $0.stallList } }
  var samples: [HLSSimulationReport.BufferSample] { state.withLock { $0.sampleList } }

  /// A consumer of `queue`'s `generation` from item time `start`, on a clock now at
  /// `clock`, for content that ends at `contentEnd`, sampling the buffer every
  /// `sampleInterval` from `clock`.
  /// `startRule` decides when playback may start or resume (nil: with any buffer).
  init(
    queue: HLSSegmentQueue, generation: Int, start: MediaTime, contentEnd: MediaTime,
    clock: MediaTime, sampleInterval: MediaTime,
    startRule: (@Sendable (MediaTime, Bool) -> Bool)? = nil
  ) {
    state = Locked(
      State(
        queue: queue, generation: generation, contentEnd: contentEnd,
        sampleInterval: sampleInterval, startRule: startRule, evaluatedAt: clock,
        position: start, bufferedEnd: start, nextSample: clock))
  }

  /// The play position at clock time `now` (not before the last time asked).
  func position(at now: MediaTime) -> MediaTime {
    state.withLock { state in
      state.advance(to: now)
      return state.position
    }
  }

  /// Plays out what is buffered once loading has ended at `now`; returns the clock when
  /// playback ended, or nil when nothing was ever buffered.
  func finish(at now: MediaTime) -> MediaTime? {
    state.withLock { state in
      state.advance(to: now)
      guard state.isPlaying else { return state.endClock }
      state.play(until: state.evaluatedAt + (state.bufferedEnd - state.position))
      return state.endClock
    }
  }

  /// The consumer's inputs and where playback has got to; reached only under the lock.
  private struct State: Sendable {
    let queue: HLSSegmentQueue
    let generation: Int
    let contentEnd: MediaTime
    let sampleInterval: MediaTime
    /// Whether playback may start (or resume, the flag set) with the buffer ahead given.
    let startRule: (@Sendable (MediaTime, Bool) -> Bool)?
    /// How close to the content's end playback counts as finished (rounding in durations).
    static let endTolerance = MediaTime(value: 1, timescale: 1000)

    var evaluatedAt: MediaTime
    var position: MediaTime
    var bufferedEnd: MediaTime
    var isPlaying = false
    var nextOrdinal = 0
    var pending: [Arrival] = []
    var nextSample: MediaTime
    var stallStart: MediaTime?
    var startedAt: MediaTime?
    var endClock: MediaTime?
    var played: [HLSSimulationReport.Segment] = []
    var stallList: [HLSSimulationReport.Stall] = []
    var sampleList: [HLSSimulationReport.BufferSample] = []

    init(
      queue: HLSSegmentQueue, generation: Int, contentEnd: MediaTime, sampleInterval: MediaTime,
      startRule: (@Sendable (MediaTime, Bool) -> Bool)?, evaluatedAt: MediaTime,
      position: MediaTime, bufferedEnd: MediaTime, nextSample: MediaTime
    ) {
      self.queue = queue
      self.generation = generation
      self.contentEnd = contentEnd
      self.sampleInterval = sampleInterval
      self.startRule = startRule
      self.evaluatedAt = evaluatedAt
      self.position = position
      self.bufferedEnd = bufferedEnd
      self.nextSample = nextSample
    }

    // MARK: Playing

    mutating func advance(to now: MediaTime) {
      takeArrivals()
      while let arrival = pending.first, arrival.segment.arrivalClock <= now {
        pending.removeFirst()
        play(until: max(evaluatedAt, arrival.segment.arrivalClock))
        bufferedEnd = max(bufferedEnd, arrival.end)
        var segment = arrival.segment
        segment.bufferAfterArrival = bufferedEnd - position
        played.append(segment)
        if !isPlaying && endClock == nil && bufferedEnd > position && mayStart() { startPlaying() }
      }
      play(until: now)
    }

    /// Whether the buffer ahead lets playback start (or resume after a stall).
    func mayStart() -> Bool {
      if bufferedEnd >= contentEnd - Self.endTolerance { return true }
      guard let startRule else { return true }
      return startRule(bufferedEnd - position, startedAt != nil)
    }

    /// Takes the segments that have reached the queue, dropping their bytes.
    mutating func takeArrivals() {
      let first = nextOrdinal
      while let next = queue.segmentIfLoaded(ordinal: nextOrdinal, generation: generation) {
        pending.append(
          Arrival(
            segment: HLSSimulationReport.Segment(
              mediaSequence: next.mediaSequence, level: next.level, itemStart: next.start,
              duration: next.duration, requestClock: next.requestClock,
              arrivalClock: next.arrivalClock, bytes: next.transferredBytes,
              bufferAfterArrival: .zero),
            end: next.end))
        nextOrdinal += 1
      }
      if nextOrdinal > first { queue.discard(before: nextOrdinal) }
    }

    mutating func startPlaying() {
      isPlaying = true
      if startedAt == nil {
        startedAt = evaluatedAt
      } else if let since = stallStart {
        stallList[stallList.count - 1].duration = evaluatedAt - since
        stallStart = nil
      }
    }

    /// Lets the clock run to `time`, sampling the buffer on the way.
    mutating func play(until time: MediaTime) {
      while evaluatedAt < time {
        let step = min(time, nextSample)
        run(to: step)
        if evaluatedAt == nextSample {
          sampleList.append(
            HLSSimulationReport.BufferSample(clock: nextSample, buffered: bufferedEnd - position))
          nextSample = nextSample + sampleInterval
        }
      }
      if evaluatedAt == nextSample {
        sampleList.append(
          HLSSimulationReport.BufferSample(clock: nextSample, buffered: bufferedEnd - position))
        nextSample = nextSample + sampleInterval
      }
    }

    /// Moves the clock to `time` with nothing arriving meanwhile.
    mutating func run(to time: MediaTime) {
      defer { evaluatedAt = time }
      guard isPlaying else { return }
      let elapsed = time - evaluatedAt
      let ahead = bufferedEnd - position
      let reachesEnd = bufferedEnd >= contentEnd - Self.endTolerance
      // A buffer that empties exactly at `time` stalls only if time passes empty.
      if elapsed < ahead || (elapsed == ahead && !reachesEnd) {
        position = position + elapsed
        return
      }
      position = bufferedEnd
      stop(at: evaluatedAt + ahead, ended: reachesEnd)
    }

    mutating func stop(at clock: MediaTime, ended: Bool) {
      isPlaying = false
      if ended {
        endClock = clock
      } else {
        stallStart = clock
        stallList.append(
          HLSSimulationReport.Stall(startClock: clock, duration: .zero, itemTime: position))
      }
    }
  }
}
