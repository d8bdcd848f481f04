import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadNet

/// What one segment download came to.
enum SegmentDownloadOutcome {
  /// The segment arrived (and was decrypted).
  case loaded(DownloadedSegment)
  /// The bitrate controller abandoned it; the same segment is to be loaded at this level.
  case abandoned(Int)
}

/// One segment download as the driver saw it, for the playback simulator's report.
struct HLSSegmentLoadRecord: Sendable {
  var mediaSequence: Int
  var level: Int
  /// The clock when the request was sent.
  var requestClock: MediaTime
  /// The clock when the last byte arrived, or when the download was abandoned.
  var endClock: MediaTime
  /// Bytes received.
  var bytes: Int
  /// The level the download was abandoned for; nil when it completed.
  var abandonedFor: Int?
}

/// What the progress callback of one segment load has seen; shared between the loading
/// thread (which runs the callback) and the downloader, behind a lock.
final class SegmentLoadWatch: Sendable {
  private let state = Locked(State())

  private struct State: Sendable {
    var loaded = 0
    var firstByte: MediaTime?
    var abandonTarget: Int?
  }

  /// Takes in one progress report: the bytes so far and, the first time it is known, the
  /// time to first byte (the source's, else the elapsed time of the first report with
  /// bytes).
  func note(_ progress: TransferProgress) {
    state.withLock { state in
      state.loaded = max(state.loaded, progress.bytesLoaded)
      if state.firstByte == nil {
        if let reported = progress.timeToFirstByte {
          state.firstByte = reported
        } else if progress.bytesLoaded > 0 {
          state.firstByte = progress.elapsed
        }
      }
    }
  }

  var bytesLoaded: Int { state.value.loaded }
  var timeToFirstByte: MediaTime? { state.value.firstByte }
  /// The level the controller abandoned the download for, once it has.
  var target: Int? {
    get { state.value.abandonTarget }
    set { state.withLock { $0.abandonTarget = newValue } }
  }
}

extension HLSDriver {
  /// How a segment's body load ended.
  enum SegmentTransfer {
    case completed(DataResponse)
    case abandoned(Int)
  }

  /// Loads a segment's bytes, offering the running download to the bitrate controller at
  /// every progress report; tells the controller (and the bandwidth meter, for a completed
  /// one) how it went.
  ///
  /// An abandoned load is not retried: the caller loads the same segment at the level the
  /// controller named. The meter samples completed loads only, as data sources report
  /// only those to their listeners.
  func loadSegmentBody(
    _ request: DataRequest, level: Int, segment: MediaSegment,
    through decryption: DataSourceDecorator?
  ) throws(PlayheadError) -> SegmentTransfer {
    let watch = SegmentLoadWatch()
    let duration = segment.duration
    let requestClock = clock.now
    let response: DataResponse
    do {
      response = try loader.load(
        request, through: decryption,
        stalledReportIntervalMs: configuration.stalledDownloadCheckIntervalMs
      ) { [self] progress in
        watch.note(progress)
        guard
          let target = abandonTarget(
            level: level, segmentDuration: duration, progress: progress,
            timeToFirstByte: watch.timeToFirstByte)
        else { return true }
        watch.target = target
        return false
      }
    } catch {
      guard error.code == .cancelled, let target = watch.target, !isStopped else { throw error }
      let endClock = clock.now
      logAbandonment(
        sequence: segment.mediaSequence, level: level, target: target,
        loadedBytes: watch.bytesLoaded, elapsed: endClock - requestClock)
      abr.didCompleteDownload(
        CompletedDownload(
          level: level, bytes: Int64(watch.bytesLoaded), duration: endClock - requestClock,
          timeToFirstByte: watch.timeToFirstByte, segmentDuration: duration, wasAbandoned: true))
      reportSegmentLoad(
        HLSSegmentLoadRecord(
          mediaSequence: segment.mediaSequence, level: level, requestClock: requestClock,
          endClock: endClock, bytes: watch.bytesLoaded, abandonedFor: target))
      return .abandoned(target)
    }
    bandwidthMeter.transferEnded(
      request: request, bytes: response.data.count, duration: response.duration)
    abr.didCompleteDownload(
      CompletedDownload(
        level: level, bytes: Int64(response.data.count), duration: response.duration,
        timeToFirstByte: watch.timeToFirstByte, segmentDuration: duration))
    reportSegmentLoad(
      HLSSegmentLoadRecord(
        mediaSequence: segment.mediaSequence, level: level, requestClock: response.startClock,
        endClock: response.endClock, bytes: response.data.count, abandonedFor: nil))
    return .completed(response)
  }

  /// The level the controller would restart a running download at, or nil to let it run.
  private func abandonTarget(
    level: Int, segmentDuration: MediaTime, progress: TransferProgress,
    timeToFirstByte: MediaTime?
  ) -> Int? {
    let ahead = bufferAhead(at: currentPlaybackPosition)
    let download = InProgressDownload(
      level: level, expectedBytes: progress.bytesExpected.map { Int64($0) },
      loadedBytes: Int64(progress.bytesLoaded), elapsed: progress.elapsed,
      timeToFirstByte: timeToFirstByte, segmentDuration: segmentDuration)
    let context = abrContext(bufferAhead: ahead, phase: playbackPhase(bufferAhead: ahead))
    guard
      let target = abr.shouldAbandon(levels: bitrateLevels, download: download, context: context),
      target != level, levels.indices.contains(target)
    else { return nil }
    return target
  }

  private func reportSegmentLoad(_ record: HLSSegmentLoadRecord) {
    lock.lock()
    let observer = segmentLoadObserver
    lock.unlock()
    observer?(record)
  }
}
