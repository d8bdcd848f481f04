import Foundation
import PlayheadHLS

// Parses one playlist file RUNS times with PlayheadParser and prints one line:
// `bytes=<n> segments=<n> median_seconds=<s> min_seconds=<s>`.
//
// Usage: M3U8Bench <file> <playlist-url> [runs]   (runs default 20; one warm-up parse first)

let arguments = CommandLine.arguments
guard arguments.count >= 3, let url = URL(string: arguments[2]) else {
  FileHandle.standardError.write(Data("usage: M3U8Bench <file> <playlist-url> [runs]\n".utf8))
  exit(2)
}
let runs = arguments.count > 3 ? max(1, Int(arguments[3]) ?? 20) : 20
let data: Data
do {
  data = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
} catch {
  FileHandle.standardError.write(Data("M3U8Bench: cannot read \(arguments[1]): \(error)\n".utf8))
  exit(1)
}

/// Parses `data` once and returns the segment count (0 for a master playlist).
func parseOnce() -> Int {
  do {
    let playlist = try PlaylistParser.parse(data, url: url)
    return playlist.mediaPlaylist?.segments.count ?? 0
  } catch {
    FileHandle.standardError.write(Data("M3U8Bench: \(error)\n".utf8))
    exit(1)
  }
}

let segments = parseOnce()
let clock = ContinuousClock()
var durations: [Double] = []
for _ in 0..<runs {
  var count = 0
  let elapsed = clock.measure { count = parseOnce() }
  precondition(count == segments, "every parse gives the same segment count")
  let parts = elapsed.components
  durations.append(Double(parts.seconds) + Double(parts.attoseconds) / 1e18)
}
durations.sort()
let median = durations[durations.count / 2]
print(
  "bytes=\(data.count) segments=\(segments) median_seconds=\(median) min_seconds=\(durations[0])")
