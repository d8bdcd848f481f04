import PlayheadSDK

/// What a control of the player UI is: the seed's view tags (`BCOVPUIViewTag`).
///
/// Each tag has a default width at scale 1 (`defaultWidth`), used when a layout view gives
/// none, and the localised name a screen reader or tooltip uses (`accessibilityKey`).
/// `externalRoute`, `pictureInPicture` and `video360` are kept so layouts written for the
/// seed carry over, but the controls never show them on Linux (no AirPlay, no picture in
/// picture, no 360° projection).
public enum ControlTag: String, Sendable, CaseIterable, Codable {
  /// Play / pause (`buttonPlayback`).
  case playback
  /// Jumps back by the options' `jumpBackInterval` (`buttonJumpBack`).
  case jumpBack
  /// Opens the subtitles and audio-track menu (`buttonClosedCaption`).
  case closedCaption
  /// Enters or leaves full screen (`buttonScreenMode`).
  case screenMode
  /// Opens the preferred-bitrate menu (`buttonPreferredBitrate`).
  case preferredBitrate
  /// The live badge; pressed behind the live edge it goes to live (`buttonLive`).
  case liveIndicator
  /// The current time (`labelCurrentTime`); behind the live edge of a DVR stream, the
  /// distance to live as `-m:ss`.
  case currentTime
  /// The `/` between the current time and the duration (`labelTimeSeparator`).
  case timeSeparator
  /// The duration (`labelDuration`).
  case duration
  /// The progress slider with buffered ranges and cue-point markers (`sliderProgress`).
  case progressSlider
  /// An empty view: a spacer, or room for the application's own drawing such as a logo
  /// (`viewEmpty`).
  case empty
  /// The AirPlay route picker (`viewExternalRoute`); never shown on Linux.
  case externalRoute
  /// Picture in picture (`buttonPictureInPicture`); never shown on Linux.
  case pictureInPicture
  /// The 360° view mode (`buttonVideo360`); never shown on Linux.
  case video360

  /// The width at scale 1, in pixels, of a layout view that gives none.
  public var defaultWidth: Double {
    switch self {
    case .playback, .jumpBack, .closedCaption, .screenMode, .preferredBitrate, .externalRoute,
      .pictureInPicture, .video360:
      return 40
    case .liveIndicator: return 56
    case .currentTime, .duration: return 56
    case .timeSeparator: return 12
    case .progressSlider: return 100
    case .empty: return 0
    }
  }

  /// Whether the control reacts to a click (buttons and the slider).
  public var isInteractive: Bool {
    switch self {
    case .playback, .jumpBack, .closedCaption, .screenMode, .preferredBitrate, .liveIndicator,
      .progressSlider:
      return true
    case .currentTime, .timeSeparator, .duration, .empty, .externalRoute, .pictureInPicture,
      .video360:
      return false
    }
  }

  /// Whether the controls never show this control on Linux.
  public var isUnavailableOnLinux: Bool {
    self == .externalRoute || self == .pictureInPicture || self == .video360
  }

  /// The key of the control's accessible name; nil for controls without one (separator,
  /// empty views and the controls Linux never shows). The playback and screen-mode
  /// buttons name their primary state (play, full screen); `ControlsScene` names the
  /// current one.
  public var accessibilityKey: LocalizedStringKey? {
    switch self {
    case .playback: return .play
    case .jumpBack: return .jumpBack
    case .closedCaption: return .subtitles
    case .screenMode: return .fullScreen
    case .preferredBitrate: return .quality
    case .liveIndicator: return .live
    case .currentTime: return .currentTime
    case .duration: return .totalTime
    case .progressSlider: return .timeline
    case .timeSeparator, .empty, .externalRoute, .pictureInPicture, .video360: return nil
    }
  }
}
