import PlayheadCore

/// `REGION` blocks (W3C WebVTT, "collect WebVTT region settings").
extension WebVTTDocumentBuilder {
  /// Adds the region whose settings are `lines`; a region without `id` is ignored with a
  /// warning, and one whose `id` was seen before replaces the earlier one (cues name the
  /// last definition).
  mutating func addRegion(_ lines: [BufferedLine], line: Int) throws(WebVTTError) {
    var id = ""
    var width = 100.0
    var lineCount = 3
    var regionAnchor = WebVTTRegion.Anchor.bottomLeft
    var viewportAnchor = WebVTTRegion.Anchor.bottomLeft
    var scroll = WebVTTRegion.Scroll.none
    for settingsLine in lines {
      let number = settingsLine.number
      for token in text.tokens(settingsLine.span) {
        guard let (name, value) = setting(token, line: number, what: "region setting") else {
          continue
        }
        let nameText = text.webVTTString(name)
        switch nameText {
        case "id":
          id = text.webVTTString(value)
        case "width":
          if let parsed = WebVTTNumberParser.percentage(in: text, value) {
            width = parsed
          } else {
            invalid(token, line: number, expected: "a percentage from 0% to 100%")
          }
        case "lines":
          if let parsed = WebVTTNumberParser.integer(in: text, value) {
            lineCount = parsed
          } else {
            invalid(token, line: number, expected: "a whole number")
          }
        case "regionanchor", "viewportanchor":
          guard let anchor = anchorValue(value) else {
            invalid(token, line: number, expected: "two percentages, x%,y%")
            continue
          }
          if nameText == "regionanchor" { regionAnchor = anchor } else { viewportAnchor = anchor }
        case "scroll":
          if text.equals(value, "up") {
            scroll = .up
          } else {
            invalid(token, line: number, expected: "up")
          }
        default:
          warn(number, "unknown region setting '\(ByteText.excerpt(nameText))' is ignored")
        }
      }
    }
    guard !id.isEmpty else {
      warn(line, "a region without an id is ignored")
      return
    }
    let region = WebVTTRegion(
      id: id, width: width, lines: lineCount, regionAnchor: regionAnchor,
      viewportAnchor: viewportAnchor, scroll: scroll)
    if let index = regionIndex[id] {
      warn(
        line, "region '\(ByteText.excerpt(id))' is defined again; the last definition is used")
      regions[index] = region
      return
    }
    guard regions.count < limits.maxCues else {
      throw WebVTTError(
        .limitExceeded, line: line, "more than the limit of \(limits.maxCues) regions")
    }
    regionIndex[id] = regions.count
    regions.append(region)
  }

  /// `x%,y%`.
  private func anchorValue(_ value: ByteSpan) -> WebVTTRegion.Anchor? {
    guard let comma = text.firstIndex(of: UInt8(ascii: ","), in: value),
      let x = WebVTTNumberParser.percentage(in: text, ByteSpan(value.start, comma)),
      let y = WebVTTNumberParser.percentage(in: text, ByteSpan(comma + 1, value.end))
    else { return nil }
    return WebVTTRegion.Anchor(x: x, y: y)
  }
}
