import Foundation
import PlayheadCore
import PlayheadNet

/// Prepares and plans the download of one progressive file (MP4, MP3, WebM…).
enum ProgressiveDownloadPlanner {
  /// Probes `url` (its length, duration and streams) and lists it as one `.file` track.
  ///
  /// With a `refresher`, an expired URL is refreshed first and the probe reads the fresh
  /// one; the media info keeps `url`. Returns nil when the content is an HLS playlist or
  /// a DASH manifest under another name (the caller prepares it as a stream); throws
  /// `.unsupportedFormat` for an ffconcat script.
  static func mediaInfo(
    _ url: URL, id: DownloadID, configuration: DownloadConfiguration,
    refresher: SourceRefresher? = nil
  ) throws(PlayheadError) -> DownloadMediaInfo? {
    var stack = DataSourceStack(request: configuration.request, network: configuration.network)
    if !url.isFileURL { stack = stack.with(refresher: refresher) }
    let (length, content) = try probeHead(url, stack: stack)
    if content == .hlsPlaylist || content == .dashManifest { return nil }
    if let refusal = content.refusal(at: url) { throw refusal }
    let probe = try MediaSourceFactory(stack: stack).probe(
      Asset(url: url), cancellation: OpenCancellation())
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
  private static func probeHead(_ url: URL, stack: DataSourceStack) throws(PlayheadError)
    -> (Int64?, SniffedContent)
  {
    let reader = DataSourceReader(
      source: stack.makeDataSource(), request: DataRequest(url: url, purpose: .media))
    // Closed, not cancelled: cancelling a refreshing source would stop its refresher.
    defer { reader.close() }
    try reader.open()
    let content = try ContentSniffer.sniff(reader)
    return (reader.length, content)
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
