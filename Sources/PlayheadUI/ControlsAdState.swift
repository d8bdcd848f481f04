import PlayheadCore
import PlayheadSDK

/// The ad on screen as the controls show it: the badge's "Ad n of m" and countdown, the
/// skip control and "Learn more" (seed 000's PlayerUI ad controls).
///
/// Fill it from `PlaybackController.adPlaybackStatus` with `init(status:)`; times are in
/// seconds of the ad's own playhead.
public struct ControlsAdState: Sendable, Equatable {
  /// The ad's place in the break, from 1.
  public var adNumber: Int
  /// The break's ads (at least `adNumber`).
  public var adCount: Int
  /// The time left in the ad; nil while unknown (the badge shows no countdown).
  public var remainingSeconds: Double?
  /// The time until the ad can be skipped (0 once it can); nil for an ad that cannot be
  /// skipped (no skip control).
  public var secondsUntilSkippable: Double?
  /// Whether the ad has a page to open ("Learn more").
  public var hasLearnMore: Bool
  /// Whether the ad is paused (the play button shows play).
  public var isPaused: Bool

  /// An ad state; counts below 1 count as 1.
  public init(
    adNumber: Int, adCount: Int, remainingSeconds: Double? = nil,
    secondsUntilSkippable: Double? = nil, hasLearnMore: Bool = false, isPaused: Bool = false
  ) {
    self.adNumber = max(1, adNumber)
    self.adCount = max(self.adNumber, adCount)
    self.remainingSeconds = remainingSeconds.flatMap { $0.isFinite ? max(0, $0) : nil }
    self.secondsUntilSkippable = secondsUntilSkippable.flatMap { $0.isFinite ? max(0, $0) : nil }
    self.hasLearnMore = hasLearnMore
    self.isPaused = isPaused
  }

  /// The state of the ad a playback controller plays.
  public init(status: AdPlaybackStatus) {
    self.init(
      adNumber: status.adNumber, adCount: status.adCount,
      remainingSeconds: status.remaining.map(\.seconds),
      secondsUntilSkippable: status.untilSkippable.map(\.seconds),
      hasLearnMore: status.clickThroughURL != nil, isPaused: status.isPaused)
  }

  /// Whether the skip control skips now.
  public var canSkip: Bool { secondsUntilSkippable.map { $0 <= 0 } ?? false }
}

/// One of the ad controls.
public enum AdControlKind: String, Sendable, Equatable, CaseIterable {
  /// "Skip in 5" → "Skip ad".
  case skip
  /// "Learn more": the advertiser's page.
  case learnMore
}

/// What the controls show about ads at one instant: the ad on screen and the breaks still
/// to play.
public struct ControlsAds: Sendable, Equatable {
  /// The ad on screen; nil while the content plays.
  public var current: ControlsAdState?
  /// The content times (seconds) of ad breaks still to play.
  public var breakTimes: [Double]

  /// Ads as the controls show them.
  public init(current: ControlsAdState? = nil, breakTimes: [Double] = []) {
    self.current = current
    self.breakTimes = breakTimes
  }

  /// What a playback controller's current session shows.
  public init(controller: PlaybackController) {
    self.init(
      current: controller.adPlaybackStatus.map(ControlsAdState.init(status:)),
      breakTimes: controller.upcomingAdBreakTimes.map(\.seconds).filter(\.isFinite))
  }
}
