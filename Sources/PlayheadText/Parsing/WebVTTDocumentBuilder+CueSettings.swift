import PlayheadCore

/// Cue settings (W3C WebVTT, "parse the WebVTT cue settings"): white-space separated
/// `name:value` pairs after the end time. A later setting of the same name wins; malformed,
/// out-of-range and unknown settings are ignored with a warning.
extension WebVTTDocumentBuilder {
  /// The settings in `span`, from the timing line numbered `line`.
  mutating func cueSettings(_ span: ByteSpan, line: Int) -> WebVTTCueSettings {
    var vertical: WebVTTCueSettings.Vertical?
    var lineSetting: WebVTTCueSettings.Line?
    var position: WebVTTCueSettings.Position?
    var size: Double?
    var align: WebVTTCueSettings.TextAlignment?
    var regionName: String?
    for token in text.tokens(span) {
      guard let (name, value) = setting(token, line: line, what: "cue setting") else { continue }
      let nameText = text.webVTTString(name)
      switch nameText {
      case "region":
        regionName = text.webVTTString(value)
      case "vertical":
        if let parsed = WebVTTCueSettings.Vertical(rawValue: text.webVTTString(value)) {
          vertical = parsed
        } else {
          invalid(token, line: line, expected: "rl or lr")
        }
      case "line":
        if let parsed = lineValue(value) {
          lineSetting = parsed
        } else {
          invalid(
            token, line: line, expected: "a line number or a percentage, then start, center or end")
        }
      case "position":
        if let parsed = positionValue(value) {
          position = parsed
        } else {
          invalid(token, line: line, expected: "a percentage, then line-left, center or line-right")
        }
      case "size":
        if let parsed = WebVTTNumberParser.percentage(in: text, value) {
          size = parsed
        } else {
          invalid(token, line: line, expected: "a percentage from 0% to 100%")
        }
      case "align":
        if let parsed = WebVTTCueSettings.TextAlignment(rawValue: text.webVTTString(value)) {
          align = parsed
        } else {
          invalid(token, line: line, expected: "start, center, end, left or right")
        }
      default:
        warn(line, "unknown cue setting '\(ByteText.excerpt(nameText))' is ignored")
      }
    }
    let region = cueRegion(
      regionName, positioned: vertical != nil || lineSetting != nil || (size ?? 100) != 100,
      line: line)
    return WebVTTCueSettings(
      vertical: vertical, line: lineSetting, position: position, size: size, align: align,
      region: region)
  }

  /// Splits a `name:value` token at its first colon; nil, with a warning, when there is no
  /// colon or it is the first or last character.
  mutating func setting(_ token: ByteSpan, line: Int, what: String) -> (
    name: ByteSpan, value: ByteSpan
  )? {
    guard let colon = text.firstIndex(of: UInt8(ascii: ":"), in: token), colon > token.start,
      colon < token.end - 1
    else {
      warn(line, "malformed \(what) '\(text.excerpt(token))' (expected name:value) is ignored")
      return nil
    }
    return (ByteSpan(token.start, colon), ByteSpan(colon + 1, token.end))
  }

  mutating func invalid(_ token: ByteSpan, line: Int, expected: String) {
    warn(line, "invalid setting '\(text.excerpt(token))' (expected \(expected)) is ignored")
  }

  /// `line:` value: `linepos[,linealign]`.
  private func lineValue(_ value: ByteSpan) -> WebVTTCueSettings.Line? {
    let comma = text.firstIndex(of: UInt8(ascii: ","), in: value)
    let number = ByteSpan(value.start, comma ?? value.end)
    var alignment: WebVTTCueSettings.LineAlignment?
    if let comma {
      guard
        let parsed = WebVTTCueSettings.LineAlignment(
          rawValue: text.webVTTString(ByteSpan(comma + 1, value.end)))
      else { return nil }
      alignment = parsed
    }
    if !number.isEmpty && text[number.end - 1] == UInt8(ascii: "%") {
      guard let percentage = WebVTTNumberParser.percentage(in: text, number) else { return nil }
      return WebVTTCueSettings.Line(.percentage(percentage), alignment: alignment)
    }
    guard let lineNumber = WebVTTNumberParser.lineNumber(in: text, number) else { return nil }
    return WebVTTCueSettings.Line(.number(lineNumber), alignment: alignment)
  }

  /// `position:` value: `colpos[,colalign]`.
  private func positionValue(_ value: ByteSpan) -> WebVTTCueSettings.Position? {
    let comma = text.firstIndex(of: UInt8(ascii: ","), in: value)
    guard
      let percentage = WebVTTNumberParser.percentage(
        in: text, ByteSpan(value.start, comma ?? value.end))
    else { return nil }
    guard let comma else { return WebVTTCueSettings.Position(percentage) }
    guard
      let alignment = WebVTTCueSettings.PositionAlignment(
        rawValue: text.webVTTString(ByteSpan(comma + 1, value.end)))
    else { return nil }
    return WebVTTCueSettings.Position(percentage, alignment: alignment)
  }

  /// The `region:` of a cue, kept when the region exists and the cue does not place itself.
  private mutating func cueRegion(_ name: String?, positioned: Bool, line: Int) -> String? {
    guard let name else { return nil }
    guard regionIndex[name] != nil else {
      warn(
        line,
        "no region '\(ByteText.excerpt(name))' is defined; the cue's region setting is ignored")
      return nil
    }
    guard !positioned else {
      warn(
        line,
        "the cue's region '\(ByteText.excerpt(name))' is ignored because the cue sets vertical, line or a size"
      )
      return nil
    }
    return name
  }
}
