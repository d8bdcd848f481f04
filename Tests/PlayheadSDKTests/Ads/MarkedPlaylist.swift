import Foundation
import PlayheadTestSupport
import PlayheadTesting

/// HLS fixtures with server-side ad markers added, served over HTTP.
enum MarkedPlaylist {
  /// A copy of a fixture's media playlist with an ad period over its segments 2 and 3
  /// (4 s to 8 s), served beside the fixture's segments.
  static func serve(_ folder: String) throws -> (HTTPTestServer, URL) {
    let original = try String(
      contentsOf: Fixtures.url("\(folder)/index.m3u8"), encoding: .utf8)
    var lines: [String] = []
    var segment = 0
    for line in original.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("#EXTINF") {
        if segment == 2 { lines.append("#EXT-X-CUE-OUT:4.000") }
        if segment == 3 { lines.append("#EXT-X-CUE-OUT-CONT:ElapsedTime=2.000,Duration=4.000") }
        if segment == 4 { lines.append("#EXT-X-CUE-IN") }
        segment += 1
      }
      lines.append(String(line))
    }
    let server = HTTPTestServer(
      directory: try Fixtures.directory(),
      files: ["/\(folder)/marked.m3u8": Data(lines.joined(separator: "\n").utf8)])
    try server.start()
    return (server, server.url("/\(folder)/marked.m3u8"))
  }
}
