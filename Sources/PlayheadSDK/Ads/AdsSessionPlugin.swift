import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadNet

/// The ads plug-in attached to a session: the configuration, what ad players are built
/// with, and the fetching of schedules and ads off the controller's queue.
///
/// The controller drives playback (`PlaybackController+Ads.swift`); this type holds no
/// playback state.
final class AdsSessionPlugin: PlaybackSessionConsumer, Sendable {
  let configuration: AdsConfiguration
  let video: Video
  /// The session player's configuration: ad players share its clock, outputs and stack.
  let playerConfiguration: PlayerConfiguration
  /// Ad requests and beacons go through the player's data-source stack.
  let loader: DataLoader

  init(configuration: AdsConfiguration, video: Video, playerConfiguration: PlayerConfiguration) {
    self.configuration = configuration
    self.video = video
    self.playerConfiguration = playerConfiguration
    loader = playerConfiguration.makeDataSourceStack().loader()
  }

  /// Fetches the breaks off the caller's queue and hands the result to `completion` there.
  func fetchSchedule(
    targeting: [String: String],
    completion: @escaping @Sendable (Result<[AdBreak], AdFetchError>) -> Void
  ) {
    let schedule = configuration.schedule
    let video = video
    onFetchThread { [self] in
      switch schedule {
      case .breaks(let breaks):
        completion(.success(breaks))
      case .cuePoints(let property):
        completion(.success(Self.breaks(fromCuePointsOf: video, vastURLProperty: property)))
      case .adTag(let url):
        completion(Result { () throws(AdFetchError) in try fetchTag(url, targeting: targeting) })
      case .adTagProperty(let name):
        guard let text = video.properties[name]?.stringValue, let url = URL(string: text) else {
          completion(.success([]))
          return
        }
        completion(Result { () throws(AdFetchError) in try fetchTag(url, targeting: targeting) })
      }
    }
  }

  /// Fetches the ads of a break's VAST tag off the caller's queue; `idPrefix` names ads
  /// without an id.
  func fetchAds(
    _ url: URL, idPrefix: String, targeting: [String: String],
    completion: @escaping @Sendable (AdPodResolution) -> Void
  ) {
    onFetchThread { [self] in
      completion(resolver.pod(forTag: Self.targeted(url, targeting), idPrefix: idPrefix))
    }
  }

  /// The resolver over the player's stack, with the configuration's depth and timeout.
  var resolver: VASTResolver {
    VASTResolver(
      loader: loader,
      configuration: VASTResolverConfiguration(
        maxWrapperDepth: configuration.maxWrapperDepth,
        hopTimeoutMs: configuration.adTimeoutMs))
  }

  /// The breaks of an ad tag (VMAP or VAST).
  private func fetchTag(_ url: URL, targeting: [String: String]) throws(AdFetchError)
    -> [AdBreak]
  {
    do {
      let schedule = try resolver.schedule(forTag: Self.targeted(url, targeting))
      return schedule.breaks
    } catch {
      throw AdFetchError(
        code: error.vastCode?.rawValue ?? error.vmapCode ?? 900, message: error.message)
    }
  }

  /// Runs `body` on a thread of the player's clock: on a fast-mode clock time stands still
  /// while the request is out, as it does for the engine's own loads, so timeouts count
  /// only the clock time the transfer really takes.
  private func onFetchThread(_ body: @escaping @Sendable () -> Void) {
    playerConfiguration.clock.startThread(named: "playhead.ads.fetch", stackSize: nil, body)
  }

  /// Stops every fetch in flight (the session ended).
  func cancel() {
    loader.cancelAll()
  }

  /// One break per `ad` cue point, its VAST tag in the property `vastURLProperty`; cue
  /// points without one are left out.
  static func breaks(fromCuePointsOf video: Video, vastURLProperty: String) -> [AdBreak] {
    video.cuePoints.cuePoints.enumerated().compactMap { index, cuePoint in
      guard cuePoint.type == "ad", let text = cuePoint.properties[vastURLProperty]?.stringValue,
        let url = URL(string: text)
      else { return nil }
      let offset: VMAPTimeOffset
      switch cuePoint.position {
      case .before: offset = .start
      case .after: offset = .end
      case .time(let time): offset = .time(time)
      }
      return AdBreak(id: cuePoint.id ?? "cue\(index + 1)", offset: offset, source: .tag(url))
    }
  }

  /// `url` with the targeting key/values appended as query items (seed 002).
  static func targeted(_ url: URL, _ targeting: [String: String]) -> URL {
    guard !targeting.isEmpty, var parts = URLComponents(url: url, resolvingAgainstBaseURL: true)
    else { return url }
    var items = parts.queryItems ?? []
    for key in targeting.keys.sorted() {
      items.append(URLQueryItem(name: key, value: targeting[key]))
    }
    parts.queryItems = items
    return parts.url ?? url
  }
}

/// Why fetching a schedule or a break's ads failed: the IAB VAST error code, a message,
/// and the error URLs the chain collected (pinged with `[ERRORCODE]`).
struct AdFetchError: Error, Sendable {
  var code: Int
  var message: String
  var errorURLs: [String] = []
}
