import Foundation

extension Video {
  /// Creates a video from a Playback API video object.
  ///
  /// `sources` and `cue_points` (each optional, `null` allowed) become values; every other field
  /// stays in `properties` as parsed. Throws `.invalidValue` (with the field's path) when the
  /// object is not an object, a typed field (`id`, `name`, `reference_id`, `duration`,
  /// `custom_fields`, `text_tracks`) has the wrong JSON type, or a source or cue point is
  /// malformed; `.missingField` for a source without `src`.
  public init(json: JSONValue, path: String = "video") throws(PlayheadSDKError) {
    guard var object = json.objectValue else { throw .invalid(path, "an object") }
    var sources: [Source] = []
    switch object.removeValue(forKey: "sources") {
    case nil, .null?: break
    case .array(let items)?:
      for (index, item) in items.enumerated() {
        sources.append(try Source(json: item, path: "\(path).sources[\(index)]"))
      }
    default: throw .invalid("\(path).sources", "an array")
    }
    var cuePoints: [CuePoint] = []
    switch object.removeValue(forKey: "cue_points") {
    case nil, .null?: break
    case .array(let items)?:
      for (index, item) in items.enumerated() {
        cuePoints.append(try CuePoint(json: item, path: "\(path).cue_points[\(index)]"))
      }
    default: throw .invalid("\(path).cue_points", "an array")
    }
    try Self.check(object, path: path)
    self.init(sources: sources, cuePoints: CuePointCollection(cuePoints), properties: object)
  }

  /// Creates a video from JSON text; see `init(json:path:)`. Throws `.malformedJSON` for text
  /// that is not JSON.
  public init(jsonData: Data) throws(PlayheadSDKError) {
    try self.init(json: JSONValue(data: jsonData))
  }

  /// The video as a Playback API video object: `properties` plus `sources` and `cue_points`.
  ///
  /// `cue_points` is written in position order.
  public var json: JSONValue {
    var object = properties
    object["sources"] = .array(sources.map(\.json))
    object["cue_points"] = .array(cuePoints.map(\.json))
    return .object(object)
  }

  private static func check(_ object: [String: JSONValue], path: String)
    throws(PlayheadSDKError)
  {
    for key in [VideoKey.id, VideoKey.name, VideoKey.referenceID, VideoKey.projection] {
      switch object[key] {
      case nil, .null?, .string?: continue
      default: throw .invalid("\(path).\(key)", "a string")
      }
    }
    switch object[VideoKey.duration] {
    case nil, .null?: break
    case .number(let ms)? where ms.isFinite && ms >= 0: break
    default: throw .invalid("\(path).duration", "a non-negative number of milliseconds")
    }
    switch object[VideoKey.customFields] {
    case nil, .null?, .object?: break
    default: throw .invalid("\(path).custom_fields", "an object")
    }
    switch object[VideoKey.textTracks] {
    case nil, .null?: break
    case .array(let items)?:
      for (index, item) in items.enumerated() {
        _ = try TextTrack(json: item, path: "\(path).text_tracks[\(index)]")
      }
    default: throw .invalid("\(path).text_tracks", "an array")
    }
  }
}
