import Foundation
import Playhead

/// The human-readable lines `play` prints for events: `--events` lines and the item's
/// lifecycle (loading → ready → playing → ended).
enum EventText {
  /// `[  1.234s] <event name> <details>`, the time being the item's time.
  static func line(_ event: PlayerEvent) -> String {
    let time: String
    if event.itemTime.isNumeric {
      time = String(format: "%7.3fs", event.itemTime.seconds)
    } else {
      time = "      -s"
    }
    var text = "[\(time)] \(event.name)"
    if let details = details(of: event) { text += " " + details }
    return text
  }

  /// The details shown after an event's name, if it has any.
  static func details(of event: PlayerEvent) -> String? {
    if let error = event.error { return error.message }
    switch event.kind {
    case .currentItemChanged(let item):
      return item.map { display($0.asset.url) } ?? "none"
    case .durationChanged(_, let duration):
      return TimeText.seconds(duration)
    case .rateChanged(let rate):
      return String(format: "%g", Double(rate))
    case .timeControlStatusChanged(.waitingToPlayAtSpecifiedRate(let reason)):
      return reason.rawValue
    case .loadedTimeRangesChanged(_, let ranges):
      return ranges.map { "\(TimeText.seconds($0.start))-\(TimeText.seconds($0.end))" }
        .joined(separator: ", ")
    case .seekCompleted(_, let finished):
      return finished ? "finished" : "interrupted"
    case .softwareDecodingUsed(_, let reason):
      return reason
    case .downloadSpeedChanged(_, let speed):
      return VariantText.bitRate(speed)
    case .audioRenditionChanged(_, let rendition):
      return rendition.map(AudioChoice.describe) ?? "the variant's own audio"
    case .variantChanged(_, let variant, let reason):
      var text = VariantText.label(variant)
      if let size = VariantText.resolution(width: variant.width, height: variant.height) {
        text += " " + size
      }
      return text + " (\(reason.rawValue))"
    default:
      return nil
    }
  }

  /// The lifecycle line for `event`, if it marks a step of the item's life.
  static func lifecycle(_ event: PlayerEvent) -> String? {
    switch event.kind {
    case .itemStatusChanged(_, .readyToPlay): return "ready"
    case .itemStatusChanged(_, .failed(let error)): return "failed: \(error.message)"
    case .timeControlStatusChanged(.playing): return "playing"
    case .playbackStalled: return "stalled"
    case .didPlayToEnd: return "ended"
    case .previewEnded: return "preview ended"
    case .failedToPlayToEnd(_, let error): return "failed: \(error.message)"
    default: return nil
    }
  }

  /// A URL as people write it: the path for files, the whole URL otherwise.
  static func display(_ url: URL) -> String {
    url.isFileURL ? url.path : url.absoluteString
  }
}
