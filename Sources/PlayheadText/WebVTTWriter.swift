import PlayheadCore

/// Writes `WebVTTDocument`s as WebVTT text.
///
/// For any document the parser returns, parsing the written text gives an equal document
/// (warnings aside, since they describe the original text). The output uses LF line
/// breaks; `WEBVTT` and the header text, the `X-TIMESTAMP-MAP` line and the other header
/// lines, then the regions, the style sheets and the cues, each block followed by a blank
/// line. Timestamps always have hours (`00:01:02.500`); times that are not whole
/// milliseconds are rounded to the nearest one, and negative or non-numeric times are
/// written as 0. Settings are written in a fixed order and numbers as plain decimals.
///
/// A document built by hand survives the round trip only if it could have been parsed:
/// header lines, identifiers and payload lines without `-->`, header lines, style lines
/// and payload lines that are not empty, no line breaks in the header text, identifiers
/// or region identifiers, region identifiers without white space, cue regions that name a
/// region of the document, and percentages within 0…100. What breaks these rules is
/// written as it is and may parse differently.
public enum WebVTTWriter {
  /// The WebVTT text of `document`.
  public static func write(_ document: WebVTTDocument) -> String {
    var output = "WEBVTT"
    if !document.header.isEmpty { output += " " + document.header }
    output += "\n"
    if let map = document.timestampMap {
      output +=
        "X-TIMESTAMP-MAP=MPEGTS:\(map.mpegts),LOCAL:\(timestamp(map.local))\n"
    }
    for line in document.headerLines { output += line + "\n" }
    output += "\n"
    for region in document.regions { output += "REGION\n" + regionSettings(region) + "\n\n" }
    for style in document.styles { output += "STYLE\n" + style + "\n\n" }
    for cue in document.cues { output += write(cue) + "\n" }
    return output
  }

  /// The text of one cue block, ending with its last line break (without the blank line
  /// that separates it from the next block).
  public static func write(_ cue: WebVTTCue) -> String {
    var block = ""
    if !cue.identifier.isEmpty { block += cue.identifier + "\n" }
    block += timestamp(cue.start) + " --> " + timestamp(cue.end)
    let settings = settingsText(cue.settings)
    if !settings.isEmpty { block += " " + settings }
    block += "\n"
    if !cue.text.isEmpty { block += cue.text + "\n" }
    return block
  }

  /// The settings of a cue as written after its end time (empty for none).
  public static func settingsText(_ settings: WebVTTCueSettings) -> String {
    var parts: [String] = []
    if let region = settings.region { parts.append("region:" + region) }
    if let vertical = settings.vertical { parts.append("vertical:" + vertical.rawValue) }
    if let line = settings.line {
      var value: String
      switch line.position {
      case .number(let number): value = WebVTTNumberFormat.decimal(number)
      case .percentage(let percentage): value = WebVTTNumberFormat.percentage(percentage)
      }
      if let alignment = line.alignment { value += "," + alignment.rawValue }
      parts.append("line:" + value)
    }
    if let position = settings.position {
      var value = WebVTTNumberFormat.percentage(position.percentage)
      if let alignment = position.alignment { value += "," + alignment.rawValue }
      parts.append("position:" + value)
    }
    if let size = settings.size { parts.append("size:" + WebVTTNumberFormat.percentage(size)) }
    if let align = settings.align { parts.append("align:" + align.rawValue) }
    return parts.joined(separator: " ")
  }

  /// A WebVTT timestamp `hh:mm:ss.ttt` for `time`, rounded to the millisecond.
  public static func timestamp(_ time: MediaTime) -> String {
    let milliseconds = time.convertScale(1000)
    return WebVTTNumberFormat.timestamp(
      milliseconds: milliseconds.isNumeric ? milliseconds.value : 0)
  }

  private static func regionSettings(_ region: WebVTTRegion) -> String {
    var parts = [
      "id:" + region.id,
      "width:" + WebVTTNumberFormat.percentage(region.width),
      "lines:\(region.lines)",
      "regionanchor:" + anchor(region.regionAnchor),
      "viewportanchor:" + anchor(region.viewportAnchor),
    ]
    if region.scroll == .up { parts.append("scroll:up") }
    return parts.joined(separator: " ")
  }

  private static func anchor(_ anchor: WebVTTRegion.Anchor) -> String {
    WebVTTNumberFormat.percentage(anchor.x) + "," + WebVTTNumberFormat.percentage(anchor.y)
  }
}
