import Foundation
import PlayheadCore

/// The name of a session lifecycle event (seed 000 / 002), open to plug-ins that add their own.
///
/// `rawValue` is the lower-camel-case name used in logs and JSON lines (`ready`,
/// `playbackStalled`, `bumperEnter`, …).
public struct LifecycleEventType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }

  public var description: String { rawValue }

  /// The session's player item is ready to play; seeking works from here on.
  public static let ready = LifecycleEventType(rawValue: "ready")
  /// The session cannot play: no playable source, or the item failed to load.
  public static let fail = LifecycleEventType(rawValue: "fail")
  /// The player went from paused to playing.
  public static let play = LifecycleEventType(rawValue: "play")
  /// The player went from playing to paused.
  public static let pause = LifecycleEventType(rawValue: "pause")
  /// The application asked the controller to play.
  public static let playRequest = LifecycleEventType(rawValue: "playRequest")
  /// The application asked the controller to pause.
  public static let pauseRequest = LifecycleEventType(rawValue: "pauseRequest")
  /// The content played to its end.
  public static let end = LifecycleEventType(rawValue: "end")
  /// The session reached the controller's (or its item's) preview limit and ended there.
  public static let previewEnded = LifecycleEventType(rawValue: "previewEnded")
  /// The session was discarded (the controller advanced or was given new videos).
  public static let terminate = LifecycleEventType(rawValue: "terminate")
  /// An error was logged while playing; playback may continue (a retried segment, …).
  public static let error = LifecycleEventType(rawValue: "error")
  /// Playback stopped for good before the end (retries and failover exhausted).
  public static let failedToPlayToEndTime = LifecycleEventType(rawValue: "failedToPlayToEndTime")
  /// Normal playback ran out of buffer (not at start or after a seek).
  public static let playbackStalled = LifecycleEventType(rawValue: "playbackStalled")
  /// Playback continues after a stall.
  public static let playbackRecovered = LifecycleEventType(rawValue: "playbackRecovered")
  /// The buffer is empty: at start, after a seek, or in a stall.
  public static let playbackBufferEmpty = LifecycleEventType(rawValue: "playbackBufferEmpty")
  /// Enough is buffered to play on.
  public static let playbackLikelyToKeepUp = LifecycleEventType(rawValue: "playbackLikelyToKeepUp")
  /// `resumeVideo(at:autoPlay:)` started rebuilding the session's source.
  public static let resumeBegin = LifecycleEventType(rawValue: "resumeBegin")
  /// The rebuilt source is ready at the requested time.
  public static let resumeComplete = LifecycleEventType(rawValue: "resumeComplete")
  /// The rebuilt source could not be opened.
  public static let resumeFail = LifecycleEventType(rawValue: "resumeFail")
  /// The bumper started playing.
  public static let bumperEnter = LifecycleEventType(rawValue: "bumperEnter")
  /// The bumper finished (or failed) and the content takes over.
  public static let bumperExit = LifecycleEventType(rawValue: "bumperExit")
  /// The bumper's play position moved (carries `currentTime`).
  public static let bumperProgress = LifecycleEventType(rawValue: "bumperProgress")
  /// The bumper was paused.
  public static let bumperPause = LifecycleEventType(rawValue: "bumperPause")
  /// The bumper resumed after a pause.
  public static let bumperResume = LifecycleEventType(rawValue: "bumperResume")
  /// The bumper could not play to its end; the content plays instead.
  public static let bumperFailedToPlayToEndTime = LifecycleEventType(
    rawValue: "bumperFailedToPlayToEndTime")
  /// The video's thumbnail track could not be loaded.
  public static let thumbnailAssetFailedToLoad = LifecycleEventType(
    rawValue: "thumbnailAssetFailedToLoad")
}

/// One lifecycle event of a session, with its payload.
public struct LifecycleEvent: Sendable {
  /// What happened.
  public let type: LifecycleEventType
  /// The error, for `fail`, `error`, `failedToPlayToEndTime`, `resumeFail` and
  /// `bumperFailedToPlayToEndTime`.
  public let error: PlayheadError?
  /// The content time when the event happened (`.invalid` before the item is open).
  public let currentTime: MediaTime
  /// The time before the event, where one applies (a seek's origin); otherwise nil.
  public let previousTime: MediaTime?
  /// The controller clock's time when the event happened.
  public let clockTime: MediaTime
  /// Extra values a plug-in attaches.
  public let properties: [String: JSONValue]

  /// Creates an event; plug-ins use this to send their own types.
  public init(
    type: LifecycleEventType, error: PlayheadError? = nil, currentTime: MediaTime = .invalid,
    previousTime: MediaTime? = nil, clockTime: MediaTime = .invalid,
    properties: [String: JSONValue] = [:]
  ) {
    self.type = type
    self.error = error
    self.currentTime = currentTime
    self.previousTime = previousTime
    self.clockTime = clockTime
    self.properties = properties
  }
}

/// Cue points that playback passed, with the interval it moved over.
public struct CuePointPassage: Sendable, Equatable {
  /// The content time before the move.
  public let previousTime: MediaTime
  /// The content time after the move.
  public let currentTime: MediaTime
  /// The cue points passed, in time order (before-cue points first, after-cue points last).
  public let cuePoints: CuePointCollection

  public init(previousTime: MediaTime, currentTime: MediaTime, cuePoints: CuePointCollection) {
    self.previousTime = previousTime
    self.currentTime = currentTime
    self.cuePoints = cuePoints
  }
}

/// What a session's media holds, once known.
public enum SourceMediaType: String, Sendable, Equatable {
  /// Only audio.
  case audioOnly
  /// Video (with or without audio).
  case audioVideo
}
