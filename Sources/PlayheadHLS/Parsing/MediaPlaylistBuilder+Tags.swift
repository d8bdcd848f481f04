import Foundation
import PlayheadCore

/// Keys, initialization sections, dates and date ranges.
extension MediaPlaylistBuilder {
  /// `EXT-X-KEY`: `NONE` clears every key; another method replaces the key of the same
  /// `KEYFORMAT` or adds one.
  mutating func readKey(_ value: ByteSpan) throws(PlaylistParseError) {
    let list = context.attributes(value, of: .key)
    let method = try context.keyMethod(list, of: .key)
    if method == .none {
      if list.entries.count > 1 {
        context.warn("EXT-X-KEY METHOD=NONE has other attributes; ignored")
      }
      keys = []
      return
    }
    let key = try context.key(list, method: method, of: .key)
    if let index = keys.firstIndex(where: { $0.keyFormat == key.keyFormat }) {
      keys[index] = key
    } else {
      keys.append(key)
    }
  }

  /// `EXT-X-MAP`, with its byte range and the keys in effect.
  ///
  /// Fatal: no `URI`. An AES-128 key without `IV` in effect is a warning (RFC 8216 4.3.2.5
  /// requires the IV for an encrypted initialization section, but packagers omit it): the
  /// IV comes from the media sequence number of the first segment after the tag, as for
  /// segments (`InitializationSection.impliedIVSequence`).
  mutating func readMap(_ value: ByteSpan) throws(PlaylistParseError) {
    let list = context.attributes(value, of: .map)
    context.warnUnknownAttributes(list, known: ["URI", "BYTERANGE"], of: .map)
    guard let uriEntry = list.entry("URI", in: text) else {
      throw context.error(.missingAttribute, "EXT-X-MAP has no URI")
    }
    let uri = try context.uri(uriEntry.value, in: "EXT-X-MAP")
    var byteRange: ByteRange?
    if let range = try context.byteRangeAttribute(list, of: .map) {
      byteRange = try resolve(
        (range.length, range.offset, context.line), uri: uri, tag: "EXT-X-MAP BYTERANGE")
    }
    map = InitializationSection(
      uriString: uri, baseURL: context.url, byteRange: byteRange, keys: keys)
    mapNeedsIVSequence = false
    if let key = map?.key, key.method == .aes128, key.iv == nil {
      context.warn(
        "EXT-X-MAP is encrypted by the AES-128 EXT-X-KEY '\(ParserContext.excerpt(key.uriString ?? ""))', "
          + "which has no IV (RFC 8216 requires one for an encrypted initialization section); "
          + "the media sequence number of the next segment is used")
      mapNeedsIVSequence = true
    }
  }

  /// `EXT-X-PROGRAM-DATE-TIME` for the pending segment; false (with a warning) when the
  /// date is not ISO 8601.
  mutating func readProgramDateTime(_ value: ByteSpan) -> Bool {
    let span = text.trimmed(value)
    guard let (date, isWriterForm) = ISO8601Text.parseNotingForm(text, span) else {
      context.warn(
        "EXT-X-PROGRAM-DATE-TIME '\(ParserContext.excerpt(text.string(span)))' is not an ISO 8601 date; kept as an unknown tag"
      )
      return false
    }
    if pendingDate != nil {
      context.warn("EXT-X-PROGRAM-DATE-TIME appears twice for one segment; the last one is used")
    }
    pendingDate = (date, isWriterForm ? .formatted(date) : .written(text.string(span)))
    return true
  }

  /// `EXT-X-DATERANGE`; false (with a warning) when it has no `ID`.
  mutating func readDateRange(_ value: ByteSpan) throws(PlaylistParseError) -> Bool {
    let list = context.attributes(value, of: .dateRange)
    guard let id = try context.string("ID", in: list) else {
      context.warn("EXT-X-DATERANGE has no ID; kept as an unknown tag")
      return false
    }
    guard playlist.dateRanges.count < context.limits.maxSegments else {
      throw context.error(.limitExceeded, "more than \(context.limits.maxSegments) date ranges")
    }
    context.warnUnknownAttributes(
      list,
      known: [
        "ID", "CLASS", "START-DATE", "CUE", "END-DATE", "DURATION", "PLANNED-DURATION",
        "END-ON-NEXT", "SCTE35-CMD", "SCTE35-OUT", "SCTE35-IN",
      ], of: .dateRange, allowClientAttributes: true)
    var range = DateRange(id: id, position: playlist.segments.count)
    range.classValue = try context.string("CLASS", in: list)
    range.cue = try context.string("CUE", in: list)
    (range.startDate, range.startDateText) = try date("START-DATE", in: list)
    (range.endDate, range.endDateText) = try date("END-DATE", in: list)
    range.duration = context.optionalTime("DURATION", in: list, of: .dateRange)
    range.plannedDuration = context.optionalTime("PLANNED-DURATION", in: list, of: .dateRange)
    range.endOnNext = context.flag("END-ON-NEXT", in: list)
    range.scte35Command = scte35("SCTE35-CMD", in: list)
    range.scte35Out = scte35("SCTE35-OUT", in: list)
    range.scte35In = scte35("SCTE35-IN", in: list)
    for entry in list.entries where text.hasPrefix(entry.name, "X-") {
      range.clientAttributes[text.string(entry.name)] = try context.string(entry)
    }
    playlist.dateRanges.append(range)
    return true
  }

  private mutating func date(_ name: StaticString, in list: AttributeList)
    throws(PlaylistParseError) -> (Date?, String?)
  {
    guard let entry = list.entry(name, in: text) else { return (nil, nil) }
    let written = try context.string(entry)
    let date = ParserContext.withBytes(of: written) {
      ISO8601Text.parse($0, ByteSpan(0, $0.bytes.count))
    }
    if date == nil {
      context.warn(
        "EXT-X-DATERANGE \(name) '\(ParserContext.excerpt(written))' is not an ISO 8601 date")
    }
    return (date, written)
  }

  private mutating func scte35(_ name: StaticString, in list: AttributeList) -> String? {
    guard let entry = list.entry(name, in: text) else { return nil }
    guard text.isHexSequence(entry.value) else {
      context.warn("EXT-X-DATERANGE \(name) is not a hexadecimal sequence; ignored")
      return nil
    }
    return text.string(entry.value)
  }
}
