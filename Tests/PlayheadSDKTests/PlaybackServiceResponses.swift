import Foundation

/// Playback API responses written for the catalog tests, in the API's JSON shape.
enum CatalogResponses {
  /// A video with every field of the Playback API's video fields reference, including an
  /// RTMP rendition (no `src`) and DRM sources.
  static let fullVideo = """
    {
      "id": "6000000000001",
      "account_id": "1234567890",
      "name": "Chickadee",
      "reference_id": "bird-chickadee",
      "description": "A small friendly bird",
      "long_description": "A small friendly bird, filmed in winter.",
      "duration": 10010,
      "economics": "FREE",
      "labels": ["/nature", "/birds"],
      "link": {"text": "More birds", "url": "https://example.com/birds"},
      "offline_enabled": true,
      "created_at": "2014-12-09T06:07:11.877Z",
      "updated_at": "2015-01-13T17:45:21.977Z",
      "published_at": "2015-02-27T19:10:55Z",
      "poster": "https://img.example.com/poster.jpg",
      "poster_sources": [
        {"src": "http://img.example.com/poster.jpg"},
        {"src": "https://img.example.com/poster.jpg"}
      ],
      "thumbnail": "https://img.example.com/thumb.jpg",
      "thumbnail_sources": [{"src": "https://img.example.com/thumb.jpg"}],
      "projection": "equirectangular",
      "tags": ["air", "bird", "nature"],
      "custom_fields": {"genre": "nature", "rating": "G"},
      "ad_keys": null,
      "transcripts": [],
      "cue_points": [
        {"id": "cp-ad", "name": "midroll", "type": "AD", "time": 4.5, "metadata": "break=1",
         "force_stop": true},
        {"id": "cp-code", "name": "hook", "type": "CODE", "time": 1.25, "metadata": null,
         "force_stop": false}
      ],
      "text_tracks": [
        {"id": "tt-en", "account_id": "1234567890", "asset_id": "a-en",
         "src": "https://cdn.example.com/en.vtt", "srclang": "en", "label": "English",
         "kind": "captions", "mime_type": "text/vtt", "default": true,
         "sources": [{"src": "http://cdn.example.com/en.vtt"},
                     {"src": "https://cdn.example.com/en.vtt"}]},
        {"id": "tt-thumbs", "src": "https://cdn.example.com/thumbs.vtt", "srclang": null,
         "label": "thumbnails", "kind": "metadata", "mime_type": "text/vtt", "default": false,
         "sources": [{"src": "https://cdn.example.com/thumbs.vtt"}]},
        {"id": "tt-es", "src": null, "srclang": "es", "label": "Español", "kind": "subtitles",
         "mime_type": "text/vtt", "default": false,
         "in_band_metadata_track_dispatch_type": "com.apple.streaming", "sources": []}
      ],
      "sources": [
        {"type": "application/x-mpegURL", "src": "https://cdn.example.com/master.m3u8",
         "ext_x_version": "4", "codec": "H264", "container": "M2TS"},
        {"type": "application/dash+xml", "src": "https://cdn.example.com/manifest.mpd",
         "profiles": "urn:mpeg:dash:profile:isoff-live:2011",
         "key_systems": {
           "com.widevine.alpha": {"license_url": "https://license.example.com/widevine"},
           "com.microsoft.playready": {"license_url": "https://license.example.com/playready"}
         }},
        {"type": "application/vnd.apple.mpegurl", "src": "https://cdn.example.com/fairplay.m3u8",
         "key_systems": {"com.apple.fps.1_0": {
           "key_request_url": "https://license.example.com/fairplay",
           "certificate_url": "https://license.example.com/certificate"}}},
        {"avg_bitrate": 1108347, "width": 640, "height": 360, "size": 1141597,
         "duration": 10010, "codec": "H264", "container": "MP4", "asset_id": "4084480003001",
         "src": "https://cdn.example.com/high.mp4", "uploaded_at": "2015-02-27T19:10:55.425Z"},
        {"avg_bitrate": 1108347, "width": 640, "height": 360, "size": 1141597,
         "duration": 10010, "codec": "H264", "container": "MP4", "asset_id": "4084480003001",
         "app_name": "rtmp://rtmp.example.com/ondemand", "stream_name": "mp4:high.mp4&123"}
      ]
    }
    """

  /// A minimal video with one MP4 source at `src` and the given custom fields.
  static func video(
    id: String, name: String? = nil, src: String = "https://cdn.example.com/\(UUID()).mp4",
    customFields: [String: String] = [:]
  ) -> String {
    let fields = customFields.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\"" }
    return """
      {"id": "\(id)", "name": "\(name ?? "video \(id)")", "duration": 2000,
       "custom_fields": {\(fields.joined(separator: ", "))},
       "sources": [{"type": "video/mp4", "src": "\(src)", "width": 320, "height": 180}],
       "cue_points": [], "text_tracks": [], "tags": []}
      """
  }

  /// A playlist holding `videos` (each a video object's JSON text).
  static func playlist(id: String, videos: [String]) -> String {
    """
    {"id": "\(id)", "account_id": "1234567890", "name": "Birds",
     "description": "Every bird we have", "reference_id": "birds-list", "type": "EXPLICIT",
     "created_at": "2016-01-02T03:04:05.006Z", "updated_at": "2016-02-03T04:05:06.007Z",
     "video_ids": ["v1", "v2", "v3"],
     "videos": [\(videos.joined(separator: ",\n"))]}
    """
  }

  /// The API's 404 for an unknown video.
  static let notFound = """
    [{"error_code": "VIDEO_NOT_FOUND", "message": "The designated resource was not found.",
      "error_subcode": "VIDEO_NOT_FOUND"}]
    """
}
