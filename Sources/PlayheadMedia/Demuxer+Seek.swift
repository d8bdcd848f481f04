import CFFmpeg
import Foundation
import PlayheadCore

extension Demuxer {
  /// Seeks so that the next packets of `streamIndex` start at the keyframe at or before
  /// `time`.
  ///
  /// `time` is in the streams' own timeline (the one packet timestamps use, which starts at
  /// `startTime`). With `streamIndex` nil the default video stream is used, or no stream in
  /// particular for audio-only media. For containers without a keyframe index (MPEG-TS)
  /// the demuxer reads ahead to the first keyframe and, when that lands after `time`,
  /// seeks further back; packets of other streams read on the way are kept. A time before
  /// the start lands on the first keyframe.
  public func seek(to time: MediaTime, streamIndex: Int?) throws(PlayheadError) {
    guard time.isNumeric else {
      throw PlayheadError(.invalidArgument, "Cannot seek to a non-numeric time \(time)", url: url)
    }
    let target: StreamInfo?
    if let streamIndex {
      target = try streamInfo(streamIndex)
    } else {
      target = bestStream(of: .video)
    }
    queuedPackets.removeAll(keepingCapacity: true)
    queueHead = 0
    // Successive seek points: the target, then further back, then the very start.
    let backoffSeconds: [Double] = [0, 1, 3, 7, 15, 31]
    for (attempt, backoff) in backoffSeconds.enumerated() {
      let seekTime = time - MediaTime(seconds: backoff, preferredTimescale: 1000)
      let atStart = seekTime <= startTime || attempt == backoffSeconds.count - 1
      // Aiming before the first timestamp makes every container land on its first packet.
      let aim = atStart ? startTime - MediaTime(value: 10, timescale: 1) : seekTime
      try seekContainer(to: aim, streamIndex: target?.index)
      guard let target, target.kind == .video else { return }
      if try scanToKeyframe(of: target.index, notAfter: time, acceptAny: atStart) { return }
      if atStart { return }
    }
  }

  /// One libavformat seek with backward semantics; falls back to any direction.
  private func seekContainer(to time: MediaTime, streamIndex: Int?) throws(PlayheadError) {
    let index: Int32
    let timeBase: AVRational
    if let streamIndex, let stream = format.stream(streamIndex) {
      index = Int32(streamIndex)
      timeBase = stream.pointee.time_base
    } else {
      index = -1
      timeBase = AVRational(num: 1, den: CFFmpeg_AV_TIME_BASE())
    }
    guard let ticks = time.ticks(in: timeBase) else {
      throw PlayheadError(.invalidArgument, "Cannot seek to \(time)", url: url)
    }
    format.io.state.clearFailure()
    var result = av_seek_frame(format.raw, index, ticks, AVSEEK_FLAG_BACKWARD)
    if result < 0 && format.io.state.pendingError == nil && !format.io.state.isInterrupted {
      result = avformat_seek_file(format.raw, index, Int64.min, ticks, Int64.max, 0)
    }
    guard result >= 0 else {
      if let error = format.io.state.takePendingError() { throw error }
      if format.io.state.isInterrupted {
        throw PlayheadError(.cancelled, "Seeking \(url.absoluteString) was cancelled", url: url)
      }
      throw FFmpegError.make(
        .ioError, "Could not seek \(url.absoluteString) to \(time.seconds) s", code: result,
        url: url)
    }
  }

  /// Reads up to the first keyframe of stream `index`, queueing it and the other streams'
  /// packets read on the way (the stream's earlier non-keyframes are dropped).
  ///
  /// Returns false, queueing nothing, when that keyframe starts after `time` and
  /// `acceptAny` is false. Reaching the end queues what was read and returns true.
  private func scanToKeyframe(of index: Int, notAfter time: MediaTime, acceptAny: Bool)
    throws(PlayheadError) -> Bool
  {
    var pending: [Packet] = []
    while let packet = try readFromContainer() {
      if packet.streamIndex != index {
        pending.append(packet)
        continue
      }
      guard packet.isKeyframe else { continue }
      let start = packet.pts.isNumeric ? packet.pts : packet.dts
      if !acceptAny, start.isNumeric, start > time {
        return false
      }
      pending.append(packet)
      queuedPackets = pending
      queueHead = 0
      return true
    }
    queuedPackets = pending
    queueHead = 0
    return true
  }
}
