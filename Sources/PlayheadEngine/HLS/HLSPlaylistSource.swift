import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadNet

/// Gives the segment engine its playlists from something other than an M3U8 on the
/// network: a DASH manifest translated into the engine's playlist model
/// (`DASHPlaylistSource`, decision 0056).
///
/// The engine asks it first for every playlist URL it loads; nil lets the engine load the
/// URL as an M3U8 itself.
protocol HLSPlaylistSource: Sendable {
  /// The playlist at `url` and the bytes loaded for it, or nil when `url` is not the
  /// source's.
  func playlist(at url: URL, loader: DataLoader) throws(PlayheadError) -> (
    playlist: Playlist, bytes: Int
  )?
}
