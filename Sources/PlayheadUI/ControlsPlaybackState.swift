import PlayheadEngine

/// What the controls show about playback, filled by their host from the player (or the
/// playback controller) before each frame is drawn.
///
/// Times are in seconds on the item's timeline. A live stream gives its seekable window in
/// `seekableRange` and no `duration`.
public struct ControlsPlaybackState: Sendable, Equatable {
  /// A track the viewer may choose in the tracks menu.
  public struct TrackChoice: Sendable, Equatable {
    /// Identifies the track to the host (what it passes back in the action).
    public var id: String
    /// What the menu shows.
    public var label: String

    /// A choice.
    public init(id: String, label: String) {
      self.id = id
      self.label = label
    }
  }

  /// Identifies the session (or item); when it changes, automatic layout selection picks
  /// again and open menus close.
  public var sessionID: Int
  /// Whether playback is running (not paused).
  public var isPlaying: Bool
  /// The current position.
  public var position: Double
  /// The duration of an on-demand item; nil while unknown and for live streams.
  public var duration: Double?
  /// The window a live stream can be seeked in; nil for on-demand items.
  public var seekableRange: ClosedRange<Double>?
  /// What is loaded ahead, as time ranges.
  public var bufferedRanges: [ClosedRange<Double>]
  /// The times of the session's cue points (and ad breaks), drawn as slider markers.
  public var markerTimes: [Double]
  /// VOD, live or live with a window (picks the layout and the slider's range).
  public var streamKind: ControlLayout.StreamKind
  /// Whether the media has sound but no picture.
  public var isAudioOnly: Bool
  /// Whether a bumper is playing: no seeking, no jump back, no buffered range.
  public var isBumper: Bool
  /// Whether the window is full screen.
  public var isFullScreen: Bool
  /// The text tracks that can be shown.
  public var textTracks: [TrackChoice]
  /// The id of the text track shown; nil when subtitles are off.
  public var selectedTextTrackID: String?
  /// The audio tracks that can be played.
  public var audioTracks: [TrackChoice]
  /// The id of the audio track playing.
  public var selectedAudioTrackID: String?
  /// The stream's bitrate menu (its levels); used when the options give none.
  public var bitrateMenu: BitrateMenu?
  /// Whether a thumbnail track is available for slider previews.
  public var hasThumbnails: Bool
  /// The ad on screen; nil while the content plays. While set the slider does not seek
  /// and jump back is gone (no scrubbing through an ad).
  public var ad: ControlsAdState?
  /// The times of ad breaks still to play, marked on the slider apart from cue points.
  public var adBreakTimes: [Double]

  /// A state with nothing loaded: paused at 0, on demand, no tracks.
  public init(
    sessionID: Int = 0, isPlaying: Bool = false, position: Double = 0, duration: Double? = nil,
    seekableRange: ClosedRange<Double>? = nil, bufferedRanges: [ClosedRange<Double>] = [],
    markerTimes: [Double] = [], streamKind: ControlLayout.StreamKind = .onDemand,
    isAudioOnly: Bool = false, isBumper: Bool = false, isFullScreen: Bool = false,
    textTracks: [TrackChoice] = [], selectedTextTrackID: String? = nil,
    audioTracks: [TrackChoice] = [], selectedAudioTrackID: String? = nil,
    bitrateMenu: BitrateMenu? = nil, hasThumbnails: Bool = false, ad: ControlsAdState? = nil,
    adBreakTimes: [Double] = []
  ) {
    self.sessionID = sessionID
    self.isPlaying = isPlaying
    self.position = position
    self.duration = duration
    self.seekableRange = seekableRange
    self.bufferedRanges = bufferedRanges
    self.markerTimes = markerTimes
    self.streamKind = streamKind
    self.isAudioOnly = isAudioOnly
    self.isBumper = isBumper
    self.isFullScreen = isFullScreen
    self.textTracks = textTracks
    self.selectedTextTrackID = selectedTextTrackID
    self.audioTracks = audioTracks
    self.selectedAudioTrackID = selectedAudioTrackID
    self.bitrateMenu = bitrateMenu
    self.hasThumbnails = hasThumbnails
    self.ad = ad
    self.adBreakTimes = adBreakTimes
  }

  /// Whether the viewer may not move the playhead now: a bumper or an ad plays.
  public var isSeekingBlocked: Bool { isBumper || ad != nil }

  /// The range the slider spans: 0…duration on demand, the seekable window live; nil when
  /// neither is known.
  public var sliderRange: ClosedRange<Double>? {
    if streamKind == .onDemand, let duration, duration.isFinite, duration > 0 {
      return 0...duration
    }
    if let seekableRange, seekableRange.upperBound > seekableRange.lowerBound {
      return seekableRange
    }
    return nil
  }

  /// Whether a live stream plays within `tolerance` seconds of its live edge.
  public func isAtLiveEdge(tolerance: Double = 3) -> Bool {
    guard streamKind != .onDemand else { return false }
    guard let edge = seekableRange?.upperBound else { return true }
    return edge - position <= tolerance
  }
}
