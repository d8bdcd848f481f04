import Foundation
import Playhead

/// `--wav FILE`, `--frames DIR` and `--every N`: where `play` writes the media it plays.
struct SinkOptions: OptionGroup, Equatable, Sendable {
  static let names: Set<String> = ["--wav", "--frames", "--every"]

  /// `--wav FILE`: the played audio as a WAV file.
  var wavPath: String?
  /// `--frames DIR`: the presented video frames as PNG files.
  var framesDirectory: String?
  /// `--every N`: with `--frames`, every N-th frame.
  var every: Int?

  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    if name == "--every" {
      every = try cursor.value(for: name, inline: inline, ArgumentValue.positiveInteger)
      return
    }
    let path = try cursor.value(for: name, inline: inline, ArgumentValue.path)
    if name == "--wav" { wavPath = path } else { framesDirectory = path }
  }

  /// Checks that `--every` comes with `--frames`.
  func validate() throws(UsageError) {
    if every != nil && framesDirectory == nil {
      throw UsageError("option '--every' goes with '--frames DIR'")
    }
  }

  /// The audio sink of `--wav`; nil without it.
  func makeAudioSink() throws(PlayheadError) -> (any AudioSink)? {
    guard let wavPath else { return nil }
    return try WAVAudioSink(url: fileURL(forPath: wavPath))
  }

  /// The video sink of `--frames` (every `--every`-th frame); nil without it.
  func makeVideoSink() throws(PlayheadError) -> (any VideoSink)? {
    guard let framesDirectory else { return nil }
    return try ImageSequenceVideoSink(
      directory: fileURL(forPath: framesDirectory), everyNthFrame: every ?? 1)
  }
}
