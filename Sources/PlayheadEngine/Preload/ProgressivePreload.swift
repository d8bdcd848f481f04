import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// Preloads a progressive file by demuxing it through the cache until every audio and
/// video stream has reached the duration: the bytes FFmpeg reads (the header, a trailing
/// `moov`, and the media data up to that time) land in the cache, where a player reading
/// through the cache finds them.
///
/// The content is sniffed first: an HLS playlist under another name is left to the HLS
/// preload (`run` returns nil), a DASH manifest or an ffconcat script is refused.
struct ProgressivePreload {
  let job: PreloadJob
  let cache: MediaCache
  /// Set by `run()` when the content turned out to be a DASH manifest.
  private(set) var foundDASH = false

  mutating func run() throws(PlayheadError) -> PreloadReport? {
    let url = job.task.url
    let stack = job.makeStack(cache)
    let reader = DataSourceReader(
      source: stack.stack.makeDataSource(), request: DataRequest(url: url, purpose: .media))
    job.loader.register(job) { reader.cancel() }
    defer { reader.close() }
    try reader.open()
    try job.checkpoint()
    let content = try ContentSniffer.sniff(reader)
    foundDASH = content == .dashManifest
    if content == .hlsPlaylist || foundDASH { return nil }
    if let refusal = content.refusal(at: url) { throw refusal }
    let demuxer = try Demuxer(reader: reader)
    let wanted = Set(
      demuxer.streams.filter { ($0.kind == .video || $0.kind == .audio) && !$0.isAttachedPicture }
        .map(\.index))
    guard !wanted.isEmpty else {
      throw PlayheadError(
        .noPlayableStreams, "no audio or video stream in \(url.absoluteString)", url: url)
    }
    let origin = demuxer.startTime.isNumeric ? demuxer.startTime : .zero
    let target = origin + job.task.config.duration
    var reached: [Int: MediaTime] = [:]
    var ended = false
    while job.task.config.durationMs > 0 {
      let done = wanted.allSatisfy { index in reached[index].map { $0 >= target } ?? false }
      if done { break }
      try job.checkpoint()
      guard let packet = try demuxer.readPacket() else {
        ended = true
        break
      }
      guard wanted.contains(packet.streamIndex) else { continue }
      let time = packet.pts.isNumeric ? packet.pts : packet.dts
      guard time.isNumeric else { continue }
      let end = packet.duration.isNumeric ? time + packet.duration : time
      reached[packet.streamIndex] = max(reached[packet.streamIndex] ?? end, end)
    }
    let coveredEnd = wanted.compactMap { reached[$0] }.min() ?? origin
    let covered =
      ended && demuxer.duration.isNumeric
      ? demuxer.duration : max(.zero, min(coveredEnd, target) - origin)
    return PreloadReport(
      url: url, variant: nil, audioRendition: nil, cachedDuration: covered, resources: [url],
      bytesFromNetwork: stack.bytesFromNetwork, bytesFromCache: stack.bytesFromCache)
  }
}
