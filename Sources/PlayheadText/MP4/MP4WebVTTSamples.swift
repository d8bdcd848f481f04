import PlayheadCore

/// The cues of `wvtt` samples (ISO/IEC 14496-30 7): each sample holds one `vttc` box per cue
/// active over the whole sample (`payl` text, `sttg` settings, `iden` identifier), or a
/// `vtte` when none is. A cue that spans several samples is written in each; consecutive
/// samples that carry the same cue are joined back into one.
enum MP4WebVTTSamples {
  /// The cues of `samples`, on the media timeline in `timescale` units.
  static func cues(
    _ samples: [MP4TextSample], reader: MP4BoxReader, timescale: Int32, limits: MP4TextLimits
  ) throws(MP4TextError) -> [WebVTTCue] {
    var settingsCache: [String: WebVTTCueSettings] = [:]
    var finished: [Pending] = []
    var open: [Key: Pending] = [:]
    var openOrder: [Key] = []
    var previousEnd: Int64?
    for (index, sample) in samples.enumerated() {
      let path = "mdat/sample[\(index + 1)]"
      var current: [Key: Pending] = [:]
      var currentOrder: [Key] = []
      let contiguous = previousEnd == sample.time
      for box in try reader.boxes(in: sample.bytes, path: path) where box.type == "vttc" {
        let key = try cueKey(box, reader: reader, path: "\(path)/vttc")
        guard current[key] == nil else { continue }
        if contiguous, let running = open.removeValue(forKey: key) {
          current[key] = Pending(key: key, start: running.start, end: sample.time + sample.duration)
        } else {
          current[key] = Pending(key: key, start: sample.time, end: sample.time + sample.duration)
        }
        currentOrder.append(key)
        guard finished.count + currentOrder.count <= limits.maxCues else {
          throw MP4TextError(
            .limitExceeded, path: path, "over \(limits.maxCues) cues in a segment")
        }
      }
      finished += openOrder.compactMap { open[$0] }
      open = current
      openOrder = currentOrder
      previousEnd = sample.time + sample.duration
    }
    finished += openOrder.compactMap { open[$0] }
    finished.sort { $0.start < $1.start }
    return finished.map { pending in
      let settings =
        settingsCache[pending.key.settings]
        ?? {
          let parsed = Self.settings(pending.key.settings)
          settingsCache[pending.key.settings] = parsed
          return parsed
        }()
      return WebVTTCue(
        identifier: pending.key.identifier,
        start: MediaTime(value: pending.start, timescale: timescale),
        end: MediaTime(value: pending.end, timescale: timescale), settings: settings,
        text: pending.key.text)
    }
  }

  /// What makes a cue the same across samples.
  private struct Key: Hashable {
    let identifier: String
    let settings: String
    let text: String
  }

  private struct Pending {
    let key: Key
    let start: Int64
    let end: Int64
  }

  private static func cueKey(_ box: MP4Box, reader: MP4BoxReader, path: String)
    throws(MP4TextError) -> Key
  {
    var identifier = ""
    var settings = ""
    var text = ""
    for child in try reader.boxes(in: box.payload, path: path) {
      switch child.type {
      case "iden": identifier = reader.string(child.payload)
      case "sttg": settings = reader.string(child.payload)
      case "payl": text = reader.string(child.payload)
      default: continue
      }
    }
    return Key(identifier: identifier, settings: settings, text: text)
  }

  /// Cue settings as the WebVTT parser reads them after a timing line (unknown or malformed
  /// ones are left out).
  private static func settings(_ text: String) -> WebVTTCueSettings {
    let line = text.map { $0.isNewline ? " " : String($0) }.joined()
    guard !line.allSatisfy(\.isWhitespace),
      let document = try? WebVTTParser.parse("WEBVTT\n\n00:00.000 --> 00:01.000 \(line)\nx\n")
    else { return .none }
    return document.cues.first?.settings ?? .none
  }
}
