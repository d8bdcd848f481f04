import Foundation
import PlayheadCore
import PlayheadMedia

/// Finds the video frame shown at each of a rising series of times: decodes forward, and
/// seeks (to the keyframe at or before the time) when the next time is far ahead.
///
/// The frame shown at a time is the latest frame starting at or before it, as a snapshot
/// takes; a time before the first frame gets the first frame. Used by one thread.
final class ThumbnailFrameSampler {
  private let demuxer: Demuxer
  private let decoder: VideoDecoder
  private let streamIndex: Int
  /// Where packet timestamps start: item time 0.
  let startTime: MediaTime
  /// Times further ahead than this (from the last decoded frame) are reached by a seek.
  private let seekAhead: MediaTime
  /// The latest frame at or before the last time asked for.
  private var held: VideoFrame?
  /// The first frame after the last time asked for, already decoded.
  private var lookahead: VideoFrame?
  private var endOfStream = false
  private var sentEnd = false
  /// How many seeks and decoded frames it took (for summaries).
  private(set) var seekCount = 0
  private(set) var decodedFrameCount = 0

  /// Opens the best video stream of `demuxer`; throws `.noPlayableStreams` without one.
  init(demuxer: Demuxer, seekAheadSeconds: Double = 3) throws(PlayheadError) {
    guard let stream = demuxer.bestStream(of: .video), stream.hasDecoder else {
      throw PlayheadError(
        .noPlayableStreams, "no decodable video track in \(demuxer.url.absoluteString)",
        url: demuxer.url)
    }
    self.demuxer = demuxer
    streamIndex = stream.index
    decoder = try demuxer.makeVideoDecoder(streamIndex: stream.index, threadCount: 0)
    startTime = demuxer.startTime.isNumeric ? demuxer.startTime : .zero
    seekAhead = MediaTime(seconds: seekAheadSeconds, preferredTimescale: 1000)
  }

  /// The frame shown at item time `time` (times must not go down), and whether the time
  /// lies after the end of the last frame of the stream; nil when the stream has no frame.
  func frame(at time: MediaTime) throws(PlayheadError) -> (frame: VideoFrame, pastEnd: Bool)? {
    let target = time + startTime
    if let position = (lookahead ?? held)?.pts, position.isNumeric, target > position + seekAhead {
      try seek(to: target)
    }
    while true {
      let decoded: VideoFrame?
      if let lookahead {
        decoded = lookahead
        self.lookahead = nil
      } else {
        decoded = try nextFrame()
      }
      guard let frame = decoded else { break }
      if frame.pts.isNumeric, frame.pts > target {
        lookahead = frame
        break
      }
      held = frame
    }
    guard let held else {
      // The time is before the first frame: show the first frame.
      return lookahead.map { ($0, false) }
    }
    let pastEnd = lookahead == nil && endOfStream && !covers(held, target)
    return (held, pastEnd)
  }

  /// Whether `frame` is still on screen at `target` (within its duration, or the last
  /// frame of a stream without durations).
  private func covers(_ frame: VideoFrame, _ target: MediaTime) -> Bool {
    guard frame.pts.isNumeric, frame.duration.isNumeric, frame.duration > .zero else {
      return true
    }
    return target < frame.pts + frame.duration
  }

  private func seek(to target: MediaTime) throws(PlayheadError) {
    try demuxer.seek(to: target, streamIndex: streamIndex)
    decoder.flush()
    held = nil
    lookahead = nil
    endOfStream = false
    sentEnd = false
    seekCount += 1
  }

  /// The next decoded frame in presentation order; nil at the end of the stream.
  private func nextFrame() throws(PlayheadError) -> VideoFrame? {
    if endOfStream { return nil }
    while true {
      if let frame = try decoder.receiveFrame() {
        decodedFrameCount += 1
        return frame
      }
      if sentEnd {
        endOfStream = true
        return nil
      }
      if let packet = try demuxer.readPacket() {
        guard packet.streamIndex == streamIndex else { continue }
        try decoder.send(packet)
      } else {
        try decoder.send(nil)
        sentEnd = true
      }
    }
  }
}
