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
    var input: String?
    var at: Double?
    var output: String?
    var width: Int?
    var height: Int?
    while let token = cursor.next() {
      switch token {
      case .positional(let text):
        guard input == nil else { throw cursor.unexpected(text) }
        input = text
      case .option(let name, let inline):
        switch name {
        case "--at":
          at = try ArgumentValue.seconds(cursor.value(for: name, inline: inline), option: name)
        case "-o", "--output":
          output = try ArgumentValue.path(cursor.value(for: name, inline: inline), option: name)
        case "--width":
          width = try ArgumentValue.positiveInteger(
            cursor.value(for: name, inline: inline), option: name)
        case "--height":
          height = try ArgumentValue.positiveInteger(
            cursor.value(for: name, inline: inline), option: name)
        case "--gravity":
          gravity = try ArgumentValue.gravity(cursor.value(for: name, inline: inline), option: name)
        default:
          throw cursor.unknown(name)
        }
      }
    }
    guard let input else { throw cursor.missingInput() }
    guard let at else {
      throw UsageError("'snapshot' needs --at T (see 'playhead snapshot --help')")
    }
    guard let output else {
      throw UsageError("'snapshot' needs -o FILE.png (see 'playhead snapshot --help')")
    }
    switch (width, height) {
    case (let width?, let height?): size = (width, height)
    case (nil, nil): size = nil
    default: throw UsageError("options '--width' and '--height' go together")
    }
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
