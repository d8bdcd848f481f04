import PlayheadCore

/// What each kind of block adds to the document.
extension WebVTTDocumentBuilder {
  /// Parses a timing line and its settings into a pending cue; nil, with a warning, when
  /// the line is not a valid timing line (the block is then skipped).
  mutating func cueTiming(_ line: WebVTTLineReader.Line, identifier: String) -> PendingCue? {
    let timing: (start: Int64, end: Int64, settings: ByteSpan)
    do {
      timing = try WebVTTTimestampParser.timing(in: text, line.span)
    } catch {
      warn(line.number, "malformed cue timing line (\(error.reason)); the block is skipped")
      return nil
    }
    let settings = cueSettings(timing.settings, line: line.number)
    return PendingCue(
      identifier: identifier, start: timing.start, end: timing.end, settings: settings,
      line: line.number)
  }

  /// Adds a cue with its payload lines, unless it ends before it starts.
  mutating func addCue(_ cue: PendingCue, payload: [BufferedLine]) throws(WebVTTError) {
    guard cue.end >= cue.start else {
      warn(cue.line, "the cue ends before it starts; it is dropped")
      return
    }
    guard cues.count < limits.maxCues else {
      throw WebVTTError(
        .limitExceeded, line: cue.line, "more than the limit of \(limits.maxCues) cues")
    }
    if let last = cues.last, last.start.value > cue.start {
      warn(cue.line, "the cue starts before the previous cue; cues should be in time order")
    }
    cues.append(
      WebVTTCue(
        identifier: cue.identifier, start: WebVTTTimestampParser.time(cue.start),
        end: WebVTTTimestampParser.time(cue.end), settings: cue.settings,
        text: text.joined(payload.map(\.span))))
  }

  /// Handles a block that is not a cue: a style sheet, a region, a comment, or text that
  /// belongs to nothing.
  mutating func finishBlock(
    kind: BlockKind, buffer: [BufferedLine], firstLine: BufferedLine?, failedTiming: Bool
  ) throws(WebVTTError) {
    guard let firstLine else { return }
    switch kind {
    case .style:
      guard styles.count < limits.maxCues else {
        throw WebVTTError(
          .limitExceeded, line: firstLine.number,
          "more than the limit of \(limits.maxCues) style blocks")
      }
      styles.append(text.joined(buffer.map(\.span)))
    case .region:
      try addRegion(buffer, line: firstLine.number)
    case .misplaced(let keyword):
      warn(firstLine.number, "a \(keyword) block after the first cue is ignored")
    case .plain:
      if failedTiming || firstLine.span.isEmpty { return }
      if text.isKeywordLine(firstLine.span, "NOTE", orText: true) { return }
      if text.hasPrefix(firstLine.span, "X-TIMESTAMP-MAP=") && !seenCue {
        warn(firstLine.number, "X-TIMESTAMP-MAP belongs in the header block; it is used anyway")
        readTimestampMapLine(firstLine)
        return
      }
      warn(firstLine.number, "text outside a cue (a block without a timing line) is ignored")
    }
  }

  /// The lines of the header block: `X-TIMESTAMP-MAP` becomes `timestampMap`, the rest
  /// header lines.
  mutating func readHeaderLines(_ lines: [BufferedLine]) {
    for line in lines {
      if text.hasPrefix(line.span, "X-TIMESTAMP-MAP=")
        && readTimestampMapLine(line)
      {
        continue
      }
      headerLines.append(text.webVTTString(line.span))
    }
  }
}
