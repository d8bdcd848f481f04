import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadNet

/// The kinds of alternate rendition the engine plays or lists for an application.
enum AlternateKind: Sendable {
  case audio
  case subtitles
}

extension HLSDriver {
  /// The menu entry of a master playlist rendition.
  static func info(_ rendition: Rendition) -> RenditionInfo {
    RenditionInfo(
      type: typeName(rendition.type), groupID: rendition.groupID, name: rendition.name,
      language: rendition.language, isDefault: rendition.isDefault,
      autoselect: rendition.autoselect, forced: rendition.forced,
      uri: rendition.uri?.absoluteString)
  }

  private static func typeName(_ type: RenditionType) -> String {
    switch type {
    case .audio: return "audio"
    case .video: return "video"
    case .subtitles: return "subtitles"
    case .closedCaptions: return "closedCaptions"
    }
  }

  /// The renditions of `run`'s variant group of `kind` (the level loading now when `run`
  /// is nil), in master playlist order.
  func alternateRenditions(_ kind: AlternateKind, for run: MediaRun?) -> [RenditionInfo] {
    guard let master else { return [] }
    lock.lock()
    let level = (run?.context as? HLSRunFeed)?.first.level ?? currentLevel
    let uriIndex = activeURI[level] ?? 0
    lock.unlock()
    guard levels.indices.contains(level) else { return [] }
    let group: String?
    let type: RenditionType
    switch kind {
    case .audio:
      group = levels[level].audioGroup(uriIndex: uriIndex)
      type = .audio
    case .subtitles:
      group = levels[level].subtitleGroup(uriIndex: uriIndex)
      type = .subtitles
    }
    guard let group else { return [] }
    return master.renditions.filter { $0.type == type && $0.groupID == group }.map(Self.info)
  }

  /// Opens `rendition`'s media playlist as a stream of its own that starts at the segment
  /// holding `time`: its own segment queue, download thread and demuxer runs, on this
  /// stream's timeline (a live rendition is placed by the live edge). It loads through
  /// this stream's data source.
  func openAlternate(_ rendition: RenditionInfo, at time: MediaTime) throws(PlayheadError)
    -> any MediaSourceDriver
  {
    guard let uri = rendition.uri, let url = URL(string: uri) else {
      throw PlayheadError(
        .invalidArgument, "the rendition \(rendition.name) has no media playlist", url: self.url)
    }
    lock.lock()
    let edge = liveTimeline?.range.end
    lock.unlock()
    // The rendition's downloader keeps its own load control (its own hysteresis) with
    // the item's limits.
    var laneConfiguration = configuration
    laneConfiguration.itemLoadControl = itemLoadControl?.sibling()
    let lane = try HLSDriver(
      url: url, configuration: laneConfiguration, clock: clock, stack: stack, startTime: time,
      liveEdge: edge, loader: loader, ownsLoader: false)
    // One key source for the stream: a key ID the video asked for is not asked again.
    lane.adoptSampleKeys(streamSampleKeys())
    return lane
  }

  /// Loads a subtitle rendition's media playlist and places its segments on the item
  /// timeline (a live one by the live edge).
  func subtitleSegments(of rendition: RenditionInfo) throws(PlayheadError) -> SubtitleSegmentList {
    guard let uri = rendition.uri, let url = URL(string: uri) else {
      throw PlayheadError(
        .invalidArgument, "the subtitle rendition \(rendition.name) has no media playlist",
        url: self.url)
    }
    let (parsed, size) = try Self.loadPlaylist(
      url, from: loader, importing: master?.definitions,
      source: configuration.playlistSource)
    guard case .media(let media) = parsed else {
      throw PlayheadError(
        .unsupportedFormat, "expected a media playlist at \(url.absoluteString)", url: url)
    }
    lock.lock()
    bytes += Int64(size)
    let edge = liveTimeline?.range.end
    lock.unlock()
    let timeline =
      (!media.endList ? edge : nil).map { HLSLiveTimeline(media, endingAt: $0) }
      ?? HLSLiveTimeline(media)
    let segments = media.segments.compactMap { segment -> SubtitleSegment? in
      guard let start = timeline.start(ofSequence: segment.mediaSequence) else { return nil }
      return SubtitleSegment(segment, start: start)
    }
    return SubtitleSegmentList(
      rendition: rendition, playlistURL: url, segments: segments, isComplete: media.endList)
  }
}
