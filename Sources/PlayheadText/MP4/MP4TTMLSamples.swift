import Foundation
import PlayheadCore

/// The cues of `stpp` samples: each sample a TTML document whose paragraphs are cues
/// (`MP4TextParser` describes the timing rules).
enum MP4TTMLSamples {
  static func cues(
    _ samples: [MP4TextSample], reader: MP4BoxReader, timescale: Int32, limits: MP4TextLimits
  ) throws(MP4TextError) -> [WebVTTCue] {
    var cues: [WebVTTCue] = []
    let unit = Double(timescale)
    // Cue times are kept at least to the millisecond.
    let cueTimescale = max(timescale, 1000)
    for (index, sample) in samples.enumerated() where !sample.bytes.isEmpty {
      let path = "mdat/sample[\(index + 1)]"
      guard sample.bytes.count <= limits.maxDocumentBytes else {
        throw MP4TextError(
          .limitExceeded, path: path,
          "TTML document of \(sample.bytes.count) bytes, over the limit of "
            + "\(limits.maxDocumentBytes)")
      }
      let document: XMLTreeElement
      do {
        document = try XMLTreeReader.parse(
          Data(reader.bytes[sample.bytes]),
          limits: XMLTreeLimits(
            maxBytes: limits.maxDocumentBytes, maxDepth: 32,
            maxElements: limits.maxDocumentElements),
          keepingContent: true)
      } catch {
        throw MP4TextError(.malformed, path: path, "not a TTML document: \(error.description)")
      }
      guard document.name == "tt" else {
        throw MP4TextError(
          .malformed, path: path, "not a TTML document: its root is '\(document.name)', not 'tt'")
      }
      let sampleStart = Double(sample.time) / unit
      let sampleEnd = Double(sample.time + sample.duration) / unit
      let paragraphs = TTMLCueReader.paragraphs(
        of: document, limit: limits.maxCues - cues.count + 1)
      let shift = relativeShift(paragraphs, start: sampleStart, end: sampleEnd)
      for paragraph in paragraphs {
        let begin = max(paragraph.begin + shift, sampleStart)
        let end = min((paragraph.end ?? .infinity) + shift, sampleEnd)
        guard begin < end, !paragraph.text.isEmpty else { continue }
        guard cues.count < limits.maxCues else {
          throw MP4TextError(
            .limitExceeded, path: path, "over \(limits.maxCues) cues in a segment")
        }
        cues.append(
          WebVTTCue(
            start: MediaTime(seconds: begin, preferredTimescale: cueTimescale),
            end: MediaTime(seconds: end, preferredTimescale: cueTimescale),
            text: escaped(paragraph.text)))
      }
    }
    return cues.sorted { $0.start < $1.start }
  }

  /// 0 when the paragraphs' times are on the media timeline; the sample's start when none
  /// meets the sample's interval so but some does counted from the sample's start.
  private static func relativeShift(
    _ paragraphs: [TTMLCueReader.Paragraph], start: Double, end: Double
  ) -> Double {
    func meets(_ shift: Double) -> Bool {
      paragraphs.contains { ($0.begin + shift) < end && ($0.end ?? .infinity) + shift > start }
    }
    guard start > 0, !meets(0), meets(start) else { return 0 }
    return start
  }

  /// Plain text as a WebVTT payload: `&`, `<` and `>` as character references.
  private static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      default: result.append(character)
      }
    }
    return result
  }
}
