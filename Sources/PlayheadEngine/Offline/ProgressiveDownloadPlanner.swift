import Foundation
import PlayheadCore
import PlayheadNet

/// Prepares and plans the download of one progressive file (MP4, MP3, WebM…).
enum ProgressiveDownloadPlanner {
  /// Probes `url` (its length, duration and streams) and lists it as one `.file` track.
  ///
  /// With a `refresher`, an expired URL is refreshed first and the probe reads the fresh
  /// one; the media info keeps `url`. Returns nil when the content is an HLS playlist
  /// under another name (the caller prepares it as a stream); throws `.unsupportedFormat`
  /// for a DASH manifest or an ffconcat script.
  static func mediaInfo(
    _ url: URL, id: DownloadID, configuration: DownloadConfiguration,
    refresher: SourceRefresher? = nil
  ) throws(PlayheadError) -> DownloadMediaInfo? {
    let http = HTTPRequestConfiguration(configuration.request)
    let (length, content) = try probeHead(url, http: http, refresher: refresher)
    if let refusal = content.refusal(at: url) { throw refusal }
    if content == .hlsPlaylist { return nil }
    let asset = Asset(url: refresher?.currentURL(for: url) ?? url, http: http)
    let probe = try asset.loadSynchronously()
    probe.driver?.stop()
    let codecs = probe.tracks.map(\.codec).joined(separator: ",")
    let track = DownloadTrack(
      trackIndex: 0, kind: .file, codecs: codecs.isEmpty ? nil : codecs,
      name: url.lastPathComponent, isDefault: true, estimatedSizeBytes: length)
    let seconds = probe.duration.isNumeric ? probe.duration.seconds : nil
    return DownloadMediaInfo(
      id: id, sourceURL: url, kind: .progressive, durationSeconds: seconds, tracks: [track])
  }

  /// The file's length from its first response (nil when the server does not tell) and
  /// what its first bytes are.
  private static func probeHead(
    _ url: URL, http: HTTPRequestConfiguration, refresher: SourceRefresher?
  ) throws(PlayheadError) -> (Int64?, SniffedContent) {
    let source = try ByteSources.open(url, http: http, cache: nil, refresher: refresher)
    let length = source.length
    let (content, _) = try ContentSniffer.sniff(source)
    // A refreshing source's `cancel()` would stop its refresher for good; its request
    // stops when it is released, on return.
    if !(source is RefreshingByteSource) { source.cancel() }
    return (length, content)
  }

  /// The plan: the file as `media.<ext>`.
  static func plan(_ info: DownloadMediaInfo, encryptionKeyID: String?) -> DownloadPlan {
    let ext = fileExtension(info.sourceURL)
    let unit = DownloadUnit(
      source: info.sourceURL, path: "media.\(ext)", role: .media, expectedLength: nil,
      estimatedLength: info.tracks.first?.estimatedSizeBytes)
    return DownloadPlan(
      kind: .progressive, playbackPath: unit.path, durationSeconds: info.durationSeconds,
      selectionSummary: "whole file", units: [unit], playlists: [],
      encryptionKeyID: encryptionKeyID)
  }

  static func fileExtension(_ url: URL) -> String {
    let ext = url.pathExtension.lowercased()
    guard !ext.isEmpty, ext.count <= 5, ext.allSatisfy({ $0.isLetter || $0.isNumber }) else {
      return "mp4"
    }
    return ext
  }
}
