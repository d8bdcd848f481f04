import Foundation
import Playhead

/// The `playlist --json` object (the schema is in docs/hls-playlists.md).
enum PlaylistJSON {
  static func value(_ playlist: PlayheadHLS.Playlist) -> JSONValue {
    switch playlist {
    case .master(let master): return value(master)
    case .media(let media): return value(media)
    }
  }

  static func value(_ playlist: MediaPlaylist) -> JSONValue {
    .object([
      JSONField("kind", .string("media")),
      JSONField("url", .string(playlist.url.absoluteString)),
      JSONField("version", .int(playlist.version)),
      JSONField("independentSegments", .bool(playlist.independentSegments)),
      JSONField("start", start(playlist.start)),
      JSONField("targetDuration", .int(playlist.targetDuration)),
      JSONField("mediaSequence", .int(playlist.mediaSequence)),
      JSONField("discontinuitySequence", .int(playlist.discontinuitySequence)),
      JSONField("playlistType", .text(playlist.playlistType?.rawValue)),
      JSONField("endList", .bool(playlist.endList)),
      JSONField("iFramesOnly", .bool(playlist.iFramesOnly)),
      JSONField("totalDuration", .seconds(playlist.totalDuration)),
      JSONField("segments", .array(playlist.segments.map(segment))),
      JSONField("partTargetDuration", playlist.partTargetDuration.map(JSONValue.seconds) ?? .null),
      JSONField("parts", .array(playlist.trailingParts.map(part))),
      JSONField("serverControl", serverControl(playlist.serverControl)),
      JSONField("preloadHints", .array(playlist.preloadHints.map(preloadHint))),
      JSONField("renditionReports", .array(playlist.renditionReports.map(renditionReport))),
      JSONField("skip", skip(playlist.skip)),
      JSONField("dateRanges", .array(playlist.dateRanges.map(dateRange))),
      JSONField("adMarkers", .array(playlist.adMarkers.map(adMarker))),
      JSONField("definitions", definitions(playlist.definitions)),
      JSONField("unknownTags", .array(playlist.unknownTags.map(unknownTag))),
      JSONField("warnings", warnings(playlist.warnings)),
    ])
  }

  static func value(_ playlist: MasterPlaylist) -> JSONValue {
    .object([
      JSONField("kind", .string("master")),
      JSONField("url", .string(playlist.url.absoluteString)),
      JSONField("version", .int(playlist.version)),
      JSONField("independentSegments", .bool(playlist.independentSegments)),
      JSONField("start", start(playlist.start)),
      JSONField("variants", .array(playlist.variants.map(variant))),
      JSONField("iFrameVariants", .array(playlist.iFrameVariants.map(iFrameVariant))),
      JSONField("renditions", .array(playlist.renditions.map(rendition))),
      JSONField("sessionData", .array(playlist.sessionData.map(sessionData))),
      JSONField("sessionKeys", .array(playlist.sessionKeys.map(key))),
      JSONField("contentSteering", contentSteering(playlist.contentSteering)),
      JSONField("definitions", definitions(playlist.definitions)),
      JSONField("unknownTags", .array(playlist.unknownTags.map(unknownTag))),
      JSONField("warnings", warnings(playlist.warnings)),
    ])
  }

  private static func segment(_ segment: MediaSegment) -> JSONValue {
    .object([
      JSONField("uri", .string(segment.uriString)),
      JSONField("duration", .seconds(segment.duration)),
      JSONField("title", .text(segment.title)),
      JSONField("byteRange", byteRange(segment.byteRange)),
      JSONField("discontinuity", .bool(segment.discontinuity)),
      JSONField("gap", .bool(segment.gap)),
      JSONField("key", segment.key.map(key) ?? .null),
      JSONField("map", initializationSection(segment.map)),
      JSONField("programDateTime", .text(segment.programDateTime.map(isoDate))),
      JSONField("mediaSequence", .int(segment.mediaSequence)),
      JSONField("discontinuitySequence", .int(segment.discontinuitySequence)),
      JSONField("bitrate", .int(segment.bitrate)),
      JSONField("parts", .array(segment.parts.map(part))),
    ])
  }

  private static func part(_ part: PartialSegment) -> JSONValue {
    .object([
      JSONField("uri", .string(part.uriString)),
      JSONField("duration", .seconds(part.duration)),
      JSONField("independent", .bool(part.independent)),
      JSONField("byteRange", byteRange(part.byteRange)),
      JSONField("gap", .bool(part.gap)),
    ])
  }

  private static func byteRange(_ range: ByteRange?) -> JSONValue {
    guard let range else { return .null }
    return .object([
      JSONField("length", range.length.map { .integer($0) } ?? .null),
      JSONField("offset", .integer(range.offset)),
    ])
  }

  private static func key(_ key: EncryptionKey) -> JSONValue {
    .object([
      JSONField("method", .string(key.method.rawValue)),
      JSONField("uri", .text(key.uriString)),
      JSONField("iv", .text(key.iv.map(hex))),
      JSONField("keyFormat", .string(key.keyFormat)),
      JSONField("keyFormatVersions", .text(key.keyFormatVersions)),
    ])
  }

  private static func initializationSection(_ map: InitializationSection?) -> JSONValue {
    guard let map else { return .null }
    return .object([
      JSONField("uri", .string(map.uriString)),
      JSONField("byteRange", byteRange(map.byteRange)),
    ])
  }

  private static func variant(_ variant: Variant) -> JSONValue {
    .object([
      JSONField("uri", .string(variant.uriString)),
      JSONField("bandwidth", .int(variant.bandwidth)),
      JSONField("averageBandwidth", .int(variant.averageBandwidth)),
      JSONField("resolution", .text(variant.resolution?.description)),
      JSONField("codecs", .text(variant.codecs)),
      JSONField("frameRate", .decimal(variant.frameRate)),
      JSONField("audio", .text(variant.audioGroup)),
      JSONField("video", .text(variant.videoGroup)),
      JSONField("subtitles", .text(variant.subtitlesGroup)),
      JSONField("closedCaptions", .text(variant.closedCaptions)),
      JSONField("hdcpLevel", .text(variant.hdcpLevel)),
      JSONField("pathwayId", .text(variant.pathwayID)),
      JSONField("stableVariantId", .text(variant.stableVariantID)),
    ])
  }

  private static func iFrameVariant(_ variant: IFrameVariant) -> JSONValue {
    .object([
      JSONField("uri", .string(variant.uriString)),
      JSONField("bandwidth", .int(variant.bandwidth)),
      JSONField("averageBandwidth", .int(variant.averageBandwidth)),
      JSONField("resolution", .text(variant.resolution?.description)),
      JSONField("codecs", .text(variant.codecs)),
      JSONField("video", .text(variant.videoGroup)),
    ])
  }

  private static func rendition(_ rendition: Rendition) -> JSONValue {
    .object([
      JSONField("type", .string(rendition.type.rawValue)),
      JSONField("groupId", .string(rendition.groupID)),
      JSONField("name", .string(rendition.name)),
      JSONField("language", .text(rendition.language)),
      JSONField("assocLanguage", .text(rendition.assocLanguage)),
      JSONField("default", .bool(rendition.isDefault)),
      JSONField("autoselect", .bool(rendition.autoselect)),
      JSONField("forced", .bool(rendition.forced)),
      JSONField("instreamId", .text(rendition.instreamID)),
      JSONField("characteristics", .text(rendition.characteristics)),
      JSONField("channels", .text(rendition.channels)),
      JSONField("uri", .text(rendition.uriString)),
    ])
  }

  private static func sessionData(_ data: SessionData) -> JSONValue {
    .object([
      JSONField("dataId", .string(data.dataID)),
      JSONField("value", .text(data.value)),
      JSONField("uri", .text(data.uriString)),
      JSONField("format", .text(data.format)),
      JSONField("language", .text(data.language)),
    ])
  }

  private static func contentSteering(_ steering: ContentSteering?) -> JSONValue {
    guard let steering else { return .null }
    return .object([
      JSONField("serverUri", .string(steering.serverURIString)),
      JSONField("pathwayId", .text(steering.pathwayID)),
    ])
  }

  private static func start(_ start: StartPoint?) -> JSONValue {
    guard let start else { return .null }
    return .object([
      JSONField("timeOffset", .seconds(start.timeOffset)),
      JSONField("precise", .bool(start.precise)),
    ])
  }

  private static func serverControl(_ control: ServerControl?) -> JSONValue {
    guard let control else { return .null }
    return .object([
      JSONField("canSkipUntil", control.canSkipUntil.map(JSONValue.seconds) ?? .null),
      JSONField("canSkipDateRanges", .bool(control.canSkipDateRanges)),
      JSONField("holdBack", control.holdBack.map(JSONValue.seconds) ?? .null),
      JSONField("partHoldBack", control.partHoldBack.map(JSONValue.seconds) ?? .null),
      JSONField("canBlockReload", .bool(control.canBlockReload)),
    ])
  }

  private static func preloadHint(_ hint: PreloadHint) -> JSONValue {
    .object([
      JSONField("type", .string(hint.type.rawValue)),
      JSONField("uri", .string(hint.uriString)),
      JSONField("byteRangeStart", hint.byteRangeStart.map { .integer($0) } ?? .null),
      JSONField("byteRangeLength", hint.byteRangeLength.map { .integer($0) } ?? .null),
    ])
  }

  private static func renditionReport(_ report: RenditionReport) -> JSONValue {
    .object([
      JSONField("uri", .text(report.uriString)),
      JSONField("lastMediaSequence", .int(report.lastMediaSequence)),
      JSONField("lastPart", .int(report.lastPart)),
    ])
  }

  private static func skip(_ skip: SkipInfo?) -> JSONValue {
    guard let skip else { return .null }
    return .object([
      JSONField("skippedSegments", .int(skip.skippedSegments)),
      JSONField(
        "recentlyRemovedDateRanges", .array(skip.recentlyRemovedDateRanges.map { .string($0) })),
    ])
  }

  private static func dateRange(_ range: DateRange) -> JSONValue {
    .object([
      JSONField("id", .string(range.id)),
      JSONField("class", .text(range.classValue)),
      JSONField("startDate", .text(range.startDate.map(isoDate) ?? range.startDateText)),
      JSONField("endDate", .text(range.endDate.map(isoDate) ?? range.endDateText)),
      JSONField("duration", range.duration.map(JSONValue.seconds) ?? .null),
      JSONField("plannedDuration", range.plannedDuration.map(JSONValue.seconds) ?? .null),
      JSONField("endOnNext", .bool(range.endOnNext)),
      JSONField("cue", .text(range.cue)),
      JSONField(
        "clientAttributes",
        .object(
          range.clientAttributes.keys.sorted().map {
            JSONField($0, .text(range.clientAttributes[$0]))
          })),
      JSONField("position", .int(range.position)),
    ])
  }

  private static func definitions(_ definitions: [String: String]) -> JSONValue {
    .object(definitions.keys.sorted().map { JSONField($0, .text(definitions[$0])) })
  }

  private static func adMarker(_ marker: AdMarker) -> JSONValue {
    .object([
      JSONField("tag", .string(marker.kind.rawValue)), JSONField("value", .text(marker.value)),
      JSONField("position", .int(marker.position)),
    ])
  }

  private static func unknownTag(_ tag: UnknownTag) -> JSONValue {
    .object([JSONField("tag", .string(tag.text)), JSONField("position", .int(tag.position))])
  }

  private static func warnings(_ warnings: [ParseWarning]) -> JSONValue {
    .array(warnings.map { .string($0.description) })
  }

  /// `bytes` as lowercase `0x…`.
  static func hex(_ bytes: [UInt8]) -> String {
    "0x" + bytes.map { String(format: "%02x", $0) }.joined()
  }

  /// `date` as ISO 8601 in UTC with milliseconds.
  static func isoDate(_ date: Date) -> String {
    PlaylistDateText.string(from: date)
  }
}
