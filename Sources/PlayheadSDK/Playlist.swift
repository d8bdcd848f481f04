import Foundation

/// An ordered list of videos with the catalog's playlist fields.
///
/// An immutable value compared by value; `update` returns a changed copy. `properties` holds
/// every catalog field except `videos`.
public struct Playlist: Sendable, Equatable, Hashable {
  /// The fields of a playlist while `update` changes them.
  public struct Mutable: Sendable {
    public var videos: [Video]
    public var properties: [String: JSONValue]

    /// The catalog ID (`id`); `nil` removes it.
    public var id: String? {
      get { properties["id"]?.stringValue }
      set { properties.setString("id", newValue) }
    }
    /// The name (`name`); `nil` removes it.
    public var name: String? {
      get { properties["name"]?.stringValue }
      set { properties.setString("name", newValue) }
    }
  }

  /// The videos in play order.
  public let videos: [Video]
  /// The catalog's fields other than `videos`.
  public let properties: [String: JSONValue]

  public init(videos: [Video], properties: [String: JSONValue] = [:]) {
    self.videos = videos
    self.properties = properties
  }

  /// A copy changed by `body`; this value stays as it is.
  public func update<E: Error>(_ body: (inout Mutable) throws(E) -> Void) throws(E) -> Playlist {
    var mutable = Mutable(videos: videos, properties: properties)
    try body(&mutable)
    return Playlist(videos: mutable.videos, properties: mutable.properties)
  }

  /// The catalog ID (`id`).
  public var id: String? { properties["id"]?.stringValue }
  /// The name (`name`).
  public var name: String? { properties["name"]?.stringValue }

  /// Creates a playlist from a Playback API playlist object (`{"id", "name", "videos": [...]}`)
  /// or from a bare JSON array of video objects.
  ///
  /// Throws `.missingField` for an object without `videos`, `.invalidValue` for any other
  /// shape or a malformed video (the path names it, such as `videos[2].sources[0].src`).
  public init(json: JSONValue) throws(PlayheadSDKError) {
    let (items, properties) = try Self.videoItems(of: json)
    var videos: [Video] = []
    for (index, item) in items.enumerated() {
      videos.append(try Video(json: item, path: "videos[\(index)]"))
    }
    self.init(videos: videos, properties: properties)
  }

  /// The video items and the other fields of a playlist object, or the items of a bare
  /// array; checks the shape and the types of `id` and `name`.
  static func videoItems(of json: JSONValue) throws(PlayheadSDKError) -> (
    items: [JSONValue], properties: [String: JSONValue]
  ) {
    switch json {
    case .array(let array):
      return (array, [:])
    case .object(var object):
      guard let videos = object.removeValue(forKey: "videos") else { throw .missing("videos") }
      guard let array = videos.arrayValue else { throw .invalid("videos", "an array") }
      for key in ["id", "name"] {
        switch object[key] {
        case nil, .null?, .string?: continue
        default: throw .invalid(key, "a string")
        }
      }
      return (array, object)
    default:
      throw .invalid("playlist", "an object or an array of videos")
    }
  }

  /// Creates a playlist from JSON text; see `init(json:)`. Throws `.malformedJSON` for text that
  /// is not JSON.
  public init(jsonData: Data) throws(PlayheadSDKError) {
    try self.init(json: JSONValue(data: jsonData))
  }

  /// The playlist as a Playback API playlist object: `properties` plus `videos` (a playlist
  /// read from a bare array becomes `{"videos": [...]}`).
  public var json: JSONValue {
    var object = properties
    object["videos"] = .array(videos.map(\.json))
    return .object(object)
  }
}
