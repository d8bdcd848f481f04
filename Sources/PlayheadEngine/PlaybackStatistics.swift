import Foundation
import PlayheadCore

/// What an item's playback has done so far: the figures of the CLI's summary.
public struct PlaybackStatistics: Sendable, Equatable, Codable {
  /// Clock time from the first play request to the first presented frame (`.invalid` until then).
  public var timeToFirstFrame: MediaTime = .invalid
  /// Video frames that came out of the decoder.
  public var framesDecoded = 0
  /// Video frames handed to the video sink.
  public var framesRendered = 0
  /// Video frames dropped because they were late.
  public var framesDropped = 0
  /// Audio sample frames decoded (before resampling), per channel.
  public var audioSamplesDecoded = 0
  /// Audio sample frames handed to the audio sink (after resampling and rate change).
  public var audioSamplesPlayed = 0
  /// Times playback stalled because the buffer ran dry.
  public var stallCount = 0
  /// Total clock time spent stalled.
  public var totalStallTime: MediaTime = .zero
  /// Bytes read from the source.
  public var bytesRead: Int64 = 0
  /// Rendition switches after the first rendition.
  public var variantSwitchCount = 0
  /// Clock time spent presenting at a non-zero rate.
  public var playingTime: MediaTime = .zero
}

/// One playback period in an item's access log (AVFoundation's access-log event).
public struct AccessLogEntry: Sendable, Equatable, Codable {
  /// The URI played: the rendition's media playlist for HLS streams with renditions, the
  /// asset's URL otherwise.
  public var uri: String
  /// Clock time when the period started.
  public var playbackStartClockTime: MediaTime
  /// Item time where the period started.
  public var playbackStartItemTime: MediaTime
  /// Item time played during the period, in seconds of media.
  public var durationWatched: MediaTime
  /// Bytes read from the source during the period.
  public var bytesTransferred: Int64
  /// Average bitrate of the bytes read over the media watched (bits/s; 0 when unknown).
  public var observedBitrate: Double
  /// The declared bitrate (bits/s; 0 when unknown): the rendition's `BANDWIDTH` for HLS.
  public var indicatedBitrate: Double
  /// Stalls during the period.
  public var stallCount: Int
  /// Frames dropped during the period.
  public var droppedVideoFrameCount: Int
  /// Time to first frame (only in the first entry of an item; `.invalid` otherwise).
  public var startupTime: MediaTime
}

/// One error in an item's error log.
public struct ErrorLogEntry: Sendable, Equatable {
  /// Clock time of the error.
  public var clockTime: MediaTime
  /// The URI involved.
  public var uri: String
  public var error: PlayheadError
}
