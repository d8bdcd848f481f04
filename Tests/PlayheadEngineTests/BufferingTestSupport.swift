import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// An HLS VOD stream cut finely for buffering tests: the fixture's six 2-second 144p
/// segments joined into one 12 s transport stream, cut into 24 byte ranges of about 0.5 s
/// (`EXTINF:0.5`), repeated `cycles` times under names of their own (`c0.ts`, `c1.ts`,
/// …) with a discontinuity between cycles. Parts of half a second make the startup and
/// rebuffer thresholds of the load control visible (a whole 2 s segment passes them all).
struct FineCutStream {
  static let partSeconds = 0.5
  static let partsPerCycle = 24

  static let base = URL(string: "http://buffering.test/")!
  let cycles: Int
  let resources: [URL: Data]
  /// The byte range of each part within its cycle file.
  let partRanges: [ByteRange]

  var playlistURL: URL { Self.base.appendingPathComponent("index.m3u8") }
  var durationSeconds: Double { Double(cycles * Self.partsPerCycle) * Self.partSeconds }

  init(cycles: Int) throws {
    self.cycles = cycles
    var media = Data()
    var ranges: [ByteRange] = []
    for index in 0..<6 {
      let segment = try Data(
        contentsOf: try Fixtures.url(String(format: "hls/144p/segment%03d.ts", index)))
      // Four parts per 2 s segment, cut at transport packet boundaries.
      let packets = segment.count / 188
      var start = 0
      for part in 1...4 {
        let end = part == 4 ? packets : packets * part / 4
        ranges.append(
          ByteRange(offset: Int64(media.count + start * 188), length: Int64((end - start) * 188)))
        start = end
      }
      media.append(segment)
    }
    partRanges = ranges
    var files: [URL: Data] = [:]
    var text =
      "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
    for cycle in 0..<cycles {
      if cycle > 0 { text += "#EXT-X-DISCONTINUITY\n" }
      let name = "c\(cycle).ts"
      files[Self.base.appendingPathComponent(name)] = media
      for range in ranges {
        text += "#EXTINF:0.5,\n#EXT-X-BYTERANGE:\(range.length!)@\(range.offset)\n\(name)\n"
      }
    }
    text += "#EXT-X-ENDLIST\n"
    files[Self.base.appendingPathComponent("index.m3u8")] = Data(text.utf8)
    resources = files
  }

  /// The item time at which the part that a segment request asked for starts.
  func startSeconds(of request: DataRequest) -> Double? {
    let name = request.url.deletingPathExtension().lastPathComponent
    guard name.hasPrefix("c"), let cycle = Int(name.dropFirst()),
      let range = request.range, let part = partRanges.firstIndex(of: range)
    else { return nil }
    return Double(cycle * Self.partsPerCycle + part) * Self.partSeconds
  }
}

/// A video sink that records, at every frame it is handed, the frame's item time and the
/// item's loaded time ranges and buffer flags as the playback thread published them in the
/// same step: what the buffer held when each frame (the first, the first after a stall)
/// was shown.
final class BufferProbeSink: VideoSink, @unchecked Sendable {
  struct Sample {
    var itemTime: MediaTime
    var ranges: [MediaTimeRange]
    var isFull: Bool
    var isLikelyToKeepUp: Bool

    /// The media loaded ahead of the frame, in the range that holds it.
    var aheadSeconds: Double {
      guard let range = ranges.first(where: { $0.start <= itemTime && itemTime <= $0.end })
      else { return 0 }
      return (range.end - itemTime).seconds
    }
  }

  private let lock = NSLock()
  private var stored: [Sample] = []
  private var watched: PlayerItem?

  /// Starts recording the buffer of `item`.
  func watch(_ item: PlayerItem) {
    lock.withLock { watched = item }
  }

  var samples: [Sample] { lock.withLock { stored } }

  func present(_ frame: VideoFrame, itemTime: MediaTime) throws(PlayheadError) {
    guard let item = lock.withLock({ watched }) else { return }
    let sample = Sample(
      itemTime: itemTime, ranges: item.loadedTimeRanges, isFull: item.isPlaybackBufferFull,
      isLikelyToKeepUp: item.isPlaybackLikelyToKeepUp)
    lock.withLock { stored.append(sample) }
  }

  /// The first sample at or after `time`.
  func firstSample(atOrAfter time: MediaTime) -> Sample? {
    samples.first { $0.itemTime + MediaTime(value: 1, timescale: 1000) >= time }
  }
}

/// A player over a `FineCutStream` served by a `SimulatedNetwork` on a driven clock.
final class FineCutRun {
  let stream: FineCutStream
  let driver = PlaybackClockDriver()
  let source: SimulatedNetwork
  let sink = BufferProbeSink()
  let item: PlayerItem
  let player: Player
  let recorder: EventRecorder

  /// `configure` adjusts the player's configuration (scene, settings, cache); `prepare`
  /// the item before it is played.
  init(
    cycles: Int, trace: NetworkTrace, configure: (inout PlayerConfiguration) -> Void = { _ in },
    prepare: (PlayerItem) -> Void = { _ in }
  ) throws {
    stream = try FineCutStream(cycles: cycles)
    source = SimulatedNetwork(resources: stream.resources, trace: trace, clock: driver.manual)
    var configuration = PlayerConfiguration(clock: driver.clock, videoSink: sink)
    configuration.network = source
    configure(&configuration)
    item = PlayerItem(url: stream.playlistURL)
    prepare(item)
    sink.watch(item)
    (player, recorder) = EventRecorder.recordingPlayer(item, configuration: configuration)
  }

  /// Plays the item to its end on the driven clock.
  func playToEnd(file: StaticString = #filePath, line: UInt = #line) {
    player.play()
    driver.drive(player, recorder: recorder, file: file, line: line)
  }

  /// The item times of the recoveries after stalls.
  var recoveryTimes: [MediaTime] {
    recorder.events.filter { $0.name == "playbackRecovered" }.map(\.itemTime)
  }

  /// The start times of the parts requested, in request order.
  var requestedPartStarts: [Double] {
    source.requestLog.filter { $0.request.purpose == .segment }.compactMap {
      stream.startSeconds(of: $0.request)
    }
  }

  func close() { player.close() }
}
