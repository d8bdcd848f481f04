import Foundation
import Playhead

/// The command line's JSON values keep their keys in order (`OrderedJSON`).
typealias JSONValue = OrderedJSON

/// One key and value of a JSON object.
typealias JSONField = OrderedJSON.Field

extension JSONValue {
  /// Seconds rounded to the microsecond, or `null` when `time` is not numeric.
  static func seconds(_ time: MediaTime) -> JSONValue {
    guard time.isNumeric else { return .null }
    return .number(rounded(time.seconds, places: 6))
  }

  /// `value` as an integer, or `null`.
  static func int(_ value: Int?) -> JSONValue {
    value.map { .integer(Int64($0)) } ?? .null
  }

  /// `value` rounded to 6 decimal places, or `null` when nil or not finite.
  static func decimal(_ value: Double?) -> JSONValue {
    guard let value, value.isFinite else { return .null }
    return .number(rounded(value, places: 6))
  }

  /// `value` rounded to a whole number, or `null` when nil, not finite or out of range.
  static func wholeNumber(_ value: Double?) -> JSONValue {
    guard let value, value.isFinite, abs(value) < 9e15 else { return .null }
    return .integer(Int64(value.rounded()))
  }

  /// `value` as a string, or `null`.
  static func text(_ value: String?) -> JSONValue {
    value.map { .string($0) } ?? .null
  }

  /// `value` rounded half away from zero to `places` decimals.
  static func rounded(_ value: Double, places: Int) -> Double {
    let scale = pow(10, Double(places))
    let result = (value * scale).rounded() / scale
    return result == 0 ? 0 : result
  }
}

/// The JSON lines `play --json` writes: one per event, then one summary.
enum JSONLines {
  /// The line for `event`; `clockOrigin` is subtracted from the event's clock time.
  static func event(_ event: PlayerEvent, clockOrigin: MediaTime) -> String {
    eventValue(event, clockOrigin: clockOrigin).encoded
  }

  /// The JSON object of `event` (what `event(_:clockOrigin:)` writes on one line).
  static func eventValue(_ event: PlayerEvent, clockOrigin: MediaTime) -> JSONValue {
    var fields = [
      JSONField("event", .string(event.name)),
      JSONField("time", .seconds(event.itemTime)),
      JSONField("clock", .seconds(event.clockTime - clockOrigin)),
    ]
    fields += details(of: event.kind)
    if let error = event.error {
      fields.append(JSONField("error", .string(error.message)))
      fields.append(JSONField("errorCode", .string(error.code.rawValue)))
    }
    return JSONValue.object(fields)
  }

  /// The fields particular to one kind of event.
  private static func details(of kind: PlayerEvent.Kind) -> [JSONField] {
    switch kind {
    case .currentItemChanged(let item):
      return [JSONField("url", .text(item?.asset.url.absoluteString))]
    case .durationChanged(_, let duration):
      return [JSONField("duration", .seconds(duration))]
    case .rateChanged(let rate):
      return [JSONField("rate", .decimal(Double(rate)))]
    case .timeControlStatusChanged(.waitingToPlayAtSpecifiedRate(let reason)):
      return [JSONField("reason", .string(reason.rawValue))]
    case .loadedTimeRangesChanged(_, let ranges):
      let values = ranges.map { JSONValue.array([.seconds($0.start), .seconds($0.end)]) }
      return [JSONField("ranges", .array(values))]
    case .seekCompleted(_, let finished):
      return [JSONField("finished", .bool(finished))]
    case .softwareDecodingUsed(_, let reason):
      return [JSONField("reason", .string(reason))]
    case .variantChanged(_, let variant, let reason):
      return [
        JSONField("index", .int(variant.index)),
        JSONField("bandwidth", .int(variant.bandwidth)),
        JSONField("width", .int(variant.width)),
        JSONField("height", .int(variant.height)),
        JSONField("codecs", .text(variant.codecs)),
        JSONField("uri", .string(variant.uri)),
        JSONField("reason", .string(reason.rawValue)),
      ]
    case .downloadSpeedChanged(_, let speed):
      return [JSONField("bitsPerSecond", .wholeNumber(speed))]
    case .audioRenditionChanged(_, let rendition):
      // The session's track ID (hls:<group>:<name>, stream:<index>); null: the variant's own.
      let option = rendition.flatMap { AudioTrackOption(rendition: $0) }
      return [
        JSONField("audioTrack", .text(option?.id)),
        JSONField("language", .text(rendition?.language)),
        JSONField("label", .text(rendition?.name)),
      ]
    case .sourceRefreshed(_, let record):
      return [
        JSONField("purpose", .string(record.expired.purpose.rawValue)),
        JSONField("expiredURL", .string(record.expired.url.absoluteString)),
        JSONField("url", .string(record.newURL.absoluteString)),
      ]
    default:
      return []
    }
  }

  /// The summary line that ends `play --json`.
  static func summary(_ summary: PlaySummary) -> String {
    let statistics = summary.statistics
    let timeToFirstFrame: JSONValue =
      statistics.timeToFirstFrame.isNumeric
      ? .decimal(statistics.timeToFirstFrame.seconds * 1000) : .null
    return JSONValue.object([
      JSONField("event", .string("summary")),
      JSONField("outcome", .string(summary.outcome)),
      JSONField("timeToFirstFrameMs", timeToFirstFrame),
      JSONField("framesDecoded", .int(statistics.framesDecoded)),
      JSONField("framesRendered", .int(statistics.framesRendered)),
      JSONField("framesDropped", .int(statistics.framesDropped)),
      JSONField("audioSamplesDecoded", .int(statistics.audioSamplesDecoded)),
      JSONField("audioSamplesPlayed", .int(statistics.audioSamplesPlayed)),
      JSONField("stallCount", .int(statistics.stallCount)),
      JSONField("stallSeconds", .seconds(statistics.totalStallTime)),
      JSONField("totalStallSeconds", .seconds(statistics.totalStallTime)),
      JSONField("switchCount", .int(statistics.variantSwitchCount)),
      JSONField("averageBitrate", .wholeNumber(summary.averageBitRate)),
      JSONField("bytesRead", .integer(statistics.bytesRead)),
      JSONField("durationSeconds", .seconds(summary.duration)),
      JSONField("playedSeconds", .seconds(summary.played)),
    ]).encoded
  }
}
