import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadNet
import PlayheadText

/// Loads an item's text-track documents (WebVTT files, subtitle playlists and segments)
/// through the item's data-source stack, with the containment rule: content from the
/// network never reads local files.
struct TextFetcher: Sendable {
  /// The loader every load goes through: the HLS driver's (its cache, headers, retries and
  /// clock, cancelled with the stream), or one over the item's stack.
  let loader: DataLoader
  /// Whether `file:` URLs may be loaded (only for content that is itself a local file).
  let allowsFiles: Bool

  /// The bytes at `url` (`range` of them when given); refuses a scheme the rule does not
  /// allow (`.unsupportedScheme`).
  func data(at url: URL, range: ByteRange? = nil, purpose: DataPurpose) throws(PlayheadError)
    -> Data
  {
    let scheme = url.scheme?.lowercased() ?? ""
    let permitted = scheme == "http" || scheme == "https" || (scheme == "file" && allowsFiles)
    guard permitted else {
      throw PlayheadError(
        .unsupportedScheme,
        "text track \(url.absoluteString): only http(s) URLs"
          + (allowsFiles ? " and file URLs" : " (the content is not a local file)")
          + " are loaded", url: url)
    }
    return try loader.load(DataRequest(url: url, range: range, purpose: purpose)).data
  }

  /// The WebVTT document at `url`; one that does not parse throws `.unsupportedFormat`
  /// naming the line.
  func webVTT(at url: URL) throws(PlayheadError) -> WebVTTDocument {
    let bytes = try data(at: url, purpose: .text)
    do {
      return try WebVTTParser.parse(bytes)
    } catch {
      throw PlayheadError(
        .unsupportedFormat, "bad WebVTT \(url.absoluteString): \(error.description)", url: url)
    }
  }

  /// The media playlist at `url`; a master playlist or one that does not parse throws
  /// `.unsupportedFormat`.
  func mediaPlaylist(at url: URL) throws(PlayheadError) -> MediaPlaylist {
    let bytes = try data(at: url, purpose: .playlist)
    let playlist: PlayheadHLS.Playlist
    do {
      playlist = try PlaylistParser.parse(bytes, url: url)
    } catch {
      throw PlayheadError(
        .unsupportedFormat, "bad playlist \(url.absoluteString): \(error)", url: url)
    }
    guard let media = playlist.mediaPlaylist else {
      throw PlayheadError(
        .unsupportedFormat,
        "bad playlist \(url.absoluteString): a master playlist where a media playlist was expected",
        url: url)
    }
    return media
  }
}
