import Foundation
import PlayheadCore

/// The bumpers a `PlaybackService` has fetched, by video ID and by the `ref:REF` they were
/// asked for with.
final class BumperCache: Sendable {
  private let videos = Locked([String: Video]())

  func video(for key: String) -> Video? {
    videos.withLock { $0[key] }
  }

  func store(_ video: Video, keys: [String]) {
    videos.withLock { videos in
      for key in keys where !key.isEmpty { videos[key] = video }
    }
  }

  func removeAll() {
    videos.withLock { $0.removeAll() }
  }
}

extension PlaybackService {
  /// The bumpers for `videos`: the one the request names and those the videos name in
  /// `custom_fields.bumper_id`, with the failures by the key asked for.
  struct Bumpers {
    var configured: Video?
    var custom: [String: Video] = [:]
    var errors: [String: PlaybackServiceError] = [:]
  }

  /// Fetches (or takes from the cache) every bumper `videos` and `request` need, one at a
  /// time. The request's bumper is fetched unless the only video has its own bumper.
  func resolveBumpers(
    for videos: [Video], request: PlaybackServiceRequest
  ) async -> Bumpers {
    var result = Bumpers()
    var seen = Set<String>()
    for id in videos.compactMap(\.bumperID) where seen.insert(id).inserted {
      switch await bumper(PlaybackServiceRequest.pathIdentifier(id: id, reference: nil), request)
      {
      case .success(let video)?: result.custom[id] = video
      case .failure(let error)?: result.errors[id] = error
      case nil: break
      }
    }
    let needsConfigured =
      videos.count != 1 || videos.first?.bumperID.flatMap { result.custom[$0] } == nil
    if needsConfigured, let key = request.bumperPathIdentifier {
      switch await bumper(key, request) {
      case .success(let video)?: result.configured = video
      case .failure(let error)?: result.errors[Self.readableKey(key)] = error
      case nil: break
      }
    }
    return result
  }

  /// One bumper by its path segment (`ID` or `ref:REF`, encoded), from the cache or the API
  /// (with the request's token and headers, without its query); nil for no key.
  private func bumper(
    _ key: String?, _ request: PlaybackServiceRequest
  ) async -> Result<Video, PlaybackServiceError>? {
    guard let key else { return nil }
    let readable = Self.readableKey(key)
    if let cached = bumperCache.video(for: readable) { return .success(cached) }
    do throws(PlaybackServiceError) {
      let url = try url(collection: .videos, identifier: key, query: [:])
      let (json, data) = try await fetchJSON(url, request: request)
      let video: Video
      do {
        video = try CatalogMapping.video(json, path: "bumper").0
      } catch {
        throw .deserialization(message: error.message, rawData: data)
      }
      bumperCache.store(video, keys: [readable, video.id ?? ""])
      return .success(video)
    } catch {
      return .failure(error)
    }
  }

  /// A path segment without its percent-encoding, as callers name bumpers.
  private static func readableKey(_ key: String) -> String {
    key.removingPercentEncoding ?? key
  }
}
