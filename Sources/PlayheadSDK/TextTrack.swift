import Foundation

/// A subtitle, caption, chapter or metadata track of a video, as the Playback API lists it in
/// `text_tracks`.
///
/// `properties` keeps the catalog's other fields (`id`, `sources`, `in_band`, …).
public struct TextTrack: Sendable, Equatable, Hashable {
  /// Where the WebVTT file is; `nil` for in-band tracks without one.
  public var src: URL?
  /// The BCP 47 language (`srclang`).
  public var srclang: String?
  /// The label shown to viewers.
  public var label: String?
  /// `subtitles`, `captions`, `chapters`, `metadata` or `descriptions`.
  public var kind: String
  /// Whether the track is on by default (`default`).
  public var isDefault: Bool
  /// The file's MIME type (`mime_type`), such as `text/vtt`.
  public var mimeType: String?
  /// The catalog's other fields.
  public var properties: [String: JSONValue]

  public init(
    src: URL?, srclang: String? = nil, label: String? = nil, kind: String = "captions",
    isDefault: Bool = false, mimeType: String? = "text/vtt", properties: [String: JSONValue] = [:]
  ) {
    self.src = src
    self.srclang = srclang
    self.label = label
    self.kind = kind
    self.isDefault = isDefault
    self.mimeType = mimeType
    self.properties = properties
  }

  /// Creates a track from a Playback API text-track object.
  ///
  /// A missing `kind` becomes `captions`, a missing `default` false. Throws `.invalidValue` when
  /// a field has the wrong type or `src` is not a URL.
  public init(json: JSONValue, path: String = "text_track") throws(PlayheadSDKError) {
    guard var object = json.objectValue else { throw .invalid(path, "an object") }
    func string(_ key: String) throws(PlayheadSDKError) -> String? {
      switch object.removeValue(forKey: key) {
      case nil, .null?: return nil
      case .string(let value)?: return value
      default: throw .invalid("\(path).\(key)", "a string")
      }
    }
    var src: URL?
    if let text = try string("src") {
      guard let url = URL(string: text) else { throw .invalid("\(path).src", "a URL") }
      src = url
    }
    let srclang = try string("srclang")
    let label = try string("label")
    let kind = try string("kind") ?? "captions"
    let mimeType = try string("mime_type")
    var isDefault = false
    switch object.removeValue(forKey: "default") {
    case nil, .null?: break
    case .bool(let value)?: isDefault = value
    default: throw .invalid("\(path).default", "a Boolean")
    }
    self.init(
      src: src, srclang: srclang, label: label, kind: kind, isDefault: isDefault,
      mimeType: mimeType, properties: object)
  }

  /// The track as a Playback API text-track object (`properties` plus the typed fields).
  public var json: JSONValue {
    var object = properties
    if let src { object["src"] = .string(src.absoluteString) }
    if let srclang { object["srclang"] = .string(srclang) }
    if let label { object["label"] = .string(label) }
    object["kind"] = .string(kind)
    object["default"] = .bool(isDefault)
    if let mimeType { object["mime_type"] = .string(mimeType) }
    return .object(object)
  }
}
