import Foundation
import PlayheadCore

/// A downloaded (and decrypted) segment waiting to be demuxed.
struct DownloadedSegment: Sendable {
  /// Position in the queue since the last restart; runs read consecutive ordinals.
  var ordinal: Int
  var level: Int
  var mediaSequence: Int
  var discontinuitySequence: Int
  /// Item time of the segment's start, from the playlist's durations.
  var start: MediaTime
  var duration: MediaTime
  /// The initialisation section (fMP4 `EXT-X-MAP`) this segment needs, if any.
  var initSection: Data?
  /// Identifies the initialisation section (its URI and range) so runs can tell a change.
  var initIdentity: String?
  var data: Data
  /// The clock when the segment's request was sent (its last attempt, after an
  /// abandonment at another level: the request that delivered it).
  var requestClock: MediaTime = .zero
  /// The clock when its last byte arrived.
  var arrivalClock: MediaTime = .zero
  /// The bytes received over the network (before decryption).
  var transferredBytes = 0
  /// The segment's URI and its media playlist's URL, for errors that name them.
  var uri: URL?
  var playlistURL: URL?
  /// Why the downloader chose this segment's level (what a rendition change that starts
  /// with it reports).
  var reason: VariantChangeReason = .throughput
  /// The key its samples are decrypted with (`SAMPLE-AES`, `SAMPLE-AES-CTR`); nil when
  /// its samples are clear (or the whole segment was decrypted as it loaded).
  var sampleKey: SegmentSampleKey?

  var end: MediaTime { start + duration }

  /// Whether `next` can follow this segment in the same demuxer run (not across a
  /// failover to a redundant copy, whose run reports the change of URI).
  func continues(into next: DownloadedSegment) -> Bool {
    next.level == level && next.reason != .failover
      && next.discontinuitySequence == discontinuitySequence
      && next.initIdentity == initIdentity && next.mediaSequence == mediaSequence + 1
  }
}

/// The segments downloaded ahead of the demuxer, shared by the downloader thread (which
/// appends) and the loader thread (which reads them through runs).
final class HLSSegmentQueue: @unchecked Sendable {
  // Unchecked Sendable: every `var` is guarded by `condition`, released while a reader or
  // the downloader waits on the clock.
  private let condition = NSLock()
  /// The clock the reader and the downloader wait on.
  private let clock: any Clock
  /// Raised at every change, one for the reader (a run waiting for a segment) and one for
  /// the downloader (waiting for space).
  private let readerSignal = WakeSignal()
  private let writerSignal = WakeSignal()

  init(clock: any Clock) { self.clock = clock }

  private func wakeWaiters() {
    readerSignal.raise()
    writerSignal.raise()
  }
  private var segments: [DownloadedSegment] = []
  private var nextOrdinal = 0
  private var ended = false
  private var failure: PlayheadError?
  private var cancelled = false
  /// The end of the last segment appended in this generation; kept when readers take and
  /// discard segments, as their media still lies ahead of the play position.
  private var lastEnd: MediaTime?
  /// The start of the first segment appended in this generation.
  private var firstStart: MediaTime?
  /// Bumped on every restart; readers of an older generation see the end.
  private(set) var generation = 0
  /// How many readers wait in `segment(ordinal:generation:)` for a segment not queued yet.
  private var waitingReaders = 0
  /// Set while the downloader holds back on a full buffer, with the buffer it saw ahead
  /// of the play position (by the playlist's durations); cleared when it loads again.
  private var parkedAhead: MediaTime?
  /// Called (without the lock held) when the queue becomes starved (see `isStarved`).
  var onStarved: (@Sendable () -> Void)?

  /// Adds a downloaded segment (ignored when `generation` is stale).
  func append(_ segment: DownloadedSegment, generation: Int) {
    condition.lock()
    defer { condition.unlock() }
    guard generation == self.generation else { return }
    var stamped = segment
    stamped.ordinal = nextOrdinal
    nextOrdinal += 1
    segments.append(stamped)
    if firstStart == nil { firstStart = stamped.start }
    lastEnd = stamped.end
    wakeWaiters()
  }

  /// Marks the end of the media (VOD end list reached) for `generation`.
  func finish(generation: Int) {
    condition.lock()
    if generation == self.generation { ended = true }
    wakeWaiters()
    condition.unlock()
  }

  /// Ends loading with `error` for `generation`; readers get it once the queue is drained.
  func fail(_ error: PlayheadError, generation: Int) {
    condition.lock()
    if generation == self.generation { failure = error }
    wakeWaiters()
    condition.unlock()
  }

  /// Forgets everything and starts a new generation (a seek).
  @discardableResult
  func restart() -> Int {
    condition.lock()
    defer { condition.unlock() }
    segments.removeAll()
    nextOrdinal = 0
    lastEnd = nil
    firstStart = nil
    ended = false
    failure = nil
    parkedAhead = nil
    generation += 1
    wakeWaiters()
    return generation
  }

  /// Tells the queue that the downloader holds back (`ahead` buffered by the playlist's
  /// durations) or, with nil, that it loads again.
  func setDownloaderParked(ahead: MediaTime?) {
    condition.lock()
    let wasStarved = isStarvedLocked
    parkedAhead = ahead
    let starved = isStarvedLocked
    let handler = onStarved
    condition.unlock()
    if starved && !wasStarved { handler?() }
  }

  /// Whether a reader waits for a segment that the downloader holds back: loading waits
  /// for playback to move, and playback for that segment. Nothing ends this but a seek,
  /// a stop, or the player's no-progress watchdog.
  var isStarved: Bool {
    condition.lock()
    defer { condition.unlock() }
    return isStarvedLocked
  }

  /// The buffer the downloader saw ahead when it held back, while the queue is starved.
  var starvedAhead: MediaTime? {
    condition.lock()
    defer { condition.unlock() }
    return isStarvedLocked ? parkedAhead : nil
  }

  private var isStarvedLocked: Bool {
    waitingReaders > 0 && parkedAhead != nil && !ended && failure == nil && !cancelled
  }

  /// Wakes every waiter for good.
  func cancel() {
    condition.lock()
    cancelled = true
    wakeWaiters()
    condition.unlock()
  }

  /// The segment with `ordinal`, waiting for it; nil at the end of the media or of the
  /// generation. Throws the loading error, or `.cancelled`.
  func segment(ordinal: Int, generation: Int) throws(PlayheadError) -> DownloadedSegment? {
    condition.lock()
    defer { condition.unlock() }
    var toldStarved = false
    while true {
      if cancelled { throw PlayheadError(.cancelled, "HLS loading was stopped") }
      if generation != self.generation { return nil }
      if let found = segments.first(where: { $0.ordinal == ordinal }) { return found }
      if let failure { throw failure }
      if ended { return nil }
      waitingReaders += 1
      if !toldStarved && isStarvedLocked, let handler = onStarved {
        // Still counted as waiting while the handler runs; then look again, as the queue
        // may have changed meanwhile.
        toldStarved = true
        condition.unlock()
        handler()
        condition.lock()
        waitingReaders -= 1
        continue
      }
      condition.unlock()
      clock.wait(for: readerSignal)
      condition.lock()
      waitingReaders -= 1
    }
  }

  /// Whether the media of `generation` is known to end before the segment with `ordinal`:
  /// the end list was reached and that segment was never queued. False while loading
  /// goes on, and after a restart to another generation.
  func hasEnded(before ordinal: Int, generation: Int) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard generation == self.generation, ended, failure == nil else { return false }
    return nextOrdinal <= ordinal
  }

  /// Whether `segment(ordinal:generation:)` would wait now: that segment is not here and
  /// loading of `generation` goes on (not ended, failed, cancelled or restarted).
  func wouldWait(forOrdinal ordinal: Int, generation: Int) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard !cancelled, generation == self.generation, failure == nil, !ended else {
      return false
    }
    return !segments.contains { $0.ordinal == ordinal }
  }

  /// The segment with `ordinal` if it is already here, without waiting; nil otherwise
  /// (also after a restart to another generation or once it was discarded).
  func segmentIfLoaded(ordinal: Int, generation: Int) -> DownloadedSegment? {
    condition.lock()
    defer { condition.unlock() }
    guard generation == self.generation else { return nil }
    return segments.first { $0.ordinal == ordinal }
  }

  /// The loading error of `generation`, if loading failed.
  func failure(generation: Int) -> PlayheadError? {
    condition.lock()
    defer { condition.unlock() }
    return generation == self.generation ? failure : nil
  }

  /// Drops segments before `ordinal` (read by their run) to bound memory.
  func discard(before ordinal: Int) {
    condition.lock()
    segments.removeAll { $0.ordinal < ordinal }
    condition.unlock()
  }

  /// The end of the last downloaded segment of the current generation, whether or not a
  /// run has taken it yet; nil until one has been appended since the last restart.
  var bufferedEnd: MediaTime? {
    condition.lock()
    defer { condition.unlock() }
    return lastEnd
  }

  /// What the queue holds for the current generation, read under one lock: the item
  /// time from the first segment appended to the end of the last (nil before one), whether
  /// loading is over (every segment to the end, or to the forward end, is here, or loading
  /// failed: nothing more will come, and readers get the error after what is here), and
  /// whether the downloader holds back.
  var holdings: (range: MediaTimeRange?, loadingOver: Bool, parked: Bool) {
    condition.lock()
    defer { condition.unlock() }
    var range: MediaTimeRange?
    if let firstStart, let lastEnd, lastEnd > firstStart {
      range = MediaTimeRange(start: firstStart, end: lastEnd)
    }
    return (range, ended || failure != nil, parkedAhead != nil)
  }

  /// Blocks until the queue changes (a restart, a cancel, a reader taking a segment) or,
  /// with a `timeout`, until that much clock time passes; used by the downloader to wait
  /// for buffer space or, once loading is over, for a seek. Returns false when cancelled.
  func waitForChange(timeout: MediaTime? = nil) -> Bool {
    condition.lock()
    let wasCancelled = cancelled
    condition.unlock()
    if wasCancelled { return false }
    if let timeout {
      clock.wait(until: clock.now + timeout, orUntil: writerSignal)
    } else {
      clock.wait(for: writerSignal)
    }
    condition.lock()
    defer { condition.unlock() }
    return !cancelled
  }
}
