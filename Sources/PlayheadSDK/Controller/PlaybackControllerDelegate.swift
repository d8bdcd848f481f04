import Foundation
import PlayheadCore

/// Receives what happens in a playback controller; every method is optional.
///
/// The controller holds its delegate weakly and calls it on the controller's callback
/// queue (the main queue unless the controller was made with another), in the order
/// things happened. Session consumers receive the same calls (`PlaybackSessionConsumer`).
public protocol PlaybackControllerDelegate: AnyObject, Sendable {
  /// The controller moved to `session`; the previous session is discarded.
  func playbackController(_ controller: PlaybackController, didAdvanceTo session: PlaybackSession)
  /// The duration of the session's content became known or changed.
  func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didChangeDuration duration: MediaTime)
  /// The content play position moved (every `progressInterval` while playing, and after seeks).
  func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didProgressTo progress: MediaTime)
  /// A lifecycle event of the session.
  func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didReceive lifecycleEvent: LifecycleEvent)
  /// Playback passed cue points.
  func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didPassCuePoints passage: CuePointPassage)
  /// The seekable time ranges changed (a live window moved, or the item became ready).
  func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didChangeSeekableRanges ranges: [MediaTimeRange])
  /// The session's media turned out to be audio only, or audio and video.
  func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    determinedMediaType mediaType: SourceMediaType)
  /// The stream-concurrency service refused playback: too many active sessions.
  func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didReachMaxConcurrency sessions: [String: JSONValue])
  /// The last video of the list ended and the controller has nothing more to play.
  func playbackController(_ controller: PlaybackController, didCompletePlaylist videos: [Video])
  /// None of the videos given to `setVideos` has a source the selection policy can play.
  func playbackController(_ controller: PlaybackController, noPlayableVideosFoundIn videos: [Video])
  /// `insert(video:afterVideoAt:)` put `video` at `index` of the list.
  func playbackController(_ controller: PlaybackController, didInsert video: Video, at index: Int)
  /// `insert(video:afterVideoAt:)` could not insert `video` (index out of range).
  func playbackController(_ controller: PlaybackController, failedToInsert video: Video)
}

extension PlaybackControllerDelegate {
  public func playbackController(
    _ controller: PlaybackController, didAdvanceTo session: PlaybackSession
  ) {}
  public func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didChangeDuration duration: MediaTime
  ) {}
  public func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didProgressTo progress: MediaTime
  ) {}
  public func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didReceive lifecycleEvent: LifecycleEvent
  ) {}
  public func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didPassCuePoints passage: CuePointPassage
  ) {}
  public func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didChangeSeekableRanges ranges: [MediaTimeRange]
  ) {}
  public func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    determinedMediaType mediaType: SourceMediaType
  ) {}
  public func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didReachMaxConcurrency sessions: [String: JSONValue]
  ) {}
  public func playbackController(
    _ controller: PlaybackController, didCompletePlaylist videos: [Video]
  ) {}
  public func playbackController(
    _ controller: PlaybackController, noPlayableVideosFoundIn videos: [Video]
  ) {}
  public func playbackController(
    _ controller: PlaybackController, didInsert video: Video, at index: Int
  ) {}
  public func playbackController(_ controller: PlaybackController, failedToInsert video: Video) {}
}

/// A plug-in that receives everything a controller's delegate receives (analytics,
/// controls, ads); a controller may have any number of them. Every method is optional.
///
/// A consumer added while a session exists receives `didAdvanceTo` for it at once.
/// Consumers are retained by the controller until removed, and called on its callback
/// queue after the delegate.
public protocol PlaybackSessionConsumer: AnyObject, Sendable {
  /// The controller moved to `session`.
  func didAdvanceTo(_ session: PlaybackSession)
  /// The duration of the session's content became known or changed.
  func playbackSession(_ session: PlaybackSession, didChangeDuration duration: MediaTime)
  /// The content play position moved.
  func playbackSession(_ session: PlaybackSession, didProgressTo progress: MediaTime)
  /// A lifecycle event of the session.
  func playbackSession(_ session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent)
  /// Playback passed cue points.
  func playbackSession(_ session: PlaybackSession, didPassCuePoints passage: CuePointPassage)
  /// The seekable time ranges changed.
  func playbackSession(_ session: PlaybackSession, didChangeSeekableRanges ranges: [MediaTimeRange])
  /// The session's media type became known.
  func playbackSession(_ session: PlaybackSession, determinedMediaType mediaType: SourceMediaType)
  /// The stream-concurrency limit was reached.
  func playbackSession(
    _ session: PlaybackSession, didReachMaxConcurrency sessions: [String: JSONValue])
  /// The list is complete.
  func didCompletePlaylist(_ videos: [Video])
  /// None of the videos has a playable source.
  func noPlayableVideosFound(in videos: [Video])
  /// A video was inserted at `index`.
  func didInsert(_ video: Video, at index: Int)
  /// A video could not be inserted.
  func failedToInsert(_ video: Video)
}

extension PlaybackSessionConsumer {
  public func didAdvanceTo(_ session: PlaybackSession) {}
  public func playbackSession(_ session: PlaybackSession, didChangeDuration duration: MediaTime) {}
  public func playbackSession(_ session: PlaybackSession, didProgressTo progress: MediaTime) {}
  public func playbackSession(
    _ session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent
  ) {}
  public func playbackSession(
    _ session: PlaybackSession, didPassCuePoints passage: CuePointPassage
  ) {}
  public func playbackSession(
    _ session: PlaybackSession, didChangeSeekableRanges ranges: [MediaTimeRange]
  ) {}
  public func playbackSession(
    _ session: PlaybackSession, determinedMediaType mediaType: SourceMediaType
  ) {}
  public func playbackSession(
    _ session: PlaybackSession, didReachMaxConcurrency sessions: [String: JSONValue]
  ) {}
  public func didCompletePlaylist(_ videos: [Video]) {}
  public func noPlayableVideosFound(in videos: [Video]) {}
  public func didInsert(_ video: Video, at index: Int) {}
  public func failedToInsert(_ video: Video) {}
}

/// One thing to tell the delegate and the consumers; delivered the same way to both.
enum ControllerNotification: Sendable {
  case advanced(PlaybackSession)
  case duration(PlaybackSession, MediaTime)
  case progress(PlaybackSession, MediaTime)
  case lifecycle(PlaybackSession, LifecycleEvent)
  case cuePoints(PlaybackSession, CuePointPassage)
  case seekableRanges(PlaybackSession, [MediaTimeRange])
  case mediaType(PlaybackSession, SourceMediaType)
  case maxConcurrency(PlaybackSession, [String: JSONValue])
  case playlistComplete([Video])
  case noPlayableVideos([Video])
  case inserted(Video, Int)
  case insertFailed(Video)

  /// The session the notification is about, if any.
  var session: PlaybackSession? {
    switch self {
    case .advanced(let session), .duration(let session, _), .progress(let session, _),
      .lifecycle(let session, _), .cuePoints(let session, _), .seekableRanges(let session, _),
      .mediaType(let session, _), .maxConcurrency(let session, _):
      return session
    case .playlistComplete, .noPlayableVideos, .inserted, .insertFailed:
      return nil
    }
  }

  func deliver(to delegate: any PlaybackControllerDelegate, from controller: PlaybackController) {
    switch self {
    case .advanced(let session): delegate.playbackController(controller, didAdvanceTo: session)
    case .duration(let session, let duration):
      delegate.playbackController(controller, playbackSession: session, didChangeDuration: duration)
    case .progress(let session, let time):
      delegate.playbackController(controller, playbackSession: session, didProgressTo: time)
    case .lifecycle(let session, let event):
      delegate.playbackController(controller, playbackSession: session, didReceive: event)
    case .cuePoints(let session, let passage):
      delegate.playbackController(controller, playbackSession: session, didPassCuePoints: passage)
    case .seekableRanges(let session, let ranges):
      delegate.playbackController(
        controller, playbackSession: session, didChangeSeekableRanges: ranges)
    case .mediaType(let session, let type):
      delegate.playbackController(controller, playbackSession: session, determinedMediaType: type)
    case .maxConcurrency(let session, let sessions):
      delegate.playbackController(
        controller, playbackSession: session, didReachMaxConcurrency: sessions)
    case .playlistComplete(let videos):
      delegate.playbackController(controller, didCompletePlaylist: videos)
    case .noPlayableVideos(let videos):
      delegate.playbackController(controller, noPlayableVideosFoundIn: videos)
    case .inserted(let video, let index):
      delegate.playbackController(controller, didInsert: video, at: index)
    case .insertFailed(let video): delegate.playbackController(controller, failedToInsert: video)
    }
  }

  func deliver(to consumer: any PlaybackSessionConsumer) {
    switch self {
    case .advanced(let session): consumer.didAdvanceTo(session)
    case .duration(let session, let duration):
      consumer.playbackSession(session, didChangeDuration: duration)
    case .progress(let session, let time): consumer.playbackSession(session, didProgressTo: time)
    case .lifecycle(let session, let event): consumer.playbackSession(session, didReceive: event)
    case .cuePoints(let session, let passage):
      consumer.playbackSession(session, didPassCuePoints: passage)
    case .seekableRanges(let session, let ranges):
      consumer.playbackSession(session, didChangeSeekableRanges: ranges)
    case .mediaType(let session, let type):
      consumer.playbackSession(session, determinedMediaType: type)
    case .maxConcurrency(let session, let sessions):
      consumer.playbackSession(session, didReachMaxConcurrency: sessions)
    case .playlistComplete(let videos): consumer.didCompletePlaylist(videos)
    case .noPlayableVideos(let videos): consumer.noPlayableVideosFound(in: videos)
    case .inserted(let video, let index): consumer.didInsert(video, at: index)
    case .insertFailed(let video): consumer.failedToInsert(video)
    }
  }
}
