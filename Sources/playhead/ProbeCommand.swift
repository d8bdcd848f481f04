import Foundation
import Playhead

/// `playhead probe <path-or-url> [--json]`: the container, duration and tracks; for HLS
/// also the stream kind, variants, renditions and I-frame variants; for DASH the Periods,
/// adaptation sets, Representations and protection; then the text and
/// audio tracks as a session lists them.
struct ProbeCommand: Command {
  static let usage = Usage.probe

  /// The input as typed.
  var input: String
  /// Print JSON instead of text.
  var json = false
  /// `--header`, `--referer`, `--user-agent`, `--timeout`, `--retries`.
  var requests = RequestOptions()

  init(parsing arguments: [String]) throws(UsageError) {
    var cursor = ArgumentCursor(arguments, verb: "probe")
    var input: String?
    while let token = cursor.next() {
      switch token {
      case .positional(let text):
        guard input == nil else { throw cursor.unexpected(text) }
        input = text
      case .option("--json", let inline):
        try cursor.noValue(for: "--json", inline: inline)
        json = true
      case .option(let name, let inline) where RequestOptions.names.contains(name):
        try requests.parse(name, inline: inline, cursor: &cursor)
      case .option(let name, _):
        throw cursor.unknown(name)
      }
    }
    guard let input else { throw cursor.missingInput() }
    self.input = input
  }

  func run(console: Console) throws(PlayheadError) -> ExitCode {
    let url = URLArgument.url(fromArgument: input)
    try IncompleteDownload.check(url)
    let asset = Asset(url: url)
    let stack = DataSourceStack(request: requests.request)
    try waitFor { () async throws(PlayheadError) in try await asset.load(through: stack) }
    // Loading sniffs the content: an HLS playlist under another name is HLS too.
    let dash = asset.isDASH ? try DASHProbe.load(url: asset.url, request: requests.request) : nil
    let stream =
      asset.isHLS && dash == nil
      ? try HLSProbe.load(url: asset.url, request: requests.request) : nil
    let container = asset.containerName ?? "unknown"
    let listing =
      stream.map { ProbeTracks(renditions: $0.renditions, base: asset.url) }
      ?? ProbeTracks(tracks: asset.tracks)
    if json {
      console.line(
        Self.json(
          container: container, duration: asset.duration, tracks: asset.tracks,
          extra: (stream?.jsonFields ?? []) + (dash?.jsonFields ?? []) + listing.jsonFields))
    } else {
      var lines = Self.text(container: container, duration: asset.duration, tracks: asset.tracks)
      if let stream { lines.insert(contentsOf: stream.textLines, at: 1) }
      if let dash { lines.insert(contentsOf: dash.textLines, at: 1) }
      lines += listing.textLines
      for line in lines { console.line(line) }
    }
    return .success
  }

  /// The `--json` object; `extra` fields follow the tracks.
  static func json(
    container: String, duration: MediaTime, tracks: [AssetTrack], extra: [JSONField] = []
  ) -> String {
    let trackValues = tracks.map { track in
      JSONValue.object([
        JSONField("index", .integer(Int64(track.id))),
        JSONField("kind", .string(kindName(track.kind))),
        JSONField("codec", .string(track.codec)),
        JSONField("width", .int(track.width)),
        JSONField("height", .int(track.height)),
        JSONField("frameRate", .decimal(track.nominalFrameRate)),
        JSONField("bitRate", .int(track.estimatedDataRate)),
        JSONField("sampleRate", .int(track.sampleRate)),
        JSONField("channels", .int(track.channels)),
        JSONField("language", .text(track.languageCode)),
      ])
    }
    return JSONValue.object(
      [
        JSONField("container", .string(container)),
        JSONField("duration", .seconds(duration)),
        JSONField("tracks", .array(trackValues)),
      ] + extra
    ).encoded
  }

  /// The text lines: container, duration, then one line per track.
  static func text(container: String, duration: MediaTime, tracks: [AssetTrack]) -> [String] {
    var lines = ["container  \(container)"]
    if duration.isNumeric {
      lines.append("duration   \(TimeText.clock(duration)) (\(TimeText.seconds(duration)))")
    } else {
      lines.append("duration   unknown")
    }
    for track in tracks {
      var parts = ["track \(track.id)", kindName(track.kind), track.codec]
      if let width = track.width, let height = track.height { parts.append("\(width)x\(height)") }
      if let rate = track.nominalFrameRate, rate.isFinite, rate > 0 {
        parts.append(String(format: "%g fps", rate))
      }
      if let sampleRate = track.sampleRate { parts.append("\(sampleRate) Hz") }
      if let channels = track.channels { parts.append("\(channels) ch") }
      if let bitRate = track.estimatedDataRate, bitRate > 0 {
        parts.append("\((bitRate + 500) / 1000) kb/s")
      }
      if let language = track.languageCode, !language.isEmpty { parts.append("[\(language)]") }
      lines.append(parts.joined(separator: "  "))
    }
    return lines
  }

  /// `video`, `audio`, `subtitle` or `data`.
  static func kindName(_ kind: MediaKind) -> String {
    switch kind {
    case .video: return "video"
    case .audio: return "audio"
    case .subtitle: return "subtitle"
    case .data: return "data"
    }
  }
}
