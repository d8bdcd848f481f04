import Foundation
import PlayheadCore

extension PlaybackService {
  /// Reads a Playback API video response body the way `findVideo` does, without fetching
  /// bumpers (so `bumperVideo` is nil).
  ///
  /// For bodies had some other way (a recorded response, a proxy's cache). Throws
  /// `.deserialization` with the body as `rawData`: for text `JSONReader` refuses, the
  /// message names the problem and its line and column (`the body is not JSON: nested
  /// deeper than 64 levels at line 1, column 65 (byte offset 64)`); for JSON that is not a
  /// video, it names the field.
  public static func videoResult(responseBody data: Data) throws(PlaybackServiceError)
    -> PlaybackServiceVideoResult
  {
    let json = try parseBody(data)
    let (video, warnings) = try mapVideo(json, rawData: data)
    return PlaybackServiceVideoResult(video: video, json: json, rawData: data, warnings: warnings)
  }

  /// Reads a Playback API playlist response body the way `findPlaylist` does, without
  /// fetching bumpers; errors as `videoResult(responseBody:)`.
  public static func playlistResult(responseBody data: Data) throws(PlaybackServiceError)
    -> PlaybackServicePlaylistResult
  {
    let json = try parseBody(data)
    let (playlist, warnings) = try mapPlaylist(json, rawData: data)
    return PlaybackServicePlaylistResult(
      playlist: playlist, json: json, rawData: data, warnings: warnings)
  }

  /// The body of a success response as JSON (standard `JSONReader` limits).
  static func parseBody(_ data: Data) throws(PlaybackServiceError) -> JSONValue {
    do {
      return try JSONReader.read(data)
    } catch {
      throw .deserialization(message: "the body is not JSON: \(error.message)", rawData: data)
    }
  }

  static func mapVideo(_ json: JSONValue, rawData: Data) throws(PlaybackServiceError) -> (
    Video, [String]
  ) {
    do {
      return try CatalogMapping.video(json)
    } catch {
      throw .deserialization(message: error.message, rawData: rawData)
    }
  }

  static func mapPlaylist(_ json: JSONValue, rawData: Data) throws(PlaybackServiceError) -> (
    Playlist, [String]
  ) {
    do {
      return try CatalogMapping.playlist(json)
    } catch {
      throw .deserialization(message: error.message, rawData: rawData)
    }
  }
}
