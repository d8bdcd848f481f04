import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// Fetches thumbnails files and images, decodes (JPEG, PNG) and crops them, and keeps the
/// most recently used images in a small cache keyed by image URL, so that a sprite sheet
/// is fetched and decoded once for all the thumbnails it holds.
///
/// Loads go through a data-source stack: by default local files and HTTP(S) with `request`;
/// a player's stack (or a network, a simulated one) may be given instead. The blocking work runs one request at a time on
/// the loader's own queue, never on the concurrency pool; a request for an image that is
/// being fetched waits for that fetch and then finds the image in the cache. A task
/// cancelled before its request runs throws `.cancelled`; `cancelAll()` ends the current
/// and every later load. Failures are not cached: the next request tries again.
///
/// ```swift
/// let loader = ThumbnailLoader()
/// let track = try await loader.loadTrack(from: vttURL)
/// if let thumbnail = try await loader.thumbnail(at: time, in: track) {
///   show(thumbnail.image)
/// }
/// ```
public final class ThumbnailLoader: Sendable {
  // `queue` runs one job at a time.
  /// How many decoded images the cache holds (at least 0; 0 disables it).
  public let cacheCapacity: Int
  /// The largest thumbnails file loaded, in bytes (the WebVTT parser's limit, 16 MiB).
  public static let maximumTrackBytes = 16 * 1024 * 1024
  /// The largest image file loaded, in bytes (32 MiB); a bigger one is abandoned while it
  /// loads.
  public static let maximumImageBytes = 32 * 1024 * 1024
  private let loader: DataLoader
  private let queue = DispatchQueue(label: "playhead.sdk.thumbnail-loader")
  private let state: Locked<State>

  private struct State: Sendable {
    var cache: ThumbnailImageCache
    var fetches = 0
    var cancelled = false
  }

  /// A loader for `file:`, `http:` and `https:` URLs.
  ///
  /// `cacheCapacity` is in images (default 8): a sprite sheet of 10×10 tiles of 160×90 is
  /// 1600×900 pixels, 5.8 MB decoded.
  public convenience init(request: RequestConfiguration = .init(), cacheCapacity: Int = 8) {
    self.init(stack: DataSourceStack(request: request), cacheCapacity: cacheCapacity)
  }

  /// A loader that loads every URL through `stack` (a player's, or one over a network of
  /// the application's).
  public init(stack: DataSourceStack, cacheCapacity: Int = 8) {
    self.cacheCapacity = max(0, cacheCapacity)
    loader = stack.loader()
    state = Locked(State(cache: ThumbnailImageCache(capacity: cacheCapacity)))
  }

  /// The image URLs in the cache, most recently used first.
  public var cachedImageURLs: [URL] { state.withLock { $0.cache.urls } }

  /// How many image fetches went to the data source so far (cache misses).
  public var imageFetchCount: Int { state.withLock { $0.fetches } }

  /// Empties the image cache.
  public func removeAllCachedImages() {
    state.withLock { $0.cache.removeAll() }
  }

  /// Makes the current load and every later one throw `.cancelled`.
  public func cancelAll() {
    state.withLock { $0.cancelled = true }
    loader.cancelAll()
  }

  /// Fetches and parses the WebVTT thumbnails file at `url`.
  ///
  /// Throws the data source's error (`.fileNotFound`, `.httpStatus`, `.timedOut`, …) or
  /// `.unsupportedFormat` when the file is not WebVTT (see `ThumbnailTrack.init(data:url:)`)
  /// or larger than `maximumTrackBytes`.
  public func loadTrack(from url: URL) async throws(PlayheadError) -> ThumbnailTrack {
    try await run { () throws(PlayheadError) -> ThumbnailTrack in
      let data = try self.load(url, limit: Self.maximumTrackBytes, what: "thumbnails file")
      return try ThumbnailTrack(data: data, url: url)
    }
  }

  /// The whole decoded image at `url` (without fragment), from the cache or fetched.
  ///
  /// Throws the data source's error, or `ImageCodec.decode`'s (`.unsupportedFormat` for
  /// bytes that are not JPEG or PNG, `.decodeFailed` for a damaged image), with `url`;
  /// `.unsupportedFormat` for a file larger than `maximumImageBytes`.
  public func image(at url: URL) async throws(PlayheadError) -> RGBAImage {
    try await run { () throws(PlayheadError) -> RGBAImage in try self.cachedOrFetched(url) }
  }

  /// The picture of `reference`: its region of the image, or the whole image.
  ///
  /// Throws as `image(at:)`, and `.invalidArgument` when the region does not lie inside
  /// the image.
  public func image(for reference: ThumbnailReference) async throws(PlayheadError) -> RGBAImage {
    try await run { () throws(PlayheadError) -> RGBAImage in
      let image = try self.cachedOrFetched(reference.imageURL)
      return try Self.crop(image, to: reference)
    }
  }

  /// The thumbnail of `track` for `time` (see `ThumbnailTrack`'s lookup rule) with its
  /// picture; nil when the track has none for that time.
  ///
  /// Throws as `image(for:)`.
  public func thumbnail(at time: MediaTime, in track: ThumbnailTrack) async throws(PlayheadError)
    -> Thumbnail?
  {
    guard let cue = track.cue(at: time) else { return nil }
    let image = try await image(for: cue.reference)
    return Thumbnail(start: cue.start, end: cue.end, reference: cue.reference, image: image)
  }

  // MARK: Internals

  /// The region of `image` that `reference` names.
  static func crop(_ image: RGBAImage, to reference: ThumbnailReference) throws(PlayheadError)
    -> RGBAImage
  {
    guard let region = reference.region else { return image }
    let pixels = region.pixels(imageWidth: image.width, imageHeight: image.height)
    do {
      return try image.cropped(
        x: pixels.x, y: pixels.y, width: pixels.width, height: pixels.height)
    } catch {
      throw PlayheadError(
        .invalidArgument,
        "the region \(region) of \(reference.imageURL.absoluteString) is not inside its "
          + "\(image.width)x\(image.height) pixels", url: reference.imageURL)
    }
  }

  /// On the queue: the cached image, or fetch, decode and cache it.
  private func cachedOrFetched(_ url: URL) throws(PlayheadError) -> RGBAImage {
    let cached = state.withLock { state -> RGBAImage? in
      if let image = state.cache.image(for: url) { return image }
      state.fetches += 1
      return nil
    }
    if let cached { return cached }
    let data = try load(url, limit: Self.maximumImageBytes, what: "image")
    let image: RGBAImage
    do {
      image = try ImageCodec.decode(data)
    } catch {
      var located = error
      located.message = "\(url.absoluteString): \(error.message)"
      located.url = url
      throw located
    }
    state.withLock { $0.cache.insert(image, for: url) }
    return image
  }

  /// Loads `url` whole, abandoning it past `limit` bytes (`.unsupportedFormat`).
  func load(_ url: URL, limit: Int, what: String) throws(PlayheadError) -> Data {
    let tooLarge = CancellationState()
    do {
      return try loader.load(DataRequest(url: url, purpose: .thumbnail)) { progress in
        if progress.bytesLoaded > limit || (progress.bytesExpected ?? 0) > limit {
          tooLarge.cancel()
          return false
        }
        return true
      }.data
    } catch {
      guard tooLarge.isCancelled else { throw error }
      throw PlayheadError(
        .unsupportedFormat,
        "the \(what) \(url.absoluteString) is larger than the limit of \(limit) bytes", url: url)
    }
  }

  /// Runs `work` on the queue and waits for it without blocking the concurrency pool.
  func run<T: Sendable>(_ work: @escaping @Sendable () throws(PlayheadError) -> T)
    async throws(PlayheadError) -> T
  {
    let state = CancellationState()
    let result: Result<T, PlayheadError> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        queue.async {
          if state.isCancelled || self.isCancelled {
            continuation.resume(
              returning: .failure(PlayheadError(.cancelled, "the thumbnail load was cancelled")))
            return
          }
          do throws(PlayheadError) {
            continuation.resume(returning: .success(try work()))
          } catch {
            continuation.resume(returning: .failure(error))
          }
        }
      }
    } onCancel: {
      state.cancel()
    }
    return try result.get()
  }

  private var isCancelled: Bool { state.withLock { $0.cancelled } }
}

/// Whether the task waiting for one request was cancelled.
private final class CancellationState: Sendable {
  private let value = Locked(false)

  var isCancelled: Bool { value.value }

  func cancel() {
    value.withLock { $0 = true }
  }
}
