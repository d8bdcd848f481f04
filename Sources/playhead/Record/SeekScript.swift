import Foundation
import Playhead

/// `--seek-at CLOCK=TARGET` (repeatable): seek to TARGET seconds of the media once the
/// session's clock has run CLOCK seconds, as a viewer would. The seeks are given on the
/// player's clock (a worker of it in fast mode), so a run with them gives the same events
/// every time, and a recording of it replays them.
struct SeekScript: OptionGroup, Equatable, Sendable {
  /// The option names this type reads.
  static let names: Set<String> = ["--seek-at"]

  /// One seek: when (clock seconds from the start of the session) and where to.
  struct Seek: Equatable, Sendable {
    var clockSeconds: Double
    var targetSeconds: Double
  }

  var seeks: [Seek] = []

  /// Reads `--seek-at CLOCK=TARGET`.
  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    let text = try cursor.value(for: name, inline: inline)
    let parts = text.split(separator: "=", omittingEmptySubsequences: false)
    guard parts.count == 2 else {
      throw UsageError(
        "option '--seek-at' needs CLOCK=TARGET in seconds (for example 10=45), not '\(text)'")
    }
    seeks.append(
      Seek(
        clockSeconds: try ArgumentValue.seconds(String(parts[0]), option: name),
        targetSeconds: try ArgumentValue.seconds(String(parts[1]), option: name)))
  }

  /// Starts the seeks on `player`'s clock, counted from `origin`; each is recorded by
  /// `recorder` when there is one.
  func start(on player: Player, from origin: MediaTime, recorder: SessionRecorder?) {
    guard !seeks.isEmpty else { return }
    let clock = player.clock
    let ordered = seeks.sorted { $0.clockSeconds < $1.clockSeconds }
    clock.startThread(named: "playhead.cli.seek-script") { [weak player] in
      for seek in ordered {
        clock.sleep(until: origin + MediaTime(commandLineSeconds: seek.clockSeconds))
        guard let player else { return }
        let target = MediaTime(commandLineSeconds: seek.targetSeconds)
        recorder?.recordCommand("seek", [.init("target", .number(seek.targetSeconds))])
        player.seek(
          to: target, toleranceBefore: .zero, toleranceAfter: .zero, completionHandler: nil)
      }
    }
  }
}
