import Foundation
import PlayheadCore

/// Low-latency and delta-update tags: `EXT-X-PART-INF`, `EXT-X-SERVER-CONTROL`,
/// `EXT-X-PART`, `EXT-X-PRELOAD-HINT`, `EXT-X-RENDITION-REPORT`, `EXT-X-SKIP`.
///
/// None of them fails the parse for a missing or malformed attribute: the tag is kept as an
/// unknown tag with a warning (the origin rule and the limits still apply).
extension MediaPlaylistBuilder {
  mutating func readPartInf(_ value: ByteSpan) throws(PlaylistParseError) -> Bool {
    let list = context.attributes(value, of: .partInf)
    context.warnUnknownAttributes(list, known: ["PART-TARGET"], of: .partInf)
    guard let target = context.optionalTime("PART-TARGET", in: list, of: .partInf) else {
      context.warn("EXT-X-PART-INF needs a decimal PART-TARGET; kept as an unknown tag")
      return false
    }
    if try context.firstOccurrence(of: .partInf, value: WriterFormat.decimal(target)) {
      playlist.partTargetDuration = target
    }
    return true
  }

  mutating func readServerControl(_ value: ByteSpan) throws(PlaylistParseError) {
    let list = context.attributes(value, of: .serverControl)
    context.warnUnknownAttributes(
      list,
      known: [
        "CAN-SKIP-UNTIL", "CAN-SKIP-DATERANGES", "HOLD-BACK", "PART-HOLD-BACK", "CAN-BLOCK-RELOAD",
      ],
      of: .serverControl)
    let control = ServerControl(
      canSkipUntil: context.optionalTime("CAN-SKIP-UNTIL", in: list, of: .serverControl),
      canSkipDateRanges: context.flag("CAN-SKIP-DATERANGES", in: list),
      holdBack: context.optionalTime("HOLD-BACK", in: list, of: .serverControl),
      partHoldBack: context.optionalTime("PART-HOLD-BACK", in: list, of: .serverControl),
      canBlockReload: context.flag("CAN-BLOCK-RELOAD", in: list))
    let canonical = String(
      MediaPlaylistWriter.serverControl(control).dropFirst("#EXT-X-SERVER-CONTROL:".count))
    if try context.firstOccurrence(of: .serverControl, value: canonical) {
      playlist.serverControl = control
    }
  }

  mutating func readPart(_ value: ByteSpan) throws(PlaylistParseError) -> Bool {
    let list = context.attributes(value, of: .part)
    context.warnUnknownAttributes(
      list, known: ["URI", "DURATION", "INDEPENDENT", "BYTERANGE", "GAP"], of: .part)
    guard let uriEntry = list.entry("URI", in: text),
      let duration = context.optionalTime("DURATION", in: list, of: .part)
    else {
      context.warn("EXT-X-PART needs URI and a decimal DURATION; kept as an unknown tag")
      return false
    }
    guard partCount < context.limits.maxSegments else {
      throw context.error(
        .limitExceeded, "more than \(context.limits.maxSegments) partial segments")
    }
    let uri = try context.uri(uriEntry.value, in: "EXT-X-PART")
    var byteRange: ByteRange?
    if let rangeEntry = list.entry("BYTERANGE", in: text) {
      guard let range = text.byteRange(rangeEntry.value) else {
        context.warn(
          "EXT-X-PART BYTERANGE '\(text.string(rangeEntry.value))' is not n[@o]; kept as an unknown tag"
        )
        return false
      }
      var offset = range.offset
      if offset == nil, let last = lastPartRange, last.uri == uri { offset = last.end }
      guard let offset else {
        context.warn(
          "EXT-X-PART BYTERANGE has no offset and the part before it is not of the same resource; kept as an unknown tag"
        )
        return false
      }
      let (end, overflow) = offset.addingReportingOverflow(range.length)
      guard !overflow else {
        context.warn("EXT-X-PART BYTERANGE ends beyond 2^63 bytes; kept as an unknown tag")
        return false
      }
      byteRange = ByteRange(offset: offset, length: range.length)
      lastPartRange = (uri, end)
    } else {
      lastPartRange = nil
    }
    partCount += 1
    pendingParts.append(
      PartialSegment(
        uriString: uri, baseURL: context.url, duration: duration,
        independent: context.flag("INDEPENDENT", in: list), byteRange: byteRange,
        gap: context.flag("GAP", in: list)))
    return true
  }

  mutating func readPreloadHint(_ value: ByteSpan) throws(PlaylistParseError) -> Bool {
    let list = context.attributes(value, of: .preloadHint)
    context.warnUnknownAttributes(
      list, known: ["TYPE", "URI", "BYTERANGE-START", "BYTERANGE-LENGTH"], of: .preloadHint)
    guard let typeEntry = list.entry("TYPE", in: text),
      let type = PreloadHintType(rawValue: text.string(typeEntry.value)),
      let uriEntry = list.entry("URI", in: text)
    else {
      context.warn("EXT-X-PRELOAD-HINT needs TYPE (PART or MAP) and URI; kept as an unknown tag")
      return false
    }
    let uri = try context.uri(uriEntry.value, in: "EXT-X-PRELOAD-HINT")
    let start = context.optionalInteger("BYTERANGE-START", in: list, of: .preloadHint)
    let length = context.optionalInteger("BYTERANGE-LENGTH", in: list, of: .preloadHint)
    playlist.preloadHints.append(
      PreloadHint(
        type: type, uriString: uri, baseURL: context.url, byteRangeStart: start.map(Int64.init),
        byteRangeLength: length.map(Int64.init)))
    return true
  }

  mutating func readRenditionReport(_ value: ByteSpan) throws(PlaylistParseError) -> Bool {
    let list = context.attributes(value, of: .renditionReport)
    context.warnUnknownAttributes(
      list, known: ["URI", "LAST-MSN", "LAST-PART"], of: .renditionReport)
    guard let uriEntry = list.entry("URI", in: text) else {
      context.warn("EXT-X-RENDITION-REPORT has no URI; kept as an unknown tag")
      return false
    }
    guard playlist.renditionReports.count < context.limits.maxSegments else {
      throw context.error(
        .limitExceeded, "more than \(context.limits.maxSegments) rendition reports")
    }
    let uri = try context.uri(uriEntry.value, in: "EXT-X-RENDITION-REPORT")
    playlist.renditionReports.append(
      RenditionReport(
        uriString: uri, baseURL: context.url,
        lastMediaSequence: context.optionalInteger("LAST-MSN", in: list, of: .renditionReport),
        lastPart: context.optionalInteger("LAST-PART", in: list, of: .renditionReport)))
    return true
  }

  mutating func readSkip(_ value: ByteSpan) throws(PlaylistParseError) -> Bool {
    let list = context.attributes(value, of: .skip)
    context.warnUnknownAttributes(
      list, known: ["SKIPPED-SEGMENTS", "RECENTLY-REMOVED-DATERANGES"], of: .skip)
    guard let skipped = context.optionalInteger("SKIPPED-SEGMENTS", in: list, of: .skip) else {
      context.warn("EXT-X-SKIP needs a decimal SKIPPED-SEGMENTS; kept as an unknown tag")
      return false
    }
    var removed: [String] = []
    if let list = try context.string("RECENTLY-REMOVED-DATERANGES", in: list), !list.isEmpty {
      removed = list.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
    let skip = SkipInfo(skippedSegments: skipped, recentlyRemovedDateRanges: removed)
    let canonical =
      "SKIPPED-SEGMENTS=\(skipped)"
      + (removed.isEmpty ? "" : " RECENTLY-REMOVED-DATERANGES=" + removed.joined(separator: "\t"))
    guard try context.firstOccurrence(of: .skip, value: canonical) else { return true }
    if !playlist.segments.isEmpty {
      context.warn("EXT-X-SKIP comes after the first segment; it still applies to all of them")
      needsRenumbering = true
    }
    playlist.skip = skip
    return true
  }
}
