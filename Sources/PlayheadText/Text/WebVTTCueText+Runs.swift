import Foundation

/// A stretch of a cue's text in one style: what a renderer draws with one font setting.
public struct WebVTTTextRun: Sendable, Equatable {
  /// The text, tags removed and character references decoded; line breaks stay.
  public var text: String
  public var isBold: Bool
  public var isItalic: Bool
  public var isUnderlined: Bool

  public init(
    text: String, isBold: Bool = false, isItalic: Bool = false, isUnderlined: Bool = false
  ) {
    self.text = text
    self.isBold = isBold
    self.isItalic = isItalic
    self.isUnderlined = isUnderlined
  }
}

extension WebVTTCue {
  /// The payload as runs of one style each: `<b>`, `<i>` and `<u>` (nested, and closed by
  /// their end tags or the end of the text) set the style; every other tag is removed
  /// and character references are decoded as in `plainText`. Adjacent text of the same
  /// style is one run; the runs' texts joined give `plainText`.
  public var textRuns: [WebVTTTextRun] { WebVTTCueText.runs(text) }
}

extension WebVTTCueText {
  /// The styled runs of `payload` (see `WebVTTCue.textRuns`).
  static func runs(_ payload: String) -> [WebVTTTextRun] {
    let scalars = Array(payload.unicodeScalars)
    var runs: [WebVTTTextRun] = []
    var depth = (bold: 0, italic: 0, underline: 0)
    var current = String.UnicodeScalarView()
    func style() -> WebVTTTextRun {
      WebVTTTextRun(
        text: "", isBold: depth.bold > 0, isItalic: depth.italic > 0,
        isUnderlined: depth.underline > 0)
    }
    func flush() {
      guard !current.isEmpty else { return }
      var run = style()
      run.text = String(current)
      if let last = runs.last, last.isBold == run.isBold, last.isItalic == run.isItalic,
        last.isUnderlined == run.isUnderlined
      {
        runs[runs.count - 1].text += run.text
      } else {
        runs.append(run)
      }
      current = String.UnicodeScalarView()
    }
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "<" {
        let tag = readTag(scalars, from: index + 1)
        flush()
        switch tag.name {
        case "b": depth.bold += 1
        case "/b": depth.bold = max(0, depth.bold - 1)
        case "i": depth.italic += 1
        case "/i": depth.italic = max(0, depth.italic - 1)
        case "u": depth.underline += 1
        case "/u": depth.underline = max(0, depth.underline - 1)
        default: break
        }
        index = tag.next
      } else if scalar == "&", let reference = readReference(scalars, from: index + 1) {
        current.append(contentsOf: reference.text.unicodeScalars)
        index = reference.next
      } else {
        current.append(scalar)
        index += 1
      }
    }
    flush()
    return runs
  }
}
