import Foundation
import PlayheadCore
import PlayheadHLS

/// Errors about HLS segments that say which segment, and which playlist it belongs to.
enum HLSSegmentErrors {
  /// `error` from loading `segment` (or its key or initialisation section) of `playlist`,
  /// with both named: the message gets "(segment S of playlist P)", or "(in playlist P)"
  /// when it names the segment already. Cancellations pass unchanged, and so do expiries
  /// (their message names the expired URL and ends with the application's own reason);
  /// the code, URL and status are kept, so retry and failover rules see the same error.
  static func naming(_ error: PlayheadError, segment: URL, playlist: URL) -> PlayheadError {
    guard error.code != .cancelled, error.code != .sourceExpired else { return error }
    var named = error
    let segmentText = display(segment)
    if error.message.contains(segment.absoluteString) || error.message.contains(segment.path) {
      named.message += " (in playlist \(display(playlist)))"
    } else {
      named.message += " (segment \(segmentText) of playlist \(display(playlist)))"
    }
    return named
  }

  /// `error` from opening a demuxer on `feed`, which names the feed (the stream's URL)
  /// as if it were a file: the segments the demuxer read, and their playlist, are named
  /// instead.
  static func naming(_ error: PlayheadError, in feed: HLSRunFeed) -> PlayheadError {
    guard error.code != .cancelled else { return error }
    let uris = feed.segmentURIs
    guard let first = uris.first else { return error }
    let segments =
      uris.count == 1
      ? "segment \(display(first))"
      : "segments \(display(first)) to \(display(uris[uris.count - 1]))"
    let playlist = display(feed.first.playlistURL ?? feed.url)
    var named = error
    named.url = first
    let feedText = feed.url.absoluteString
    if error.message.contains(feedText) {
      named.message = error.message.replacingOccurrences(
        of: feedText, with: "\(segments) of playlist \(playlist)")
    } else {
      named.message += " (\(segments) of playlist \(playlist))"
    }
    return named
  }

  /// Throws when every segment of `media` has a duration of zero: nothing could ever
  /// play (the player would only say there are no segments).
  static func requirePlayableDurations(_ media: MediaPlaylist) throws(PlayheadError) {
    guard !media.segments.isEmpty, media.segments.allSatisfy({ $0.duration <= .zero }) else {
      return
    }
    let count = media.segments.count
    throw PlayheadError(
      .noPlayableStreams,
      "all \(count) segment\(count == 1 ? "" : "s") of \(display(media.url)) have zero "
        + "duration (EXTINF:0): nothing to play", url: media.url)
  }

  /// A URL as people write it: the path for files, the whole URL otherwise.
  static func display(_ url: URL) -> String {
    url.isFileURL ? url.path : url.absoluteString
  }
}
