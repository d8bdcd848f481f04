import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadHLS
import PlayheadNet
import PlayheadText

/// Fetches text-track documents (WebVTT files, subtitle playlists and segments) with the
/// player's request settings, and turns failures into `PlayheadError`s.
struct TextTrackFetcher: Sendable {
  /// The data source every load goes through (with retries).
  let dataSource: any DataSource
  /// Whether `file:` URLs may be loaded (only for content that is itself a local file).
  let allowsFiles: Bool

  /// A fetcher for a player: `override` when given, else the player's injected HLS data
  /// source, else file or HTTP by scheme, wrapped in retries on the player's clock (host
  /// time in fast mode, where a wait would move the shared clock).
  static func make(
    for configuration: PlayerConfiguration, override: (any DataSource)?, contentURL: URL?
  ) -> TextTrackFetcher {
    let request = configuration.hls.request
    let base = override ?? configuration.hls.dataSource ?? SchemeDataSource(request: request)
    let isFast = configuration.timing == .fast
    let retrying = RetryingDataSource(
      upstream: base, configuration: request, policy: DefaultLoadErrorHandlingPolicy(),
      clock: isFast ? HostClock.shared : configuration.clock)
    return TextTrackFetcher(dataSource: retrying, allowsFiles: contentURL?.isFileURL ?? true)
  }

  /// The bytes at `url` (or a range of them).
  func data(at url: URL, range: ByteRange? = nil, purpose: DataPurpose = .other)
    throws(PlayheadError) -> Data
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
    return try dataSource.load(DataRequest(url: url, range: range, purpose: purpose)).data
  }

  /// The WebVTT document at `url`; a document that does not parse throws
  /// `.unsupportedFormat` naming the line.
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
}

/// Loads `file:` URLs from disk and everything else over HTTP; the HTTP source (a URL
/// session) is made on the first HTTP load, so local content never makes one.
private final class SchemeDataSource: DataSource, Sendable {
  private let file = FileDataSource()
  private let request: RequestConfiguration
  private let madeHTTP = Locked<HTTPDataSource?>(nil)

  init(request: RequestConfiguration) {
    self.request = request
  }

  private var http: HTTPDataSource {
    let request = request
    // Made under the lock, so that only one is ever made.
    return madeHTTP.withLock { madeHTTP in
      if let madeHTTP { return madeHTTP }
      let made = HTTPDataSource(configuration: request)
      madeHTTP = made
      return made
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
