import Foundation

/// Maps Playback API responses to values, leniently where the API's own shapes would
/// otherwise be refused.
///
/// The value layer is strict (a source without `src` is an error). Real responses carry
/// renditions the value model cannot hold, such as RTMP ones (`app_name` + `stream_name`,
/// no `src`). So, before the strict conversion, each source, text track and cue point
/// that its own converter refuses is left out with a warning naming it; everything else
/// must convert, or the whole response is a deserialisation error.
enum CatalogMapping {
  /// The video of a response body.
  static func video(
    _ json: JSONValue, path: String = "video"
  ) throws(PlayheadSDKError) -> (Video, [String]) {
    guard var object = json.objectValue else { throw .invalid(path, "an object") }
    var warnings: [String] = []
    func prune(
      _ key: String, what: String,
      _ accepts: (JSONValue, String) throws(PlayheadSDKError) -> Void
    ) {
      guard let items = object[key]?.arrayValue else { return }
      var kept: [JSONValue] = []
      for (index, item) in items.enumerated() {
        let itemPath = "\(path).\(key)[\(index)]"
        do {
          try accepts(item, itemPath)
          kept.append(item)
        } catch {
          warnings.append("\(what) \(itemPath) left out: \(Self.reason(error, item: item))")
        }
      }
      object[key] = .array(kept)
    }
    prune("sources", what: "source") { item, itemPath throws(PlayheadSDKError) in
      _ = try Source(json: item, path: itemPath)
    }
    prune("text_tracks", what: "text track") { item, itemPath throws(PlayheadSDKError) in
      _ = try TextTrack(json: item, path: itemPath)
    }
    prune("cue_points", what: "cue point") { item, itemPath throws(PlayheadSDKError) in
      _ = try CuePoint(json: item, path: itemPath)
    }
    let video = try Video(json: .object(object), path: path)
    return (video, warnings)
  }

  /// The playlist of a response body: an object with `videos`, or a bare array of videos.
  static func playlist(_ json: JSONValue) throws(PlayheadSDKError) -> (Playlist, [String]) {
    let (items, properties) = try Playlist.videoItems(of: json)
    var videos: [Video] = []
    var warnings: [String] = []
    for (index, item) in items.enumerated() {
      let (video, more) = try Self.video(item, path: "videos[\(index)]")
      videos.append(video)
      warnings += more
    }
    return (Playlist(videos: videos, properties: properties), warnings)
  }

  /// Why an item was left out: RTMP renditions are named as such.
  private static func reason(_ error: PlayheadSDKError, item: JSONValue) -> String {
    if let object = item.objectValue, object["src"] == nil || object["src"] == .null,
      object["app_name"] != nil || object["stream_name"] != nil
    {
      return "an RTMP rendition (app_name/stream_name, no src)"
    }
    return error.message
  }
}
