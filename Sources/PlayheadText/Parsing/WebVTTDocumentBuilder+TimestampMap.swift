import PlayheadCore

/// `X-TIMESTAMP-MAP=MPEGTS:n,LOCAL:hh:mm:ss.mmm` (RFC 8216, section 3.5).
extension WebVTTDocumentBuilder {
  /// Reads an `X-TIMESTAMP-MAP` line into `timestampMap`; returns whether it did.
  ///
  /// A malformed line, or one after the first, is a warning and returns false (in the
  /// header the line is then kept as a header line). The two fields may come in either
  /// order, with white space around them; unknown fields are a warning and ignored.
  @discardableResult
  mutating func readTimestampMapLine(_ line: BufferedLine) -> Bool {
    guard timestampMap == nil else {
      warn(line.number, "a second X-TIMESTAMP-MAP is ignored; the first is used")
      return false
    }
    let prefix = "X-TIMESTAMP-MAP=".utf8.count
    var fields = ByteSpan(line.span.start + prefix, line.span.end)
    var mpegts: Int64?
    var local: Int64?
    while !fields.isEmpty {
      let comma = text.firstIndex(of: UInt8(ascii: ","), in: fields) ?? fields.end
      let field = text.trimmed(ByteSpan(fields.start, comma))
      fields = ByteSpan(min(comma + 1, fields.end), fields.end)
      guard let colon = text.firstIndex(of: UInt8(ascii: ":"), in: field) else {
        warn(line.number, "X-TIMESTAMP-MAP field '\(text.excerpt(field))' has no ':'; ignored")
        continue
      }
      let name = ByteSpan(field.start, colon)
      let value = ByteSpan(colon + 1, field.end)
      if text.equals(name, "MPEGTS") {
        guard let ticks = WebVTTNumberParser.integer(in: text, value) else {
          warn(line.number, "X-TIMESTAMP-MAP MPEGTS is not a whole number of 90 kHz ticks")
          return false
        }
        mpegts = Int64(ticks)
      } else if text.equals(name, "LOCAL") {
        do {
          local = try WebVTTTimestampParser.exactTimestamp(in: text, value)
        } catch {
          warn(line.number, "X-TIMESTAMP-MAP LOCAL is not a WebVTT timestamp (\(error.reason))")
          return false
        }
      } else {
        warn(line.number, "unknown X-TIMESTAMP-MAP field '\(text.excerpt(name))' is ignored")
      }
    }
    guard let mpegts, let local else {
      warn(line.number, "X-TIMESTAMP-MAP needs both MPEGTS and LOCAL; it is ignored")
      return false
    }
    timestampMap = WebVTTTimestampMap(
      mpegts: mpegts, local: WebVTTTimestampParser.time(local))
    return true
  }
}
