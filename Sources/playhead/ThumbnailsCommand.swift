import Foundation
import Playhead

/// `playhead thumbnails <path-or-url> --every SECONDS --out DIR [--sprite COLSxROWS]
/// [--width W] [--format jpeg|png]`: seek thumbnails and their WebVTT file.
struct ThumbnailsCommand: Command {
  static let usage = Usage.thumbnails

  /// The name of the thumbnails file written into the output folder.
  static let vttName = "thumbnails.vtt"

  /// The options that take a value.
  static let valueOptions: Set<String> = [
    "--every", "--out", "-o", "--output", "--sprite", "--width", "--format", "--quality",
  ]

  /// The input as typed.
  var input: String
  /// The folder to write into.
  var output: String
  /// What to make.
  var options: ThumbnailGeneratorOptions
  /// `--header`, `--referer`, `--user-agent`, `--timeout`, `--retries` (a read that fails
  /// is resumed with a range request, as for `play`).
  var requests = RequestOptions()
  /// Print only errors.
  var quiet = false

  init(parsing arguments: [String]) throws(UsageError) {
    var cursor = ArgumentCursor(arguments, verb: "thumbnails")
    var input: String?
    var every: Double?
    var output: String?
    var options = ThumbnailGeneratorOptions(intervalSeconds: 1)
    while let token = cursor.next() {
      switch token {
      case .positional(let text):
        guard input == nil else { throw cursor.unexpected(text) }
        input = text
      case .option("--quiet", let inline):
        try cursor.noValue(for: "--quiet", inline: inline)
        quiet = true
      case .option(let name, let inline) where RequestOptions.names.contains(name):
        try requests.parse(name, inline: inline, cursor: &cursor)
      case .option(let name, _) where !Self.valueOptions.contains(name):
        throw cursor.unknown(name)
      case .option(let name, let inline):
        let text = try cursor.value(for: name, inline: inline)
        switch name {
        case "--every":
          let seconds = try ArgumentValue.seconds(text, option: name)
          guard seconds >= 0.001 else {
            throw UsageError("option '--every' needs at least 0.001 seconds, not '\(text)'")
          }
          every = seconds
        case "--out", "-o", "--output":
          output = try ArgumentValue.path(text, option: name)
        case "--sprite":
          guard let grid = ThumbnailGeneratorOptions.SpriteGrid(text) else {
            throw UsageError(
              "option '--sprite' needs COLSxROWS with 1 to 100 of each (5x5), not '\(text)'")
          }
          options.sprite = grid
        case "--width":
          guard let width = Int(text), (1...4096).contains(width) else {
            throw UsageError("option '--width' needs a whole number from 1 to 4096, not '\(text)'")
          }
          options.width = width
        case "--format":
          switch text.lowercased() {
          case "jpeg", "jpg": options.format = .jpeg
          case "png": options.format = .png
          default: throw UsageError("option '--format' needs jpeg or png, not '\(text)'")
          }
        case "--quality":
          guard let quality = Double(text), (0...1).contains(quality) else {
            throw UsageError("option '--quality' needs a number from 0 to 1, not '\(text)'")
          }
          options.quality = quality
        default:
          throw cursor.unknown(name)
        }
      }
    }
    guard let input else { throw cursor.missingInput() }
    guard let every else {
      throw UsageError("'thumbnails' needs --every SECONDS (see 'playhead thumbnails --help')")
    }
    guard let output else {
      throw UsageError("'thumbnails' needs --out DIR (see 'playhead thumbnails --help')")
    }
    options.intervalSeconds = every
    self.input = input
    self.output = output
    self.options = options
  }

  func run(console: Console) throws(PlayheadError) -> ExitCode {
    let url = URLArgument.url(fromArgument: input)
    let directory = fileURL(forPath: output)
    try createDirectory(directory)
    let started = Date()
    var bytes = 0
    let result = try ThumbnailGenerator.generate(
      from: url, options: options, through: DataSourceStack(request: requests.request)
    ) {
      file throws(PlayheadError) in
      bytes += file.data.count
      try write(file.data, to: directory.appendingPathComponent(file.name))
    }
    let vtt = Data(result.vttText.utf8)
    try write(vtt, to: directory.appendingPathComponent(Self.vttName))
    let seconds = Date().timeIntervalSince(started)
    if !quiet {
      for line in Self.summary(
        result, options: options, directory: output, bytes: bytes + vtt.count, seconds: seconds)
      {
        console.line(line)
      }
    }
    return .success
  }

  /// The lines printed after a run.
  static func summary(
    _ result: GeneratedThumbnails, options: ThumbnailGeneratorOptions, directory: String,
    bytes: Int, seconds: Double
  ) -> [String] {
    let size = "\(result.thumbnailWidth)x\(result.thumbnailHeight)"
    let files: String
    if let grid = options.sprite {
      let count = result.imageNames.count
      files = "\(count) sprite sheet\(count == 1 ? "" : "s") of \(grid)"
    } else {
      files = "\(result.imageNames.count) \(options.format.rawValue.uppercased()) files"
    }
    let interval = TimeText.seconds(MediaTime(commandLineSeconds: options.intervalSeconds))
    let end = TimeText.seconds(result.end)
    let imageCount = result.imageNames.count
    let plural = imageCount == 1 ? "" : "s"
    let elapsed = String(format: "%.2f", seconds)
    return [
      "\(result.thumbnailCount) thumbnails (\(size)) every \(interval) to \(end) in \(files)",
      "\(directory)/\(vttName) and \(imageCount) image file\(plural), \(bytes) bytes",
      "decoded \(result.decodedFrameCount) frames with \(result.seekCount) seeks in \(elapsed) s",
    ]
  }

  private func createDirectory(_ directory: URL) throws(PlayheadError) {
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw PlayheadError(
        .ioError, "cannot create \(output): \(PlayheadError.reason(for: error))", url: directory)
    }
  }

  private func write(_ data: Data, to url: URL) throws(PlayheadError) {
    do {
      try data.write(to: url, options: .atomic)
    } catch {
      throw PlayheadError(
        .ioError, "cannot write \(url.path): \(PlayheadError.reason(for: error))", url: url)
    }
  }
}
