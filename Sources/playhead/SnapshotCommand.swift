import Foundation
import Playhead

/// `playhead snapshot <path-or-url> --at T -o FILE.png [--width W --height H --gravity G]`.
struct SnapshotCommand: Command {
  static let usage = Usage.snapshot

  /// The input as typed.
  var input: String
  /// The time of the frame, in seconds.
  var atSeconds: Double
  /// The PNG file to write.
  var output: String
  /// The output size; nil keeps the frame's size.
  var size: (width: Int, height: Int)?
  /// How the frame fits `size`.
  var gravity: VideoGravity = .fit

  init(parsing arguments: [String]) throws(UsageError) {
    var cursor = ArgumentCursor(arguments, verb: "snapshot")
    var options = SnapshotOptions()
    let input = try cursor.readInput(
      into: &options, groups: [.group(\.self, names: SnapshotOptions.verbNames)])
    guard let input else { throw cursor.missingInput() }
    guard let at = options.atSeconds else {
      throw UsageError("'snapshot' needs --at T (see 'playhead snapshot --help')")
    }
    guard let output = options.path else {
      throw UsageError("'snapshot' needs -o FILE.png (see 'playhead snapshot --help')")
    }
    size = try options.size()
    gravity = options.gravity
    self.input = input
    self.atSeconds = at
    self.output = output
  }

  func run(console: Console) throws(PlayheadError) -> ExitCode {
    let snapshot = try SnapshotTaker.take(
      url: URLArgument.url(fromArgument: input), at: MediaTime(commandLineSeconds: atSeconds),
      width: size?.width, height: size?.height, gravity: gravity)
    try snapshot.write(toPath: output)
    console.line("\(output) (\(snapshot.width)x\(snapshot.height))")
    return .success
  }
}
