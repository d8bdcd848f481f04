import PlayheadCore

/// Builds a `WebVTTDocument` by following the WebVTT parser algorithm (W3C WebVTT,
/// section 6.1) over the file's lines, recording warnings where it skips something.
///
/// The file is a signature line, an optional header block, then blocks separated by blank
/// lines. A block is a cue when its first or second line is a timing line (any line that
/// contains `-->`); outside the header, such a line always ends the block before it and
/// starts a new one. Each line is read at most twice, so parsing is linear in the input.
struct WebVTTDocumentBuilder {
  /// A line of the block being collected.
  struct BufferedLine {
    let span: ByteSpan
    let number: Int
  }

  /// What a block turned out to be, apart from a cue.
  enum BlockKind {
    case plain
    case style
    case region
    /// A `STYLE` or `REGION` block after the first cue, which WebVTT ignores.
    case misplaced(keyword: String)
  }

  /// A cue whose timing line parsed, waiting for its payload.
  struct PendingCue {
    let identifier: String
    let start: Int64
    let end: Int64
    let settings: WebVTTCueSettings
    let line: Int
  }

  static let maxWarnings = 1000

  let text: ByteText
  let limits: WebVTTParserLimits
  var reader: WebVTTLineReader
  var header = ""
  var headerLines: [String] = []
  var timestampMap: WebVTTTimestampMap?
  var regions: [WebVTTRegion] = []
  var regionIndex: [String: Int] = [:]
  var styles: [String] = []
  var cues: [WebVTTCue] = []
  /// Whether a timing line has parsed: `STYLE` and `REGION` blocks are no longer allowed.
  var seenCue = false
  var warnings: [WebVTTWarning] = []
  var omittedWarnings = 0

  init(text: ByteText, limits: WebVTTParserLimits) {
    self.text = text
    self.limits = limits
    var start = 0
    let bytes = text.bytes
    if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
    self.reader = WebVTTLineReader(text: text, start: start, maxLineLength: limits.maxLineLength)
  }

  /// Parses the whole file.
  mutating func build() throws(WebVTTError) -> WebVTTDocument {
    try readSignature()
    let first = try reader.next()
    header = text.webVTTString(text.trimmed(ByteSpan(first.span.start + 6, first.span.end)))
    if !first.endsFile && !reader.isAtEnd {
      let next = text[reader.mark.position]
      if next == 0x0A || next == 0x0D {
        _ = try reader.next()
      } else {
        try collectBlock(inHeader: true)
      }
      reader.skipLineBreaks()
      while !reader.isAtEnd {
        try collectBlock(inHeader: false)
        reader.skipLineBreaks()
      }
    }
    var allWarnings = warnings
    if omittedWarnings > 0 {
      allWarnings.append(
        WebVTTWarning(line: 0, message: "\(omittedWarnings) more warnings left out"))
    }
    return WebVTTDocument(
      header: header, headerLines: headerLines, timestampMap: timestampMap, regions: regions,
      styles: styles, cues: cues, warnings: allWarnings)
  }

  /// Checks that the file starts with `WEBVTT` followed by the end, a space, a tab or a
  /// line break.
  private func readSignature() throws(WebVTTError) {
    let start = reader.mark.position
    let rest = ByteSpan(start, text.bytes.count)
    guard !rest.isEmpty else {
      throw WebVTTError(.missingHeader, line: 1, "the file is empty; it must start with WEBVTT")
    }
    guard text.hasPrefix(rest, "WEBVTT") else {
      throw WebVTTError(.missingHeader, line: 1, "the file does not start with WEBVTT")
    }
    if rest.count > 6 {
      let next = text[start + 6]
      guard next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0D else {
        throw WebVTTError(
          .missingHeader, line: 1, "WEBVTT must be followed by a space, a tab or a line break")
      }
    }
  }

  /// Reads one block and adds what it holds to the document (WebVTT "collect a WebVTT
  /// block"). In the header, the block's lines become header lines.
  mutating func collectBlock(inHeader: Bool) throws(WebVTTError) {
    var lineCount = 0
    var previous = reader.mark
    var buffer: [BufferedLine] = []
    var seenArrow = false
    var cue: PendingCue?
    var kind = BlockKind.plain
    var failedTiming = false
    var firstLine: BufferedLine?
    while true {
      let line = try reader.next()
      lineCount += 1
      if firstLine == nil { firstLine = BufferedLine(span: line.span, number: line.number) }
      if text.containsArrow(line.span) {
        guard !inHeader && (lineCount == 1 || (lineCount == 2 && !seenArrow)) else {
          reader.mark = previous
          break
        }
        seenArrow = true
        previous = reader.mark
        cue = cueTiming(line, identifier: text.joined(buffer.map(\.span)))
        if cue != nil {
          buffer = []
          seenCue = true
        } else {
          failedTiming = true
        }
      } else if line.span.isEmpty {
        break
      } else {
        if !inHeader && lineCount == 2 && buffer.count == 1 {
          kind = blockKind(of: buffer[0].span)
          if case .style = kind { buffer = [] }
          if case .region = kind { buffer = [] }
        }
        buffer.append(BufferedLine(span: line.span, number: line.number))
        previous = reader.mark
      }
      if line.endsFile { break }
    }
    if let cue {
      try addCue(cue, payload: buffer)
    } else if inHeader {
      readHeaderLines(buffer)
    } else {
      try finishBlock(kind: kind, buffer: buffer, firstLine: firstLine, failedTiming: failedTiming)
    }
  }

  /// Whether the first line of a block makes it a `STYLE` or `REGION` block (allowed only
  /// before the first cue).
  private func blockKind(of firstLine: ByteSpan) -> BlockKind {
    let isStyle = text.isKeywordLine(firstLine, "STYLE")
    guard isStyle || text.isKeywordLine(firstLine, "REGION") else { return .plain }
    if seenCue { return .misplaced(keyword: isStyle ? "STYLE" : "REGION") }
    return isStyle ? .style : .region
  }

  /// Records a warning on `line`; past `maxWarnings` warnings are only counted.
  mutating func warn(_ line: Int, _ message: String) {
    guard warnings.count < Self.maxWarnings else {
      omittedWarnings += 1
      return
    }
    warnings.append(WebVTTWarning(line: line, message: message))
  }
}
