import Foundation
import PlayheadCore

extension CuePoint {
  /// The timescale of cue-point times read from JSON seconds (microseconds).
  public static let jsonTimescale: Int32 = 1_000_000

  /// Creates a cue point from a Playback API cue-point object.
  ///
  /// `time` is in seconds (a number), or the string `before` / `after`; a missing `type` becomes
  /// an empty string. Throws `.missingField` without `time` and `.invalidValue` for a negative,
  /// non-numeric, non-finite or too large time (beyond about 292,000 years) or a non-string
  /// `type`.
  public init(json: JSONValue, path: String = "cue_point") throws(PlayheadSDKError) {
    guard var object = json.objectValue else { throw .invalid(path, "an object") }
    guard let timeValue = object.removeValue(forKey: "time") else {
      throw .missing("\(path).time")
    }
    let position: CuePointPosition
    switch timeValue {
    case .number(let seconds) where seconds.isFinite && seconds >= 0:
      let time = MediaTime(seconds: seconds, preferredTimescale: Self.jsonTimescale)
      guard time.isNumeric else { throw .invalid("\(path).time", "a representable time") }
      position = .time(time)
    case .string("before"): position = .before
    case .string("after"): position = .after
    default: throw .invalid("\(path).time", "a non-negative number of seconds")
    }
    let type: String
    switch object.removeValue(forKey: "type") {
    case nil, .null?: type = ""
    case .string(let value)?: type = value
    default: throw .invalid("\(path).type", "a string")
    }
    self.init(type: type, position: position, properties: object)
  }

  /// The cue point as a Playback API cue-point object: `properties` plus `type` and `time`.
  public var json: JSONValue {
    var object = properties
    object["type"] = .string(type)
    switch position {
    case .before: object["time"] = .string("before")
    case .after: object["time"] = .string("after")
    case .time(let time): object["time"] = .number(time.seconds)
    }
    return .object(object)
  }
}
