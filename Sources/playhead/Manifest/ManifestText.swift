import Foundation
import Playhead

/// The `manifest` summary of an MPD: its kind and timing, then each Period with its
/// adaptation sets and representations (addressing, segment count of a static Period).
enum ManifestText {
  static func lines(_ mpd: MPD) -> [String] {
    var lines = ["MPD \(mpd.type.rawValue), \(mpd.periods.count) period(s)"]
    if let duration = mpd.mediaPresentationDuration {
      lines.append("  duration \(seconds(duration))")
    }
    if let start = mpd.availabilityStartTime {
      lines.append("  availabilityStartTime \(ISO8601DateFormatter().string(from: start))")
    }
    if let depth = mpd.timeShiftBufferDepth {
      lines.append("  timeShiftBufferDepth \(seconds(depth))")
    }
    for (index, period) in mpd.periods.enumerated() {
      let end = period.end.map { " to \(seconds($0))" } ?? ""
      lines.append(
        "Period \(index + 1)\(period.id.map { " '\($0)'" } ?? ""): from \(seconds(period.start))\(end)"
      )
      for set in period.adaptationSets {
        var title = "  \(set.contentType ?? "?") \(set.mimeType ?? "")"
        if let language = set.language { title += " [\(language)]" }
        if set.isTrickMode { title += " trick-mode" }
        if set.isThumbnailTiles { title += " thumbnails" }
        if !set.contentProtections.isEmpty {
          let kid = set.contentProtections.compactMap(\.defaultKID).first
          title += " protected" + (kid.map { " (KID \($0))" } ?? "")
        }
        lines.append(title)
        for representation in set.representations {
          var line = "    \(representation.id): \(representation.bandwidth) bit/s"
          if let width = representation.width, let height = representation.height {
            line += " \(width)x\(height)"
          }
          if let codecs = representation.codecs { line += " \(codecs)" }
          line += ", " + addressing(representation, period: period, isStatic: mpd.type == .static)
          lines.append(line)
        }
      }
      for stream in period.eventStreams {
        lines.append("  events \(stream.schemeIDURI): \(stream.events.count)")
      }
    }
    return lines
  }

  static func addressing(_ representation: MPDRepresentation, period: MPDPeriod, isStatic: Bool)
    -> String
  {
    let count =
      isStatic
      ? " (\(representation.segmentCount(in: period, limit: countLimit).map(String.init) ?? "more than \(countLimit)") segments)"
      : ""
    switch representation.addressing {
    case .base(let base):
      if base.indexRange != nil { return "SegmentBase with sidx" }
      return base.initialization == nil
        ? "one file" : "SegmentBase, sidx looked for after the initialization"
    case .list: return "SegmentList" + count
    case .template(let template):
      return (template.timeline == nil ? "SegmentTemplate @duration" : "SegmentTimeline") + count
    case .unusable(let reason): return "unusable: \(reason)"
    }
  }

  /// Segments counted at most (an MPD can describe billions in a few bytes).
  static let countLimit = 10_000_000

  static func seconds(_ time: MediaTime) -> String {
    String(format: "%.3f s", time.seconds)
  }
}
