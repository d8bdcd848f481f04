import Foundation
import Playhead
import PlayheadAds

/// The human form of `playhead ads`: one block per break (VMAP) or the ads of a VAST
/// response, with chosen media files, tracking counts and failures.
enum AdsText {
  static func lines(_ resolution: AdTagResolution, url: URL) -> [String] {
    switch resolution {
    case .vast(let vast):
      var lines = [
        "VAST \(vast.document?.version ?? "?")  \(url.absoluteString)",
        "ads              \(vast.ads.count) to play, \(vast.fallbackAds.count) fallback, "
          + "\(vast.failures.count) failed",
      ]
      lines += resolutionLines(vast, indent: "")
      return lines
    case .vmap(let vmap):
      var lines = [
        "VMAP \(vmap.document.version ?? "?")  \(url.absoluteString)",
        "breaks           \(vmap.breaks.count)",
      ]
      for (index, resolved) in vmap.breaks.enumerated() {
        lines.append(breakLine(resolved.adBreak, number: index + 1))
        let tracking = trackingCounts(resolved.adBreak.trackingEvents)
        if !tracking.isEmpty { lines.append("  tracking  \(tracking)") }
        if let error = resolved.sourceError {
          lines.append("  source error \(error.code): \(error.message)")
        }
        if let resolution = resolved.resolution {
          lines += resolutionLines(resolution, indent: "  ")
        }
      }
      return lines
    }
  }

  static func breakLine(_ adBreak: VMAPAdBreak, number: Int) -> String {
    var parts = ["break \(number)", adBreak.timeOffset.description, adBreak.breakType.names]
    if let id = adBreak.breakID { parts.append("id \(id)") }
    if let repeatAfter = adBreak.repeatAfter {
      parts.append("repeat every \(VASTTime.format(repeatAfter))")
    }
    switch adBreak.adSource?.content {
    case nil: parts.append("no ad source")
    case .adTagURI(let uri, let templateType)?:
      parts.append("ad tag (\(templateType ?? "no template")) \(uri)")
    case .vastAdData?: parts.append("inline VAST")
    case .invalidVASTAdData(let error)?: parts.append("inline VAST error \(error.code.rawValue)")
    case .customAdData(let templateType, _)?: parts.append("custom data (\(templateType ?? "-"))")
    case .none?: parts.append("empty ad source")
    }
    return parts.joined(separator: "  ")
  }

  static func resolutionLines(_ resolution: VASTResolution, indent: String) -> [String] {
    var lines: [String] = []
    for (index, ad) in resolution.ads.enumerated() {
      lines += adLines(ad, label: "ad \(index + 1)", indent: indent)
    }
    for ad in resolution.fallbackAds {
      lines += adLines(ad, label: "fallback", indent: indent)
    }
    for failure in resolution.failures {
      var text = "\(indent)error \(failure.code.rawValue) (\(failure.code.meaning))"
      if let id = failure.adID { text += "  ad \(id)" }
      if let sequence = failure.sequence { text += "  seq \(sequence)" }
      if failure.isFallback { text += "  fallback" }
      text += ": \(failure.message)  [\(failure.errorURLs.count) error URL(s)]"
      lines.append(text)
    }
    return lines
  }

  static func adLines(_ resolved: ResolvedVASTAd, label: String, indent: String) -> [String] {
    let ad = resolved.ad
    var head = "\(indent)\(label)  id \(ad.id ?? "-")"
    if let sequence = resolved.podSequence { head += "  seq \(sequence)" }
    if let title = ad.adTitle { head += "  \"\(title)\"" }
    var lines = [head]
    let inner = indent + "  "
    if let linear = ad.linear {
      var facts = "\(inner)linear  duration \(linear.duration.map(VASTTime.format) ?? "unknown")"
      if let skip = linear.skipOffset { facts += "  skip at \(skip)" }
      facts += "  \(linear.mediaFiles.count) media file(s)"
      lines.append(facts)
      switch VASTMediaSelection().choose(from: linear) {
      case .success(let file):
        var media = "\(inner)media   \(file.type ?? "?")"
        if let width = file.width, let height = file.height { media += " \(width)x\(height)" }
        if let bitrate = file.bitrateKbps, bitrate > 0 { media += " \(bitrate) kbit/s" }
        lines.append(media + "  \(file.url)")
      case .failure(let failure):
        lines.append("\(inner)media   error \(failure.code.rawValue): \(failure.message)")
      }
      let tracking = trackingCounts(linear.trackingEvents)
      lines.append("\(inner)tracking \(tracking.isEmpty ? "none" : tracking)")
      if let through = linear.videoClicks?.clickThrough {
        lines.append("\(inner)click   \(through)")
      }
    } else {
      lines.append(
        "\(inner)no linear creative (\(ad.nonLinears.count) non-linear, "
          + "\(ad.companions.count) companion)")
    }
    lines.append(
      "\(inner)impressions \(ad.impressions.count)  error URLs \(ad.errorURLs.count)  "
        + "click tracking \(ad.linear?.videoClicks?.clickTracking.count ?? 0)  "
        + "companions \(ad.companions.count)  wrappers \(resolved.wrapperAdIDs.count)")
    if resolved.wrapperChain.count > 1 {
      lines.append(
        "\(inner)chain   " + resolved.wrapperChain.map(\.absoluteString).joined(separator: " -> "))
    }
    return lines
  }

  /// `start 2, firstQuartile 1, …` in order of first appearance; empty for none.
  static func trackingCounts(_ events: [VASTTracking]) -> String {
    counts(events).map { "\($0.0) \($0.1)" }.joined(separator: ", ")
  }

  static func counts(_ events: [VASTTracking]) -> [(String, Int)] {
    var order: [String] = []
    var counts: [String: Int] = [:]
    for event in events {
      if counts[event.event] == nil { order.append(event.event) }
      counts[event.event, default: 0] += 1
    }
    return order.map { ($0, counts[$0]!) }
  }
}
