import Foundation
import Playhead

/// `--audio-filter NAME[=VALUE]` (repeatable) and `--audio-channel both|left|right`: the
/// audio enhancement filters and the output channel (seed 003's `audioEnhance` and
/// `outputAudioChannel`).
struct AudioOptions: OptionGroup, Equatable, Sendable {
  /// The option names this type reads.
  static let names: Set<String> = ["--audio-filter", "--audio-channel"]

  /// The filters asked for; `.none` without `--audio-filter`.
  var enhancement = AudioEnhancement.none
  /// `--audio-channel`; nil keeps both.
  var channel: AudioChannelMode?

  /// Reads the value of `name` (one of `names`) from `cursor`.
  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    let text = try cursor.value(for: name, inline: inline)
    switch name {
    case "--audio-channel":
      guard let mode = AudioChannelMode(rawValue: text.lowercased()) else {
        throw UsageError("option '--audio-channel' needs both, left or right, not '\(text)'")
      }
      channel = mode
    default:
      for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        try add(String(part))
      }
    }
  }

  /// Turns on one filter: `normalize`, `dialogue=LEVEL` (1–10) or `surround`.
  private mutating func add(_ filter: String) throws(UsageError) {
    let pieces = filter.split(separator: "=", maxSplits: 1).map(String.init)
    let name = pieces.first?.lowercased() ?? ""
    let value = pieces.count > 1 ? pieces[1] : nil
    switch (name, value) {
    case ("normalize", nil): enhancement.normalizesVolume = true
    case ("surround", nil): enhancement.surround = .threeD
    case ("dialogue", let level?):
      guard let number = Double(level), number.isFinite, (1...10).contains(number) else {
        throw UsageError(
          "option '--audio-filter' needs a voice level from 1 to 10 in 'dialogue=LEVEL', "
            + "not '\(level)'")
      }
      enhancement.dialogueVoiceLevel = number
    case ("dialogue", nil):
      throw UsageError("option '--audio-filter' needs a voice level: 'dialogue=LEVEL' (1 to 10)")
    default:
      throw UsageError(
        "option '--audio-filter' takes normalize, dialogue=LEVEL or surround, not '\(filter)'")
    }
  }

  /// Whether any option was given.
  var isEmpty: Bool { enhancement.isEmpty && channel == nil }

  /// Sets the filters and the channel on `configuration`.
  func apply(to configuration: inout PlayerConfiguration) {
    configuration.audioEnhancement = enhancement
    if let channel { configuration.audioOutputChannel = channel }
  }
}
