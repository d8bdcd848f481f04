import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadMedia
import PlayheadNet

/// A stretch of an item's media that one demuxer reads: the whole file for progressive
/// media, or consecutive HLS segments of one rendition with no discontinuity.
final class MediaRun: Sendable {
  let demuxer: Demuxer
  /// The item time the run's first sample maps to.
  let itemStart: MediaTime
  /// What the driver needs to find the run's successor (the HLS run feed).
  let context: (any AnyObject & Sendable)?
  /// A timestamp jump larger than this inside the run, with no discontinuity to mark it,
  /// is re-based (HLS: the target duration); nil takes timestamps as they are.
  let timestampJumpThreshold: MediaTime?

  init(
    demuxer: Demuxer, itemStart: MediaTime, context: (any AnyObject & Sendable)? = nil,
    timestampJumpThreshold: MediaTime? = nil
  ) {
    self.demuxer = demuxer
    self.itemStart = itemStart
    self.context = context
    self.timestampJumpThreshold = timestampJumpThreshold
  }
}

/// Where an item's media comes from, as runs of demuxable bytes.
///
/// The item loader asks for the first run, for the run after the current one when it
/// ends, and for a fresh run when the player seeks (a driver that can seek inside its
/// run returns nil and the loader seeks the demuxer instead).
protocol MediaSourceDriver: AnyObject, Sendable {
  /// The run to start playing with.
  func firstRun() throws(PlayheadError) -> MediaRun
  /// Whether seeks make new runs (HLS) rather than seeking the demuxer (progressive).
  var seeksByRuns: Bool { get }
  /// A run that starts at or before `time`, or nil to seek inside the current run.
  func run(at time: MediaTime) throws(PlayheadError) -> MediaRun?
  /// The run after `run`, or nil when the media has ended.
  func nextRun(after run: MediaRun) throws(PlayheadError) -> MediaRun?
  /// Whether `run` is known, without waiting, to be the media's last: no run follows it.
  /// False while that is not known yet (a live stream, a VOD playlist still loading).
  func isLastRun(_ run: MediaRun) -> Bool
  /// The item's duration (`.indefinite` for live streams).
  var duration: MediaTime { get }
  /// Bytes read from the network or disk so far.
  var bytesRead: Int64 { get }
  /// VOD, live or live DVR.
  var streamKind: StreamKind { get }
  /// All renditions, lowest bandwidth first (empty for progressive media).
  var variants: [VariantInfo] { get }
  /// The range a live stream can be seeked in now (nil: the whole duration).
  var seekableRange: MediaTimeRange? { get }
  /// Where a seek to `time` goes: live streams hold it inside the playlist's window and
  /// at least one target duration before the live edge, so that media after the target
  /// has been published; other media return `time`.
  func seekTarget(for time: MediaTime) -> MediaTime
  /// The alternate renditions (audio, subtitles, …) the stream offers.
  var renditions: [RenditionInfo] { get }
  /// The I-frame (trick play) variants the stream offers.
  var iFrameVariants: [VariantInfo] { get }
  /// The server-side ad periods the stream marks, on the item timeline (HLS VOD).
  var serverSideAdPeriods: [AdPeriod] { get }
  /// The HLS Interstitials of the playlist being played, on the item timeline, read again
  /// after every playlist load; nil for media without any.
  var interstitialSchedule: InterstitialSchedule? { get }
  /// The rendition of `run`, when the media has renditions.
  func variant(of run: MediaRun) -> VariantInfo?
  /// Why the rendition of `run` was chosen, when the media has renditions.
  func variantReason(of run: MediaRun) -> VariantChangeReason?
  /// The bandwidth estimate and the speed of the last transfer, in bits per second.
  var bandwidth: (estimate: Double, lastTransfer: Double)? { get }
  /// The current download speed in bits per second (SPEC S9): the last transfer's speed
  /// (an HLS segment's, a stretch of a progressive file's); nil before one was measured.
  var downloadSpeed: Double? { get }
  /// Called as soon as a seek is requested (from the playback thread), before the loader
  /// asks for the new run, so the driver can stop loading what is no longer needed and
  /// wake a read that waits for it.
  func willSeek(to time: MediaTime)
  /// Applies new limits on rendition choice from the next segment on.
  func updateSelection(_ selection: VariantSelection)
  /// Tells the driver where playback is, so it can keep its buffer ahead of it.
  func playbackPositionChanged(_ position: MediaTime)
  /// Stops all loading and interrupts blocking reads.
  func stop()
  /// Sets what to call when the driver's reported state (the live window) changes on
  /// its own thread.
  func setChangeHandler(_ handler: @escaping @Sendable () -> Void)
  /// The alternate renditions of `kind` in the group of `run`'s variant (of the variant
  /// loading now when `run` is nil); empty when there are none.
  func alternateRenditions(_ kind: AlternateKind, for run: MediaRun?) -> [RenditionInfo]
  /// Opens an alternate audio rendition as a source of its own, from the segment that
  /// holds `time`, on this source's timeline.
  func openAlternate(_ rendition: RenditionInfo, at time: MediaTime) throws(PlayheadError)
    -> any MediaSourceDriver
  /// Loads the segment list of a subtitle rendition.
  func subtitleSegments(of rendition: RenditionInfo) throws(PlayheadError) -> SubtitleSegmentList
  /// What the source is doing now, for the playback loop's no-progress watchdog.
  var activity: SourceActivity { get }
  /// Whether the media is encrypted (an HLS key or session key with a method other than
  /// NONE); progressive files Playhead opens are clear.
  var hasProtectedContent: Bool { get }
  /// What the source holds ahead of the demuxer, for the item's loaded time ranges and
  /// the start rule; `demuxedUpTo` is where the demuxer has read to in this stretch
  /// (progressive media counts the bytes read ahead of it from there).
  func buffer(demuxedUpTo: MediaTime?) -> SourceBuffer
  /// Sets what to call, on the driver's thread, with each error the driver recovered from
  /// (a failed redundant URI it failed over from); errors from before are handed over at
  /// once.
  func setRecoverableErrorHandler(_ handler: @escaping @Sendable (PlayheadError) -> Void)
}

extension MediaSourceDriver {
  var hasProtectedContent: Bool { false }
  func buffer(demuxedUpTo: MediaTime?) -> SourceBuffer { .unknown }
  func setRecoverableErrorHandler(_ handler: @escaping @Sendable (PlayheadError) -> Void) {}
}

extension MediaSourceDriver {
  /// The speed of the last transfer the bandwidth meter saw.
  var downloadSpeed: Double? { bandwidth?.lastTransfer }
}

/// What a media source is doing, as the no-progress watchdog sees it.
struct SourceActivity: Sendable, Equatable {
  /// Network work is under way that has its own time limit: a request in flight (with its
  /// retries), or a timed wait for a live playlist reload.
  var isBusy = false
  /// A reader waits for media that the source will not fetch until playback moves (an
  /// HLS run waits for a segment while the downloader holds back on a full buffer): a
  /// state nothing but the watchdog can end.
  var isStarved = false
  /// What the source waits for, for the watchdog's message (empty when nothing).
  var detail = ""
  /// Bytes the source has delivered so far (a count that grows is progress).
  var bytesDelivered: Int64 = 0

  /// This source's activity together with `other`'s (an alternate rendition's).
  func merged(with other: SourceActivity?) -> SourceActivity {
    guard let other else { return self }
    return SourceActivity(
      isBusy: isBusy || other.isBusy, isStarved: isStarved || other.isStarved,
      detail: [detail, other.detail].filter { !$0.isEmpty }.joined(separator: "; "),
      bytesDelivered: bytesDelivered + other.bytesDelivered)
  }
}

/// One progressive file: a single run, seeking inside the demuxer.
final class ProgressiveDriver: MediaSourceDriver, Sendable {
  private let demuxer: Demuxer

  init(demuxer: Demuxer) {
    self.demuxer = demuxer
  }

  /// The reader the demuxer reads the file through.
  private var reader: DataSourceReader { demuxer.reader }

  func firstRun() throws(PlayheadError) -> MediaRun {
    MediaRun(demuxer: demuxer, itemStart: .zero)
  }

  var seeksByRuns: Bool { false }

  func run(at time: MediaTime) throws(PlayheadError) -> MediaRun? { nil }

  func nextRun(after run: MediaRun) throws(PlayheadError) -> MediaRun? { nil }

  func isLastRun(_ run: MediaRun) -> Bool { true }

  var duration: MediaTime { demuxer.duration }

  var bytesRead: Int64 { reader.bytesRead }

  var streamKind: StreamKind { .vod }

  var variants: [VariantInfo] { [] }

  var renditions: [RenditionInfo] { [] }

  var seekableRange: MediaTimeRange? { nil }

  func seekTarget(for time: MediaTime) -> MediaTime { time }

  var iFrameVariants: [VariantInfo] { [] }

  var serverSideAdPeriods: [AdPeriod] { [] }

  var interstitialSchedule: InterstitialSchedule? { nil }

  func variant(of run: MediaRun) -> VariantInfo? { nil }

  func variantReason(of run: MediaRun) -> VariantChangeReason? { nil }

  var bandwidth: (estimate: Double, lastTransfer: Double)? { nil }

  /// The HTTP source's last measured speed (nil for local files and cached reads).
  var downloadSpeed: Double? { reader.bufferState?.downloadSpeedBitsPerSecond }

  func playbackPositionChanged(_ position: MediaTime) {}

  func willSeek(to time: MediaTime) {}

  func updateSelection(_ selection: VariantSelection) {}

  func stop() {
    demuxer.interrupt()
  }

  /// The source's handler runs as its bytes held grow (HTTP body bytes, cache chunks).
  func setChangeHandler(_ handler: @escaping @Sendable () -> Void) {
    reader.setBufferChangeHandler(handler)
  }

  /// A local file holds all of the media; an HTTP source the bytes it read ahead of the
  /// demuxer (at the file's mean byte rate, from where the demuxer is) and, through a cache,
  /// the bytes on disk (in proportion to the duration). Decision 0025.
  func buffer(demuxedUpTo: MediaTime?) -> SourceBuffer {
    guard let state = reader.bufferState else { return .unknown }
    let duration = demuxer.duration
    let hasDuration = duration.isNumeric && duration > .zero
    if state.isLocal {
      return SourceBuffer(
        ranges: hasDuration ? [MediaTimeRange(start: .zero, end: duration)] : [],
        isKnown: true, reachesEnd: true, isHoldingBack: true)
    }
    var ranges: [MediaTimeRange] = []
    let length = reader.length ?? 0
    if let from = demuxedUpTo, from.isNumeric {
      if state.reachesEnd, hasDuration, duration > from {
        ranges.append(MediaTimeRange(start: from, end: duration))
      } else if state.bytesAhead > 0, hasDuration, length > 0 {
        let ahead = duration.multiplied(byRatio: state.bytesAhead, denominator: length)
        ranges.append(MediaTimeRange(start: from, duration: ahead))
      }
    }
    if hasDuration, length > 0 {
      ranges += MediaTimeRange.proportional(state.cachedRanges, length: length, duration: duration)
    }
    return SourceBuffer(
      ranges: MediaTimeRange.merged(ranges), isKnown: true, reachesEnd: state.reachesEnd,
      isHoldingBack: state.isHoldingBack)
  }

  /// The file's audio streams, when it has two or more (`ProgressiveAudio`), and its text
  /// subtitle streams (`ProgressiveText`).
  func alternateRenditions(_ kind: AlternateKind, for run: MediaRun?) -> [RenditionInfo] {
    switch kind {
    case .audio: return ProgressiveAudio.renditions(of: demuxer)
    case .subtitles: return ProgressiveText.renditions(of: demuxer)
    }
  }

  func openAlternate(_ rendition: RenditionInfo, at time: MediaTime) throws(PlayheadError)
    -> any MediaSourceDriver
  {
    throw PlayheadError(
      .invalidState, "progressive media plays its audio streams from its own demuxer")
  }

  func subtitleSegments(of rendition: RenditionInfo) throws(PlayheadError) -> SubtitleSegmentList {
    throw PlayheadError(
      .invalidState, "progressive media reads its subtitle streams from its own demuxer")
  }

  /// Busy while a read is under way (an HTTP read has its own timeout); never starved.
  var activity: SourceActivity {
    let reading = reader.isReading
    return SourceActivity(
      isBusy: reading, detail: reading ? "a read of the media is under way" : "",
      bytesDelivered: reader.bytesRead)
  }
}
