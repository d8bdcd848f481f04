import Foundation
import PlayheadCore
import PlayheadNet

/// A client of the video cloud's Playback API: finds videos and playlists by ID or
/// reference ID and maps them to `Video` and `Playlist` values (the seed's
/// `BCOVPlaybackService`).
///
/// Requests go to `{baseURL}/accounts/{accountID}/videos/{ID | ref:REF}` (or `playlists`)
/// with the policy key in `Accept: application/json;pk=KEY` and a playback-authorization
/// token in `Authorization: Bearer TOKEN`. `baseURL` defaults to the public edge; set it
/// to a proxy (the seed's China delivery `chinaProxyDomain`, see `baseURL(proxyDomain:)`)
/// or to a local server in tests.
///
/// Bumpers: a bumper asked for in the request, and any bumper a returned video names in
/// `custom_fields.bumper_id`, are fetched with the content and kept in a cache that
/// `bumperLookup` reads; plug it into `PlaybackController.bumperLookup`.
///
/// Threading: every method may be called from any thread or task; requests run
/// concurrently. Cancelling the calling task ends a request with a `.cancelled` network
/// error.
///
/// Example:
/// ```swift
/// let service = PlaybackService(accountID: "1234", policyKey: "BCpk...")
/// let result = try await service.findVideo(PlaybackServiceRequest(identifier: "ref:intro"))
/// controller.bumperLookup = service.bumperLookup
/// controller.bumperVideo = result.bumperVideo
/// controller.setVideos([result.video])
/// ```
public final class PlaybackService: Sendable {
  /// The public Playback API endpoint.
  public static let defaultBaseURL = URL(string: "https://edge.api.brightcove.com/playback/v1")!

  /// The video cloud account.
  public let accountID: String
  /// The policy key; nil (or empty) sends none, for endpoints that take only a
  /// playback-authorization token.
  public let policyKey: String?
  /// Where the API is: `…/playback/v1` (a trailing slash is ignored).
  public let baseURL: URL
  /// Header fields sent with every request (a request's own headers replace them).
  public let headers: [String: String]
  /// Timeout (a request without an answer for `timeoutMs` fails with a `.timedOut` network
  /// error), retries (none by default) and extra headers of every request.
  public let request: RequestConfiguration
  /// The network requests go over (a player's, a simulated one); nil: HTTP(S). Requests go
  /// through a data-source stack on it that bypasses any cache; cancelling the calling task
  /// cancels the request.
  public let network: (any DataSourceFactory)?
  let bumperCache = BumperCache()

  /// Creates a service; nothing is sent until the first `find…`.
  public init(
    accountID: String, policyKey: String?, baseURL: URL = PlaybackService.defaultBaseURL,
    headers: [String: String] = [:],
    request: RequestConfiguration = RequestConfiguration(retryCount: 0),
    network: (any DataSourceFactory)? = nil
  ) {
    self.accountID = accountID
    self.policyKey = policyKey
    self.baseURL = baseURL
    self.headers = headers
    self.request = request
    self.network = network
  }

  /// The stack a request goes through.
  var stack: DataSourceStack { DataSourceStack(request: request, network: network) }

  /// The base URL for a proxy host name, as the seed's `chinaProxyDomain` gives it:
  /// `https://HOST/playback/v1`; nil when `domain` is empty or not a host name.
  public static func baseURL(proxyDomain domain: String) -> URL? {
    let host = domain.trimmingCharacters(in: .whitespaces)
    guard !host.isEmpty, !host.contains("/"), !host.contains(" ") else { return nil }
    guard let url = URL(string: "https://\(host)/playback/v1"), url.host != nil else { return nil }
    return url
  }

  /// A closure that resolves a bumper's video ID (or `ref:REF`) to a bumper this service
  /// has fetched; nil for one it has not. Meant for `PlaybackController.bumperLookup`.
  public var bumperLookup: @Sendable (String) -> Video? {
    { [bumperCache] key in bumperCache.video(for: key) }
  }

  /// Forgets the fetched bumpers (their source URLs may carry tokens that expire).
  public func clearBumperCache() {
    bumperCache.removeAll()
  }

  /// Fetches the video `request` names, and its bumper (see the result).
  ///
  /// `queryParameters` are sent as they are (for example `ad_config_id`, `config_id`);
  /// the request's own `adConfigID` and `deliveryConfigID` replace entries of the same
  /// name. Throws `.invalidRequest` when the request names no video, `.api` for an error
  /// status, `.deserialization` for a body that is not a video, `.network` when the
  /// request did not complete.
  public func findVideo(
    _ request: PlaybackServiceRequest, queryParameters: [String: String] = [:]
  ) async throws(PlaybackServiceError) -> PlaybackServiceVideoResult {
    let url = try url(for: request, collection: .videos, queryParameters: queryParameters)
    let (json, data) = try await fetchJSON(url, request: request)
    let (video, warnings) = try Self.mapVideo(json, rawData: data)
    let bumpers = await resolveBumpers(for: [video], request: request)
    let ownBumper = video.bumperID.flatMap { bumpers.custom[$0] }
    return PlaybackServiceVideoResult(
      video: video, json: json, rawData: data, bumperVideo: ownBumper ?? bumpers.configured,
      bumperErrors: bumpers.errors, warnings: warnings)
  }

  /// Fetches the playlist `request` names (the page `limit` / `offset` ask for), its
  /// bumper, and the bumpers its videos name.
  ///
  /// Errors as `findVideo`; `.invalidRequest` also for a `limit` below 1 or a negative
  /// `offset`.
  public func findPlaylist(
    _ request: PlaybackServiceRequest, queryParameters: [String: String] = [:]
  ) async throws(PlaybackServiceError) -> PlaybackServicePlaylistResult {
    let url = try url(for: request, collection: .playlists, queryParameters: queryParameters)
    let (json, data) = try await fetchJSON(url, request: request)
    let (playlist, warnings) = try Self.mapPlaylist(json, rawData: data)
    let bumpers = await resolveBumpers(for: playlist.videos, request: request)
    return PlaybackServicePlaylistResult(
      playlist: playlist, json: json, rawData: data, bumperVideo: bumpers.configured,
      bumpers: bumpers.custom, bumperErrors: bumpers.errors, warnings: warnings)
  }

  /// The URL `findVideo` requests for `request`; throws `.invalidRequest` as it does.
  public func videoURL(
    for request: PlaybackServiceRequest, queryParameters: [String: String] = [:]
  ) throws(PlaybackServiceError) -> URL {
    try url(for: request, collection: .videos, queryParameters: queryParameters)
  }

  /// The URL `findPlaylist` requests for `request`; throws `.invalidRequest` as it does.
  public func playlistURL(
    for request: PlaybackServiceRequest, queryParameters: [String: String] = [:]
  ) throws(PlaybackServiceError) -> URL {
    try url(for: request, collection: .playlists, queryParameters: queryParameters)
  }
}
