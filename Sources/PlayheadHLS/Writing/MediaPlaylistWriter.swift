import Foundation
import PlayheadCore

/// Writes one media playlist.
struct MediaPlaylistWriter {
  let playlist: MediaPlaylist
  private var output = ""
  /// The source text of substituted values.
  private let sources: SubstitutionSources
  /// The keys, map and bitrate a reader of the text written so far would have in effect.
  private var keys: [EncryptionKey] = []
  private var map: InitializationSection?
  private var bitrate: Int?
  /// Unknown tags, date ranges and ad markers by position, and how many of each are
  /// written.
  private let unknownTags: [UnknownTag]
  private let dateRanges: [DateRange]
  private let adMarkers: [AdMarker]
  private var unknownIndex = 0
  private var dateRangeIndex = 0
  private var adMarkerIndex = 0

  init(playlist: MediaPlaylist) {
    self.playlist = playlist
    self.sources = playlist.substitutionSources
    self.unknownTags = Self.stableSorted(playlist.unknownTags, by: \.position)
    self.dateRanges = Self.stableSorted(playlist.dateRanges, by: \.position)
    self.adMarkers = Self.stableSorted(playlist.adMarkers, by: \.position)
  }

  private static func stableSorted<T>(_ items: [T], by position: (T) -> Int) -> [T] {
    items.enumerated().sorted {
      (position($0.element), $0.offset) < (position($1.element), $1.offset)
    }
    .map(\.element)
  }

  private mutating func line(_ text: String) {
    output += text
    output += "\n"
  }

  mutating func write() -> String {
    output.reserveCapacity(64 + playlist.segments.count * 48)
    line("#EXTM3U")
    writeHeader()
    for (index, segment) in playlist.segments.enumerated() {
      writePositioned(upTo: index)
      write(segment)
    }
    writePositioned(upTo: Int.max)
    for part in playlist.trailingParts { line(Self.part(part)) }
    for hint in playlist.preloadHints { line(Self.preloadHint(hint)) }
    for report in playlist.renditionReports { line(Self.renditionReport(report)) }
    if playlist.endList { line("#EXT-X-ENDLIST") }
    return output
  }

  private mutating func writeHeader() {
    if let version = playlist.version { line("#EXT-X-VERSION:\(version)") }
    line("#EXT-X-TARGETDURATION:\(playlist.targetDuration)")
    if playlist.mediaSequence != 0 { line("#EXT-X-MEDIA-SEQUENCE:\(playlist.mediaSequence)") }
    if playlist.discontinuitySequence != 0 {
      line("#EXT-X-DISCONTINUITY-SEQUENCE:\(playlist.discontinuitySequence)")
    }
    if let type = playlist.playlistType { line("#EXT-X-PLAYLIST-TYPE:\(type.rawValue)") }
    if playlist.iFramesOnly { line("#EXT-X-I-FRAMES-ONLY") }
    if playlist.independentSegments { line("#EXT-X-INDEPENDENT-SEGMENTS") }
    if let start = playlist.start { line(CommonTagText.start(start)) }
    if let target = playlist.partTargetDuration {
      line("#EXT-X-PART-INF:PART-TARGET=\(WriterFormat.decimal(target))")
    }
    if let control = playlist.serverControl { line(Self.serverControl(control)) }
    for definition in CommonTagText.definitions(playlist.definitions) { line(definition) }
    if let skip = playlist.skip {
      var attributes = AttributeWriter()
      attributes.plain("SKIPPED-SEGMENTS", String(skip.skippedSegments))
      if !skip.recentlyRemovedDateRanges.isEmpty {
        attributes.quoted(
          "RECENTLY-REMOVED-DATERANGES", skip.recentlyRemovedDateRanges.joined(separator: "\t"))
      }
      line("#EXT-X-SKIP:" + attributes.text)
    }
  }

  /// Writes the unknown tags, ad markers and date ranges whose position is at most
  /// `position`.
  private mutating func writePositioned(upTo position: Int) {
    while unknownIndex < unknownTags.count && unknownTags[unknownIndex].position <= position {
      line(unknownTags[unknownIndex].text)
      unknownIndex += 1
    }
    while adMarkerIndex < adMarkers.count && adMarkers[adMarkerIndex].position <= position {
      line(adMarkers[adMarkerIndex].text)
      adMarkerIndex += 1
    }
    while dateRangeIndex < dateRanges.count && dateRanges[dateRangeIndex].position <= position {
      line(Self.dateRange(dateRanges[dateRangeIndex]))
      dateRangeIndex += 1
    }
  }

  private mutating func write(_ segment: MediaSegment) {
    if segment.map != map, let newMap = segment.map {
      switchKeys(to: newMap.keys)
      var attributes = AttributeWriter()
      attributes.quoted("URI", newMap.uriString)
      attributes.quoted("BYTERANGE", WriterFormat.byteRange(newMap.byteRange))
      line("#EXT-X-MAP:" + attributes.text)
      map = newMap
    }
    switchKeys(to: segment.keys)
    if segment.bitrate != bitrate, let newBitrate = segment.bitrate {
      line("#EXT-X-BITRATE:\(newBitrate)")
      bitrate = newBitrate
    }
    if segment.discontinuity { line("#EXT-X-DISCONTINUITY") }
    if let date = segment.programDateTimeText { line("#EXT-X-PROGRAM-DATE-TIME:" + date) }
    if segment.gap { line("#EXT-X-GAP") }
    for part in segment.parts { line(Self.part(part)) }
    line("#EXTINF:" + WriterFormat.decimal(segment.duration) + "," + (segment.title ?? ""))
    if let range = WriterFormat.byteRange(segment.byteRange) { line("#EXT-X-BYTERANGE:" + range) }
    line(sources.isEmpty ? segment.uriString : sources.text(for: segment.uriString))
  }

  /// Writes the `EXT-X-KEY` tags that turn the keys in effect into `target`: the new keys
  /// alone when replacing by `KEYFORMAT` and appending reaches `target`, else
  /// `METHOD=NONE` first.
  private mutating func switchKeys(to target: [EncryptionKey]) {
    guard target != keys else { return }
    var reached = keys
    for key in target {
      if let index = reached.firstIndex(where: { $0.keyFormat == key.keyFormat }) {
        reached[index] = key
      } else {
        reached.append(key)
      }
    }
    if target.isEmpty || reached != target { line("#EXT-X-KEY:METHOD=NONE") }
    for key in target { line(CommonTagText.key(key, tag: "#EXT-X-KEY")) }
    keys = target
  }

  static func part(_ part: PartialSegment) -> String {
    var attributes = AttributeWriter()
    attributes.plain("DURATION", WriterFormat.decimal(part.duration))
    attributes.quoted("URI", part.uriString)
    attributes.yes("INDEPENDENT", part.independent)
    attributes.quoted("BYTERANGE", WriterFormat.byteRange(part.byteRange))
    attributes.yes("GAP", part.gap)
    return "#EXT-X-PART:" + attributes.text
  }

  static func serverControl(_ control: ServerControl) -> String {
    var attributes = AttributeWriter()
    attributes.plain("CAN-SKIP-UNTIL", control.canSkipUntil.map(WriterFormat.decimal))
    attributes.yes("CAN-SKIP-DATERANGES", control.canSkipDateRanges)
    attributes.plain("HOLD-BACK", control.holdBack.map(WriterFormat.decimal))
    attributes.plain("PART-HOLD-BACK", control.partHoldBack.map(WriterFormat.decimal))
    attributes.yes("CAN-BLOCK-RELOAD", control.canBlockReload)
    return "#EXT-X-SERVER-CONTROL:" + attributes.text
  }

  static func preloadHint(_ hint: PreloadHint) -> String {
    var attributes = AttributeWriter()
    attributes.plain("TYPE", hint.type.rawValue)
    attributes.quoted("URI", hint.uriString)
    attributes.plain("BYTERANGE-START", hint.byteRangeStart.map { String($0) })
    attributes.plain("BYTERANGE-LENGTH", hint.byteRangeLength.map { String($0) })
    return "#EXT-X-PRELOAD-HINT:" + attributes.text
  }

  static func renditionReport(_ report: RenditionReport) -> String {
    var attributes = AttributeWriter()
    attributes.quoted("URI", report.uriString)
    attributes.plain("LAST-MSN", report.lastMediaSequence.map { String($0) })
    attributes.plain("LAST-PART", report.lastPart.map { String($0) })
    return "#EXT-X-RENDITION-REPORT:" + attributes.text
  }

  static func dateRange(_ range: DateRange) -> String {
    var attributes = AttributeWriter()
    attributes.quoted("ID", range.id)
    attributes.quoted("CLASS", range.classValue)
    attributes.quoted("START-DATE", range.startDateText ?? range.startDate.map(ISO8601Text.format))
    attributes.quoted("CUE", range.cue)
    attributes.quoted("END-DATE", range.endDateText ?? range.endDate.map(ISO8601Text.format))
    attributes.plain("DURATION", range.duration.map(WriterFormat.decimal))
    attributes.plain("PLANNED-DURATION", range.plannedDuration.map(WriterFormat.decimal))
    attributes.plain("SCTE35-CMD", range.scte35Command)
    attributes.plain("SCTE35-OUT", range.scte35Out)
    attributes.plain("SCTE35-IN", range.scte35In)
    attributes.yes("END-ON-NEXT", range.endOnNext)
    for name in range.clientAttributes.keys.sorted() {
      attributes.token(name, range.clientAttributes[name])
    }
    return "#EXT-X-DATERANGE:" + attributes.text
  }
}
