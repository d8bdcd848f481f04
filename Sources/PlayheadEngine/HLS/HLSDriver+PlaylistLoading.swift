import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadNet

extension HLSDriver {
  /// Loads and parses the playlist at `url`; returns it with its size in bytes.
  ///
  /// An empty body and a fatal parse error are `.invalidPlaylist` errors whose message
  /// names the playlist and the line (`bad playlist URL: line 0: the playlist is empty`),
  /// not source errors: the playlist was loaded, it is its text that is wrong.
  ///
  /// `source`, when given, is asked first (a DASH manifest's playlists).
  static func loadPlaylist(
    _ url: URL, from loader: DataLoader, importing definitions: [String: String]?,
    source: (any HLSPlaylistSource)?
  ) throws(PlayheadError) -> (playlist: Playlist, bytes: Int) {
    if let source, let translated = try source.playlist(at: url, loader: loader) {
      return translated
    }
    let data = try loader.load(DataRequest(url: url, purpose: .playlist)).data
    do {
      let playlist =
        try definitions.map { try PlaylistParser.parse(data, url: url, importing: $0) }
        ?? PlaylistParser.parse(data, url: url)
      return (playlist, data.count)
    } catch {
      throw PlayheadError(
        .invalidPlaylist, "bad playlist \(url.absoluteString): \(error)", url: url)
    }
  }
}
