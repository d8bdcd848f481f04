import Foundation

/// `--fast`, `--rate R`, `--start S`, `--duration D`, `--preview S`, `--no-video` and
/// `--no-audio`: how `play` plays (on which clock, at which rate, decoding what) and which
/// stretch of the media.
struct PlaybackOptions: OptionGroup, Equatable, Sendable {
  static let names: Set<String> = [
    "--fast", "--rate", "--start", "--duration", "--preview", "--no-video", "--no-audio",
  ]

  /// `--fast`: play on a manual clock that jumps to each deadline.
  var fast = false
  /// `--rate R`.
  var rate: Float?
  /// `--start S`: an exact seek before playing.
  var startSeconds: Double?
  /// `--duration D`: the media played from where playback starts.
  var durationSeconds: Double?
  /// `--preview S`: play only the first S seconds of the media (seed 003's preview).
  var previewSeconds: Double?
  /// `--no-video`.
  var isVideoDisabled = false
  /// `--no-audio`.
  var isAudioDisabled = false

  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    switch name {
    case "--rate":
      let value = try cursor.value(for: name, inline: inline)
      guard let rate = Float(value), rate.isFinite, rate > 0 else {
        throw UsageError("option '--rate' needs a number greater than 0, not '\(value)'")
      }
      self.rate = rate
    case "--start":
      startSeconds = try cursor.value(for: name, inline: inline, ArgumentValue.seconds)
    case "--duration", "--preview":
      let seconds = try cursor.value(for: name, inline: inline, ArgumentValue.positiveNumber)
      if name == "--duration" { durationSeconds = seconds } else { previewSeconds = seconds }
    default:
      try cursor.noValue(for: name, inline: inline)
      if name == "--fast" { fast = true }
      if name == "--no-video" { isVideoDisabled = true }
      if name == "--no-audio" { isAudioDisabled = true }
    }
  }

  /// Checks that something is left to play.
  func validate() throws(UsageError) {
    if isVideoDisabled && isAudioDisabled {
      throw UsageError("options '--no-video' and '--no-audio' leave nothing to play")
    }
  }
}
