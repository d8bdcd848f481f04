import PlayheadEngine

/// How the player UI behaves (`BCOVPUIPlayerViewOptions`).
///
/// Times are in seconds; negative and non-finite values count as the default. Where the
/// seed gives no default, Playhead's are: jump back 10 s, hide after 3 s without input,
/// 0.2 s hide and show animations.
public struct PlayerViewOptions: Sendable, Equatable {
  /// How far the jump-back button seeks back, in seconds (default 10).
  public var jumpBackInterval: Double
  /// Seconds without input before the controls hide (default 3).
  public var hideControlsInterval: Double
  /// Seconds the hide animation (a fade) takes (default 0.2).
  public var hideControlsAnimationDuration: Double
  /// Seconds the show animation takes (default 0.2).
  public var showControlsAnimationDuration: Double
  /// Whether the controls pick the provided layout for each session's media (audio-only or
  /// not; VOD, live or live DVR). When true, an installed layout is replaced at the next
  /// session, as the seed says (default true).
  public var automaticControlTypeSelection: Bool
  /// Whether the controls never hide (default false). Audio-only layouts keep their
  /// controls whatever this says, and so does a paused player, an open menu or a drag.
  public var keepControlsVisible: Bool
  /// Whether the controls show while a bumper plays (default false: the bar is hidden).
  /// Either way a bumper cannot be seeked in.
  public var showBumperControls: Bool
  /// A PNG or JPEG file drawn behind audio-only media; nil for none.
  public var posterPath: String?
  /// The preferred-bitrate menu (seed 000's `preferredBitrateConfig`): its title and
  /// options. Nil shows the stream's own levels, when it has more than one.
  public var preferredBitrateMenu: BitrateMenu?
  /// Whether hovering or dragging the slider shows the thumbnail at that time
  /// (default true; needs a thumbnail track).
  public var thumbnailSeekingEnabled: Bool
  /// Whether the layout's compact rows are used at every width (default false: below its
  /// `compactLayoutMaximumWidth` only).
  public var alwaysCompact: Bool
  /// Whether the ad controls (badge and countdown, skip, "Learn more") are drawn over ads
  /// (default true). An application drawing its own turns them off and reads
  /// `PlaybackController.adPlaybackStatus`; seeking stays blocked during ads either way.
  public var showsAdControls: Bool = true

  /// Options with the defaults.
  public init(
    jumpBackInterval: Double = 10, hideControlsInterval: Double = 3,
    hideControlsAnimationDuration: Double = 0.2, showControlsAnimationDuration: Double = 0.2,
    automaticControlTypeSelection: Bool = true, keepControlsVisible: Bool = false,
    showBumperControls: Bool = false, posterPath: String? = nil,
    preferredBitrateMenu: BitrateMenu? = nil, thumbnailSeekingEnabled: Bool = true,
    alwaysCompact: Bool = false
  ) {
    self.jumpBackInterval = jumpBackInterval
    self.hideControlsInterval = hideControlsInterval
    self.hideControlsAnimationDuration = hideControlsAnimationDuration
    self.showControlsAnimationDuration = showControlsAnimationDuration
    self.automaticControlTypeSelection = automaticControlTypeSelection
    self.keepControlsVisible = keepControlsVisible
    self.showBumperControls = showBumperControls
    self.posterPath = posterPath
    self.preferredBitrateMenu = preferredBitrateMenu
    self.thumbnailSeekingEnabled = thumbnailSeekingEnabled
    self.alwaysCompact = alwaysCompact
  }

  /// `jumpBackInterval`, or 10 when it is not a positive number.
  public var effectiveJumpBackInterval: Double { Self.valid(jumpBackInterval, or: 10) }
  /// `hideControlsInterval`, or 3 when it is not a positive number.
  public var effectiveHideControlsInterval: Double { Self.valid(hideControlsInterval, or: 3) }
  /// `hideControlsAnimationDuration`, or 0.2 when negative or not finite (0 is allowed).
  public var effectiveHideAnimationDuration: Double {
    Self.valid(hideControlsAnimationDuration, or: 0.2, allowsZero: true)
  }
  /// `showControlsAnimationDuration`, or 0.2 when negative or not finite (0 is allowed).
  public var effectiveShowAnimationDuration: Double {
    Self.valid(showControlsAnimationDuration, or: 0.2, allowsZero: true)
  }

  private static func valid(_ value: Double, or fallback: Double, allowsZero: Bool = false)
    -> Double
  {
    guard value.isFinite else { return fallback }
    return value > 0 || (allowsZero && value == 0) ? value : fallback
  }
}
