import PlayheadCore

/// Decides whether a playlist is a master or a media playlist before parsing it.
enum PlaylistKindDetector {
  /// Whether the playlist is a master playlist: its first decisive line is
  /// `EXT-X-STREAM-INF` or `EXT-X-I-FRAME-STREAM-INF` (an `EXTINF` or a URI line first
  /// makes it a media playlist, as does having none of these).
  ///
  /// Reads only up to the first decisive line, so the cost is that of the header.
  static func isMaster(_ text: ByteText, from start: Int, maxLineLength: Int) -> Bool {
    var reader = LineReader(text: text, start: start, maxLineLength: Int.max)
    while let raw = try? reader.next() {
      switch PlaylistLine(raw, in: text) {
      case .ignorable: continue
      case .uri: return false
      case .tag(let name, _, _):
        if text.equals(name, "#EXTINF") { return false }
        if text.equals(name, "#EXT-X-STREAM-INF") || text.equals(name, "#EXT-X-I-FRAME-STREAM-INF")
        {
          return true
        }
      }
    }
    return false
  }
}
