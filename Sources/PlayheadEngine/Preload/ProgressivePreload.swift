import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// Preloads a progressive file by demuxing it through a `CacheByteSource` until every
/// audio and video stream has reached the duration: the bytes FFmpeg reads (the header,
/// a trailing `moov`, and the media data up to that time) land in the cache, in the
/// cache's chunks, which are the chunks a player reading through the cache asks for.
///
/// The content is sniffed first: an HLS playlist under another name is left to the HLS
/// preload (`run` returns nil), a DASH manifest or an ffconcat script is refused.
struct ProgressivePreload {
  let job: PreloadJob
  let cache: MediaCache

  mutating func run() throws(PlayheadError) -> PreloadReport? {
    let url = job.task.url
    let settings = job.configuration
    let dataSource = job.makeCacheDataSource(cache, http: settings.http)
    // No read-ahead: the preload asks for exactly the chunks the demuxer reads.
    let source = CacheByteSource(
      url: url, dataSource: dataSource,
      chunkBytes: max(4096, cache.configuration.progressiveChunkBytes), readAheadChunks: 0)
    job.loader.register(job) { source.cancel() }
    defer { source.cancel() }
    try source.open()
    try job.checkpoint()
    let (content, sniffed) = try ContentSniffer.sniff(source)
    if let refusal = content.refusal(at: url) { throw refusal }
    if content == .hlsPlaylist { return nil }
    let demuxer = try Demuxer(source: sniffed)
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
      bytesFromNetwork: dataSource.bytesFromUpstream,
      bytesFromCache: dataSource.bytesFromCache)
  }
}
