import Foundation
import Playhead

/// The lines of the on-screen statistics page (key `i`), like mpv's stats page: what
/// plays, how fast it loads, how much is buffered, what was dropped.
enum StatsText {
  /// The statistics of `item` as shown on the window, one fact a line.
  static func lines(of item: PlayerItem, player: Player) -> [String] {
    var lines: [String] = []
    let tracks = item.tracks
    let position = item.currentTime()
    let statistics = item.statistics
    if let video = tracks.first(where: { $0.kind == .video }) {
      var text = "Video: \(video.codec)"
      if let size = video.naturalSize { text += " \(size.width)x\(size.height)" }
      if let rate = video.nominalFrameRate, rate > 0 { text += String(format: " %.3g fps", rate) }
      lines.append(text + " (software decoder)")
    }
    if let audio = tracks.first(where: { $0.kind == .audio }) {
      var text = "Audio: \(audio.codec)"
      if let rate = audio.sampleRate { text += " \(rate) Hz" }
      if let channels = audio.channels { text += " \(channels) ch" }
      lines.append(text)
    }
    if let variant = item.currentVariant {
      var text = "Rendition: #\(variant.index) \(megabits(Double(variant.bandwidth)))"
      if let width = variant.width, let height = variant.height { text += " \(width)x\(height)" }
      lines.append(text + " (\(item.variants.count) in the ladder)")
    }
    if let estimate = item.bandwidthEstimate {
      lines.append("Bandwidth estimate: \(megabits(estimate))")
    }
    let ahead =
      item.loadedTimeRanges.first(where: { $0.start <= position && position <= $0.end })
      .map { ($0.end - position).seconds } ?? 0
    lines.append(String(format: "Buffer ahead: %.1f s", max(0, ahead)))
    lines.append(
      "Frames: \(statistics.framesRendered) shown, \(statistics.framesDropped) dropped, "
        + "\(statistics.framesDecoded) decoded")
    lines.append(
      String(
        format: "Position: %@ / %@  rate %.2g  volume %d%%%@", TimeText.clock(position),
        TimeText.clock(item.duration), Double(player.rate), Int(player.volume * 100),
        player.isMuted ? " (muted)" : ""))
    if statistics.stallCount > 0 {
      lines.append(
        String(
          format: "Stalls: %d (%.1f s)", statistics.stallCount, statistics.totalStallTime.seconds))
    }
    return lines
  }

  /// `3.40 Mbit/s`, `550 kbit/s`.
  static func megabits(_ bitsPerSecond: Double) -> String {
    bitsPerSecond >= 1_000_000
      ? String(format: "%.2f Mbit/s", bitsPerSecond / 1_000_000)
      : String(format: "%.0f kbit/s", bitsPerSecond / 1_000)
  }
}
