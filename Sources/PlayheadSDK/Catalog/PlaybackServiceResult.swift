import Foundation

/// A video fetched from the Playback API.
public struct PlaybackServiceVideoResult: Sendable, Equatable {
  /// The video mapped to a value.
  public let video: Video
  /// The response as the API sent it (parsed, every field).
  public let json: JSONValue
  /// The response body as received.
  public let rawData: Data
  /// The bumper to play before this video: the one its `custom_fields.bumper_id` names
  /// (which wins, as the seed says), else the one the request's bumper ID or reference ID
  /// names; nil when neither is set or neither could be fetched.
  public let bumperVideo: Video?
  /// Bumpers that could not be fetched, by the ID (or `ref:REF`) asked for. A bumper that
  /// fails does not fail the request.
  public let bumperErrors: [String: PlaybackServiceError]
  /// Parts of the response left out of `video` (a rendition without a usable `src`, such
  /// as an RTMP one; a malformed text track or cue point), one line each. They are still
  /// in `json`.
  public let warnings: [String]

  /// Creates a result (the service makes them; tests and plug-ins may too).
  public init(
    video: Video, json: JSONValue, rawData: Data, bumperVideo: Video? = nil,
    bumperErrors: [String: PlaybackServiceError] = [:], warnings: [String] = []
  ) {
    self.video = video
    self.json = json
    self.rawData = rawData
    self.bumperVideo = bumperVideo
    self.bumperErrors = bumperErrors
    self.warnings = warnings
  }
}

/// A playlist (or a page of one) fetched from the Playback API.
public struct PlaybackServicePlaylistResult: Sendable, Equatable {
  /// The playlist mapped to a value; `videos` is the page that `limit` / `offset` asked for.
  public let playlist: Playlist
  /// The response as the API sent it (parsed, every field).
  public let json: JSONValue
  /// The response body as received.
  public let rawData: Data
  /// The bumper the request's bumper ID or reference ID names (shared by the playlist's
  /// videos, as the seed says); nil when none was asked for or it could not be fetched.
  public let bumperVideo: Video?
  /// The bumpers that videos name in `custom_fields.bumper_id`, by that ID.
  public let bumpers: [String: Video]
  /// Bumpers that could not be fetched, by the ID (or `ref:REF`) asked for.
  public let bumperErrors: [String: PlaybackServiceError]
  /// Parts of the response left out of `playlist`, one line each (see the video result).
  public let warnings: [String]

  /// Creates a result (the service makes them; tests and plug-ins may too).
  public init(
    playlist: Playlist, json: JSONValue, rawData: Data, bumperVideo: Video? = nil,
    bumpers: [String: Video] = [:], bumperErrors: [String: PlaybackServiceError] = [:],
    warnings: [String] = []
  ) {
    self.playlist = playlist
    self.json = json
    self.rawData = rawData
    self.bumperVideo = bumperVideo
    self.bumpers = bumpers
    self.bumperErrors = bumperErrors
    self.warnings = warnings
  }

  /// The bumper for one of the playlist's videos: its own `bumper_id` one when fetched,
  /// else the playlist's `bumperVideo`.
  public func bumper(for video: Video) -> Video? {
    if let id = video.bumperID, let own = bumpers[id] { return own }
    return bumperVideo
  }
}
