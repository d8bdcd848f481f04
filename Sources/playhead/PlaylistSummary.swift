import Foundation
import Playhead

/// The text `playlist` prints by default: the playlist's facts, a few segments or every
/// variant and rendition, and the warnings.
enum PlaylistSummary {
  /// How many segments are listed at each end of a long media playlist.
  static let segmentsShownAtEachEnd = 5

  static func lines(_ playlist: PlayheadHLS.Playlist) -> [String] {
    var lines: [String]
    switch playlist {
    case .master(let master): lines = self.lines(master)
    case .media(let media): lines = self.lines(media)
    }
    lines.append("warnings         \(playlist.warnings.count)")
    lines += playlist.warnings.map { "  \($0)" }
    return lines
  }

  static func lines(_ playlist: MediaPlaylist) -> [String] {
    var lines = [
      "media playlist   \(playlist.url.absoluteString)",
      "version          \(playlist.version.map(String.init) ?? "-")",
      "type             \(kind(playlist))",
      "target duration  \(playlist.targetDuration) s",
    ]
    let segments = playlist.segments
    if let first = segments.first, let last = segments.last {
      lines.append(
        "segments         \(segments.count), media sequence \(first.mediaSequence)-\(last.mediaSequence), "
          + "total \(TimeText.seconds(playlist.totalDuration))")
    } else {
      lines.append("segments         0")
    }
    let discontinuities = segments.filter(\.discontinuity).count
    if discontinuities > 0 { lines.append("discontinuities  \(discontinuities)") }
    let methods = Set(segments.compactMap { $0.key?.method.rawValue }).sorted()
    lines.append("encryption       \(methods.isEmpty ? "none" : methods.joined(separator: ", "))")
    let maps = Set(segments.compactMap { $0.map?.uriString })
    if !maps.isEmpty { lines.append("init sections    \(maps.count)") }
    if let first = segments.first(where: { $0.programDateTime != nil })?.programDateTime {
      lines.append("program date     \(PlaylistDateText.string(from: first)) (first dated segment)")
    }
    let parts = segments.reduce(0) { $0 + $1.parts.count } + playlist.trailingParts.count
    if parts > 0 || playlist.partTargetDuration != nil {
      lines.append(
        "low latency      \(parts) parts, part target \(playlist.partTargetDuration.map(TimeText.seconds) ?? "-"), "
          + "\(playlist.preloadHints.count) preload hints, \(playlist.renditionReports.count) rendition reports"
      )
    }
    if !playlist.dateRanges.isEmpty {
      lines.append("date ranges      \(playlist.dateRanges.count)")
    }
    if !playlist.unknownTags.isEmpty {
      lines.append("unknown tags     \(playlist.unknownTags.count)")
    }
    let shown = segmentsShownAtEachEnd
    for (index, segment) in segments.enumerated() {
      if segments.count > 2 * shown && index == shown {
        lines.append("  ... \(segments.count - 2 * shown) more segments ...")
      }
      if segments.count > 2 * shown && index >= shown && index < segments.count - shown { continue }
      lines.append("  " + describe(segment))
    }
    return lines
  }

  private static func kind(_ playlist: MediaPlaylist) -> String {
    switch (playlist.playlistType, playlist.endList) {
    case (.vod?, _): return "VOD"
    case (.event?, true): return "EVENT (ended)"
    case (.event?, false): return "EVENT (live, growing)"
    case (nil, true): return "ended (no playlist type)"
    case (nil, false): return "live (sliding window)"
    }
  }

  private static func describe(_ segment: MediaSegment) -> String {
    var parts = [
      "#\(segment.mediaSequence)", TimeText.seconds(segment.duration), segment.uriString,
    ]
    if let range = segment.byteRange { parts.append("bytes \(range)") }
    if segment.discontinuity { parts.append("discontinuity") }
    if segment.gap { parts.append("gap") }
    if let key = segment.key { parts.append(key.method.rawValue) }
    if let date = segment.programDateTime { parts.append(PlaylistDateText.string(from: date)) }
    if let title = segment.title { parts.append("\"\(title)\"") }
    return parts.joined(separator: "  ")
  }

  static func lines(_ playlist: MasterPlaylist) -> [String] {
    var lines = [
      "master playlist  \(playlist.url.absoluteString)",
      "version          \(playlist.version.map(String.init) ?? "-")",
      "variants         \(playlist.variants.count)",
    ]
    for variant in playlist.variants {
      var parts = ["\(variant.bandwidth) bps"]
      if let resolution = variant.resolution { parts.append(resolution.description) }
      if let rate = variant.frameRate { parts.append("\(rate) fps") }
      if let codecs = variant.codecs { parts.append(codecs) }
      if let audio = variant.audioGroup { parts.append("audio=\(audio)") }
      if let video = variant.videoGroup { parts.append("video=\(video)") }
      if let subtitles = variant.subtitlesGroup { parts.append("subtitles=\(subtitles)") }
      parts.append(variant.uriString)
      lines.append("  " + parts.joined(separator: "  "))
    }
    lines.append("renditions       \(playlist.renditions.count)")
    for rendition in playlist.renditions {
      var parts = [rendition.type.rawValue, rendition.groupID, "\"\(rendition.name)\""]
      if let language = rendition.language { parts.append(language) }
      if rendition.isDefault { parts.append("default") }
      if rendition.autoselect { parts.append("autoselect") }
      if rendition.forced { parts.append("forced") }
      if let uri = rendition.uriString { parts.append(uri) }
      lines.append("  " + parts.joined(separator: "  "))
    }
    if !playlist.iFrameVariants.isEmpty {
      lines.append("i-frame variants \(playlist.iFrameVariants.count)")
      for variant in playlist.iFrameVariants {
        let resolution = variant.resolution.map { "  \($0)" } ?? ""
        lines.append("  \(variant.bandwidth) bps\(resolution)  \(variant.uriString)")
      }
    }
    if !playlist.sessionData.isEmpty {
      lines.append("session data     \(playlist.sessionData.count)")
      for data in playlist.sessionData {
        lines.append("  \(data.dataID)  \(data.value.map { "\"\($0)\"" } ?? data.uriString ?? "")")
      }
    }
    if !playlist.sessionKeys.isEmpty {
      lines.append(
        "session keys     \(playlist.sessionKeys.map(\.method.rawValue).joined(separator: ", "))")
    }
    if !playlist.unknownTags.isEmpty {
      lines.append("unknown tags     \(playlist.unknownTags.count)")
    }
    return lines
  }
}
