import Foundation

/// A user-visible string of the SDK: menu and track labels, control labels for player
/// UIs, and error descriptions (SPEC K11).
public enum LocalizedStringKey: String, Sendable, CaseIterable, Codable {
  /// The automatic entry of a bit-rate menu.
  case auto
  /// The "no subtitles" entry of a text-track menu.
  case off
  /// A track whose language is not known.
  case unknownLanguage
  /// The subtitles menu title.
  case subtitles
  /// The audio-track menu title.
  case audio
  /// The bit-rate (quality) menu title.
  case quality
  /// The badge of a live stream.
  case live
  /// The play control.
  case play
  /// The pause control.
  case pause
  /// The jump-back control.
  case jumpBack
  /// The full-screen control.
  case fullScreen
  /// The control that leaves full screen.
  case exitFullScreen
  /// The label before the current time.
  case currentTime
  /// The label before the duration.
  case totalTime
  /// The progress slider.
  case timeline
  /// The badge shown while an ad or bumper plays.
  case advertisement
  /// The ad badge's place in the break: `{n}` is the ad's number, `{count}` the break's
  /// ads ("Ad 1 of 3").
  case adPosition
  /// The skip control before the ad can be skipped: `{seconds}` is the time left.
  case skipAdCountdown
  /// The skip control once the ad can be skipped.
  case skipAd
  /// The control that opens the advertiser's page.
  case learnMore
  /// No source of the video can be played.
  case errorNoPlayableSource
  /// The network connection failed.
  case errorNetwork
  /// The server did not answer in time.
  case errorTimedOut
  /// The video or one of its parts was not found.
  case errorNotFound
  /// The server refused access.
  case errorAccessDenied
  /// The format or codec is not supported.
  case errorUnsupportedFormat
  /// Encrypted content could not be decrypted.
  case errorDecryption
  /// Any other playback error.
  case errorPlayback
}
