import Foundation
import Playhead

/// The readable summary `catalog` prints for a video or a playlist.
enum CatalogText {
  static func lines(_ video: PlayheadSDK.Video, bumper: PlayheadSDK.Video?) -> [String] {
    var lines = ["video          \(video.id ?? "-")  \(quoted(video.name))"]
    func field(_ label: String, _ value: String?) {
      guard let value, !value.isEmpty else { return }
      lines.append(label.padding(toLength: 15, withPad: " ", startingAt: 0) + value)
    }
    field("reference ID", video.referenceID)
    field("account", video.accountID)
    field("duration", video.duration.map(TimeText.seconds))
    field("economics", video.economics?.rawValue)
    field("description", video.shortDescription)
    field("long desc.", video.longDescription)
    field("tags", video.tags.isEmpty ? nil : video.tags.joined(separator: ", "))
    field("labels", video.labels.isEmpty ? nil : video.labels.joined(separator: ", "))
    field("created", video.properties["created_at"]?.stringValue)
    field("updated", video.properties["updated_at"]?.stringValue)
    field("published", video.properties["published_at"]?.stringValue)
    field("poster", video.poster?.absoluteString)
    field("thumbnail", video.thumbnail?.absoluteString)
    field("projection", video.projection)
    field("offline", video.isOfflineEnabled.map { $0 ? "enabled" : "disabled" })
    if let link = video.link {
      field("link", [link.text, link.url?.absoluteString].compactMap { $0 }.joined(separator: " "))
    }
    let custom = video.customFields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    field("custom fields", custom.isEmpty ? nil : custom.joined(separator: ", "))
    lines.append("sources (\(video.sources.count))")
    for (index, source) in video.sources.enumerated() {
      lines.append("  \(index)  " + sourceText(source))
    }
    let tracks = video.textTracks
    if !tracks.isEmpty {
      lines.append("text tracks (\(tracks.count))")
      for track in tracks {
        var parts = [track.kind, track.srclang ?? "-", quoted(track.label)]
        if track.isDefault { parts.append("default") }
        parts.append(track.src?.absoluteString ?? (track.isInBand ? "in-band" : "-"))
        lines.append("  " + parts.joined(separator: "  "))
      }
    }
    if !video.cuePoints.isEmpty {
      lines.append("cue points (\(video.cuePoints.count))")
      for cue in video.cuePoints {
        let position: String
        switch cue.position {
        case .before: position = "before"
        case .after: position = "after"
        case .time(let time): position = TimeText.seconds(time)
        }
        var parts = [position, cue.type.isEmpty ? "-" : cue.type, cue.name ?? "-"]
        if cue.forceStop { parts.append("force-stop") }
        lines.append("  " + parts.joined(separator: "  "))
      }
    }
    if let bumper {
      field("bumper", "\(bumper.id ?? "-")  \(quoted(bumper.name))")
    }
    return lines
  }

  static func lines(_ playlist: PlayheadSDK.Playlist, bumper: PlayheadSDK.Video?) -> [String] {
    var lines = ["playlist       \(playlist.id ?? "-")  \(quoted(playlist.name))"]
    func field(_ label: String, _ value: String?) {
      guard let value, !value.isEmpty else { return }
      lines.append(label.padding(toLength: 15, withPad: " ", startingAt: 0) + value)
    }
    field("reference ID", playlist.referenceID)
    field("account", playlist.accountID)
    field("type", playlist.type)
    field("description", playlist.shortDescription)
    field("search", playlist.search)
    if !playlist.videoIDs.isEmpty { field("video IDs", "\(playlist.videoIDs.count) in all") }
    if let bumper { field("bumper", "\(bumper.id ?? "-")  \(quoted(bumper.name))") }
    lines.append("videos (\(playlist.videos.count))")
    for (index, video) in playlist.videos.enumerated() {
      var parts = [
        "\(index)", video.id ?? "-", quoted(video.name),
        video.duration.map(TimeText.seconds) ?? "-", "\(video.sources.count) sources",
      ]
      if let bumperID = video.bumperID { parts.append("bumper \(bumperID)") }
      lines.append("  " + parts.joined(separator: "  "))
    }
    return lines
  }

  /// `HLS  URL  type  640x360  1108 kb/s  H264/MP4  DRM a, b`.
  private static func sourceText(_ source: PlayheadSDK.Source) -> String {
    var parts = [methodName(source.deliveryMethod), source.url.absoluteString]
    if let type = source.mimeType { parts.append(type) }
    if let width = source.width, let height = source.height { parts.append("\(width)x\(height)") }
    if let rate = source.averageBitRate { parts.append("\(rate / 1000) kb/s") }
    let format = [source.codec, source.container].compactMap { $0 }.joined(separator: "/")
    if !format.isEmpty { parts.append(format) }
    if source.isProtected {
      parts.append("DRM " + source.keySystems.keys.sorted().joined(separator: ", "))
    }
    return parts.joined(separator: "  ")
  }

  private static func methodName(_ method: DeliveryMethod) -> String {
    switch method {
    case .hls: return "HLS"
    case .mp4: return "MP4"
    case .dash: return "DASH"
    case .other(let name): return name.isEmpty ? "other" : name
    }
  }

  private static func quoted(_ text: String?) -> String {
    text.map { "\"\($0)\"" } ?? "-"
  }
}
