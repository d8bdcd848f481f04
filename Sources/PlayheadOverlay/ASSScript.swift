import Foundation
import PlayheadMedia
import PlayheadText

/// Builds the ASS script that libass draws: one style from a `SubtitleStyle` at the
/// picture's size, and one event per active cue, laid out from its WebVTT settings.
///
/// The WebVTT layout maps onto ASS like this (the picture is PlayRes, so margins are
/// pixels):
/// - `align` picks the horizontal alignment within the cue box (`start`/`end` follow the
///   text's direction: right-to-left text starts at the right);
/// - `position` and `size` make the cue box, whose sides become the event's left and right
///   margins (never closer to the edge than the style's side margin);
/// - `line` auto puts the cue at the bottom above the bottom margin; a percentage puts the
///   box's start (top), centre or end (bottom) there; a line number counts lines from the
///   top (0, 1, …) or from the bottom (-1 is the last line);
/// - vertical cues are laid out horizontally.
enum ASSScript {
  /// Every event lasts this long, from 0: the renderer draws the cues given, at time 0.
  static let eventEnd = "9:59:59.99"

  static func make(cues: [WebVTTCue], width: Int, height: Int, style: SubtitleStyle) -> String {
    let fontSize = max(1, style.minimumFontPixels, Double(height) * style.fontSizeFraction)
    var lines = [
      "[Script Info]",
      "ScriptType: v4.00+",
      "PlayResX: \(width)",
      "PlayResY: \(height)",
      "WrapStyle: 0",
      "ScaledBorderAndShadow: yes",
      "",
      "[V4+ Styles]",
      "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, "
        + "BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, "
        + "BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding",
      "Style: Default,\(style.fontFamily.replacingOccurrences(of: ",", with: " ")),"
        + "\(format(fontSize)),\(color(style.textColor)),\(color(style.textColor)),"
        + "\(color(style.outlineColor)),\(color(style.shadowColor)),0,0,0,0,100,100,0,0,1,"
        + "\(format(fontSize * style.outlineFraction)),\(format(fontSize * style.shadowFraction)),"
        + "2,0,0,0,-1",
      "",
      "[Events]",
      "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
    ]
    // One layer for all: libass moves cues that would overlap apart.
    for cue in cues {
      let layout = Layout(cue: cue, width: width, height: height, style: style, fontSize: fontSize)
      lines.append(
        "Dialogue: 0,0:00:00.00,\(eventEnd),Default,,\(layout.marginLeft),"
          + "\(layout.marginRight),\(layout.marginVertical),,\(layout.overrides)\(text(cue))")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `&HAABBGGRR` with ASS's inverted alpha (00 opaque).
  static func color(_ color: RGBAColor) -> String {
    String(format: "&H%02X%02X%02X%02X", 255 - Int(color.a), color.b, color.g, color.r)
  }

  private static func format(_ value: Double) -> String { String(format: "%.2f", value) }

  /// The cue's text as ASS: style runs as `\b`, `\i`, `\u` overrides, line breaks as `\N`,
  /// and what ASS would read as markup (`{`, `}`, `\`) escaped.
  static func text(_ cue: WebVTTCue) -> String {
    var output = ""
    for run in cue.textRuns {
      output += "{\\b\(run.isBold ? 1 : 0)\\i\(run.isItalic ? 1 : 0)\\u\(run.isUnderlined ? 1 : 0)}"
      for character in run.text {
        switch character {
        case "\n", "\r\n", "\r": output += "\\N"
        // A backslash is literal unless N, n or h follows it: a word joiner keeps it so.
        case "\\": output += "\\\u{2060}"
        case "{": output += "\\{"
        case "}": output += "\\}"
        default: output.append(character)
        }
      }
    }
    return output
  }

  /// Whether the text's first strong character is right-to-left (Hebrew, Arabic, …).
  static func isRightToLeft(_ text: String) -> Bool {
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF:
        return true
      case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x370...0x58F, 0x0900...0x1FFF,
        0x3040...0x9FFF, 0xAC00...0xD7AF:
        return false
      default: continue
      }
    }
    return false
  }

  /// One cue's margins and alignment override.
  struct Layout {
    var marginLeft: Int
    var marginRight: Int
    var marginVertical: Int
    var overrides: String

    init(cue: WebVTTCue, width: Int, height: Int, style: SubtitleStyle, fontSize: Double) {
      let settings = cue.settings
      let rightToLeft = ASSScript.isRightToLeft(cue.plainText)
      // The horizontal alignment: 1 left, 2 centre, 3 right (ASS's numpad columns).
      let column: Int
      switch settings.align ?? .center {
      case .left: column = 1
      case .right: column = 3
      case .center: column = 2
      case .start: column = rightToLeft ? 3 : 1
      case .end: column = rightToLeft ? 1 : 3
      }
      // The cue box from position and size (WebVTT's defaults follow the alignment).
      let boxWidth = Double(width) * min(100, max(0, settings.size ?? 100)) / 100
      let anchor: Double
      if let position = settings.position {
        anchor = Double(width) * min(100, max(0, position.percentage)) / 100
      } else {
        anchor = Double(width) * (column == 1 ? 0 : column == 3 ? 1 : 0.5)
      }
      let positionAlignment: WebVTTCueSettings.PositionAlignment =
        settings.position?.alignment
        ?? (column == 1 ? .lineLeft : column == 3 ? .lineRight : .center)
      var left: Double
      switch positionAlignment {
      case .lineLeft: left = anchor
      case .center: left = anchor - boxWidth / 2
      case .lineRight: left = anchor - boxWidth
      }
      left = min(max(0, left), max(0, Double(width) - boxWidth))
      let side = Double(width) * style.sideMarginFraction
      marginLeft = Int(max(side, left).rounded())
      marginRight = Int(max(side, Double(width) - left - boxWidth).rounded())
      // The vertical placement: the row (bottom 0, middle 1, top 2) and its margin.
      var row = 0
      var vertical = Double(height) * style.bottomMarginFraction
      var centreY: Double?
      if let line = settings.line {
        let lineHeight = fontSize * 1.25
        switch line.position {
        case .percentage(let percent):
          let y = Double(height) * min(100, max(0, percent)) / 100
          switch line.alignment ?? .start {
          case .start: (row, vertical) = (2, y)
          case .end: (row, vertical) = (0, Double(height) - y)
          case .center: (row, centreY) = (1, y)
          }
        case .number(let number):
          if number >= 0 {
            (row, vertical) = (2, number * lineHeight)
          } else {
            (row, vertical) = (0, (-number - 1) * lineHeight)
          }
        }
      }
      marginVertical = Int(max(0, vertical).rounded())
      let alignment = column + row * 3
      if let centreY {
        let x: Double
        switch column {
        case 1: x = Double(marginLeft)
        case 3: x = Double(width - marginRight)
        default: x = Double(marginLeft) + Double(width - marginLeft - marginRight) / 2
        }
        overrides = "{\\an\(alignment)\\pos(\(Int(x.rounded())),\(Int(centreY.rounded())))}"
      } else {
        overrides = "{\\an\(alignment)}"
      }
    }
  }
}
