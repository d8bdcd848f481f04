import Foundation
import Playhead

/// The `manifest --json` object of an MPD (the schema is in docs/dash.md).
enum ManifestJSON {
  static func value(_ mpd: MPD) -> JSONValue {
    .object([
      JSONField("kind", .string("mpd")),
      JSONField("type", .string(mpd.type.rawValue)),
      JSONField("url", .string(mpd.url.absoluteString)),
      JSONField("duration", mpd.mediaPresentationDuration.map(JSONValue.seconds) ?? .null),
      JSONField("minBufferTime", mpd.minBufferTime.map(JSONValue.seconds) ?? .null),
      JSONField("timeShiftBufferDepth", mpd.timeShiftBufferDepth.map(JSONValue.seconds) ?? .null),
      JSONField(
        "availabilityStartTime",
        .text(mpd.availabilityStartTime.map { ISO8601DateFormatter().string(from: $0) })),
      JSONField("baseURLs", .array(mpd.baseURLs.map { .string($0.absoluteString) })),
      JSONField("periods", .array(mpd.periods.map { period(mpd, $0) })),
    ])
  }

  static func period(_ mpd: MPD, _ period: MPDPeriod) -> JSONValue {
    .object([
      JSONField("id", .text(period.id)),
      JSONField("start", JSONValue.seconds(period.start)),
      JSONField("duration", period.duration.map(JSONValue.seconds) ?? .null),
      JSONField(
        "adaptationSets",
        .array(
          period.adaptationSets.map { set in
            .object([
              JSONField("contentType", .text(set.contentType)),
              JSONField("mimeType", .text(set.mimeType)),
              JSONField("lang", .text(set.language)),
              JSONField("trickMode", .bool(set.isTrickMode)),
              JSONField(
                "defaultKIDs",
                .array(set.contentProtections.compactMap(\.defaultKID).map(JSONValue.string))),
              JSONField(
                "representations",
                .array(set.representations.map { representation(mpd, period, $0) })),
            ])
          })),
      JSONField("eventStreams", .integer(Int64(period.eventStreams.count))),
    ])
  }

  static func representation(_ mpd: MPD, _ period: MPDPeriod, _ representation: MPDRepresentation)
    -> JSONValue
  {
    var fields = [
      JSONField("id", .string(representation.id)),
      JSONField("bandwidth", .integer(Int64(representation.bandwidth))),
      JSONField("codecs", .text(representation.codecs)),
      JSONField("width", representation.width.map { .integer(Int64($0)) } ?? .null),
      JSONField("height", representation.height.map { .integer(Int64($0)) } ?? .null),
      JSONField(
        "addressing",
        .string(ManifestText.addressing(representation, period: period, isStatic: false))),
      JSONField("initialization", .text(representation.initialization?.url.absoluteString)),
    ]
    if mpd.type == .static {
      let count = representation.segmentCount(in: period, limit: ManifestText.countLimit)
      fields.append(JSONField("segmentCount", count.map { .integer(Int64($0)) } ?? .null))
      fields.append(
        JSONField(
          "firstSegment",
          .text(representation.segmentSequence(in: period).first { _ in true }?.url.absoluteString))
      )
    }
    return .object(fields)
  }
}
