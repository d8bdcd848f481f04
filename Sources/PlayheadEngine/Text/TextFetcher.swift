import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadNet
import PlayheadText

/// Loads an item's text-track documents (WebVTT files, subtitle playlists and segments)
/// through the item's own data source, with the containment rule: content from the
/// network never reads local files.
struct TextFetcher: Sendable {
  /// The data source every load goes through: the HLS driver's (its cache, headers,
  /// retries and clock), or one made for the item.
  let dataSource: any DataSource
  /// Whether `file:` URLs may be loaded (only for content that is itself a local file).
  let allowsFiles: Bool

  /// The bytes at `url`; refuses a scheme the rule does not allow (`.unsupportedScheme`).
  func data(at url: URL, purpose: DataPurpose) throws(PlayheadError) -> Data {
    let scheme = url.scheme?.lowercased() ?? ""
    let permitted = scheme == "http" || scheme == "https" || (scheme == "file" && allowsFiles)
    guard permitted else {
      throw PlayheadError(
        .unsupportedScheme,
        "text track \(url.absoluteString): only http(s) URLs"
          + (allowsFiles ? " and file URLs" : " (the content is not a local file)")
          + " are loaded", url: url)
    }
    return try dataSource.load(DataRequest(url: url, purpose: purpose)).data
  }

  /// The WebVTT document at `url`; one that does not parse throws `.unsupportedFormat`
  /// naming the line.
  func webVTT(at url: URL) throws(PlayheadError) -> WebVTTDocument {
    let bytes = try data(at: url, purpose: .media)
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

  /// A fetcher for an item at `contentURL` with no data source of its own to share (a
  /// progressive file): files, and HTTP with the player's request settings, with retries
  /// on the player's clock.
  static func standalone(
    contentURL: URL, request: RequestConfiguration, clock: any Clock
  ) -> TextFetcher {
    let base = SchemeDataSource(request: request, clock: clock)
    let retrying = RetryingDataSource(
      upstream: base, configuration: request, policy: DefaultLoadErrorHandlingPolicy(),
      clock: clock)
    return TextFetcher(dataSource: retrying, allowsFiles: contentURL.isFileURL)
  }
}

/// Loads `file:` URLs from disk and everything else over HTTP; the HTTP source is made on
/// the first HTTP load, so local content never makes one.
private final class SchemeDataSource: DataSource, Sendable {
  private let file: FileDataSource
  private let request: RequestConfiguration
  private let clock: any Clock
  private let madeHTTP = Locked<HTTPDataSource?>(nil)

  init(request: RequestConfiguration, clock: any Clock) {
    self.request = request
    self.clock = clock
    file = FileDataSource(clock: clock)
  }

  private var http: HTTPDataSource {
    let request = request
    let clock = clock
    // Made under the lock, so that only one is ever made.
    return madeHTTP.withLock { made in
      if let made { return made }
      let fresh = HTTPDataSource(configuration: request, clock: clock)
      made = fresh
      return fresh
    }
  }

  func load(_ request: DataRequest, progress: (@Sendable (TransferProgress) -> Bool)?)
    throws(PlayheadError) -> DataResponse
  {
    if request.url.isFileURL { return try file.load(request, progress: progress) }
    return try http.load(request, progress: progress)
  }

  func cancelAll() {
    file.cancelAll()
    madeHTTP.value?.cancelAll()
  }
}
