import Foundation
import PlayheadCore

/// What a preload fetches of a source: how much media, and for multi-bitrate HLS which
/// rendition (the seed's `AVPPreloadConfig`).
///
/// Only one rendition preference applies, so it is one value: `startPreference` (the
/// seed's exclusive `setDefaultBandWidth`, `setDefaultResolution` and `setDefaultQuality`
/// set it). The rendition is chosen exactly as a player's start-level selection chooses
/// it with the same preference, so a later play with the same setting starts on the
/// preloaded segments. Single-bitrate streams and progressive files ignore it.
public struct PreloadConfig: Sendable, Equatable {
  /// How much media to fetch from the start, in milliseconds (at least 0; 0 fetches only
  /// the playlists, initialisation sections, keys, or a file's header).
  public var durationMs: Int
  /// Which rendition of a multi-bitrate HLS stream to preload; `.automatic` (the default)
  /// uses the loader's `HLSConfiguration.startPreference`, as a player would.
  public var startPreference: ABRStartPreference
  /// The audio languages a player would prefer, most wanted first; they choose the HLS
  /// alternate audio rendition preloaded with the video (the group's default when none
  /// matches), as a player item with the same `preferredAudioLanguages` would.
  public var preferredAudioLanguages: [String]

  /// Creates a configuration; the default preloads one second at the automatic rendition.
  public init(
    durationMs: Int = 1000, startPreference: ABRStartPreference = .automatic,
    preferredAudioLanguages: [String] = []
  ) {
    self.durationMs = durationMs
    self.startPreference = startPreference
    self.preferredAudioLanguages = preferredAudioLanguages
  }

  /// The seed's `setDefaultBandWidth`: preload the highest rendition of at most this many
  /// bits per second (replaces any resolution or quality preference).
  public mutating func setDefaultBandwidth(_ bitsPerSecond: Int) {
    startPreference = .bandwidth(bitsPerSecond)
  }

  /// The seed's `setDefaultResolution`: preload the highest-bitrate rendition of at most
  /// this many pixels, e.g. `640 * 480` (replaces any bandwidth or quality preference).
  public mutating func setDefaultResolution(pixelCount: Int) {
    startPreference = .resolution(pixelCount: pixelCount)
  }

  /// The seed's `setDefaultQuality`: preload the rendition of a quality label such as
  /// `"FD"` or `"720p"` (replaces any bandwidth or resolution preference).
  public mutating func setDefaultQuality(_ label: String) {
    startPreference = .quality(label)
  }

  /// The duration as a media time.
  var duration: MediaTime { MediaTime(milliseconds: Int64(max(0, durationMs))) }
}

/// One preload: a source URL and what to fetch of it (the seed's `AVPPreloadTask`).
///
/// The URL may be an HLS playlist (`.m3u8`/`.m3u`, master or media) or a progressive
/// file over `http`/`https`. Local files need no preloading and fail with
/// `.invalidArgument`.
public struct PreloadTask: Sendable, Equatable {
  /// The source to preload.
  public var url: URL
  /// What to fetch of it.
  public var config: PreloadConfig

  /// Creates a task for `url`.
  public init(url: URL, config: PreloadConfig = PreloadConfig()) {
    self.url = url
    self.config = config
  }

  /// Whether the URL names an HLS playlist; other URLs have their content sniffed when the
  /// preload opens them (see `ProgressivePreload`).
  var isHLS: Bool { ["m3u8", "m3u"].contains(url.pathExtension.lowercased()) }

  /// Whether the URL names a DASH manifest (preloaded through its translation).
  var isDASH: Bool { url.pathExtension.lowercased() == "mpd" }
}

/// What a finished preload fetched.
public struct PreloadReport: Sendable, Equatable {
  /// The source preloaded.
  public var url: URL
  /// The HLS rendition preloaded (nil for a media playlist or a progressive file).
  public var variant: VariantInfo?
  /// The alternate audio rendition preloaded with it, if the variant has one with a
  /// playlist of its own.
  public var audioRendition: RenditionInfo?
  /// How much media from the start is now cached (at least the duration asked for,
  /// unless the media is shorter).
  public var cachedDuration: MediaTime
  /// The resources the preload went through (playlists, initialisation sections, keys,
  /// segments; for a progressive file, the file once), in order.
  public var resources: [URL]
  /// Bytes that came from the network during the preload.
  public var bytesFromNetwork: Int64
  /// Bytes that were already in the cache.
  public var bytesFromCache: Int64
}

/// Where a preload task stands.
public enum PreloadTaskState: Sendable, Equatable {
  /// Added, waiting for a free slot.
  case waiting
  /// Fetching.
  case running
  /// Paused by `pauseTask`: it makes no request until resumed.
  case paused
  /// Finished; the report says what it fetched.
  case completed(PreloadReport)
  /// Failed with this error.
  case failed(PlayheadError)
  /// Cancelled by `cancelTask` (or `cancelAll`).
  case canceled

  /// Whether the task is over (completed, failed or cancelled).
  public var isFinished: Bool {
    switch self {
    case .completed, .failed, .canceled: return true
    case .waiting, .running, .paused: return false
    }
  }
}

/// Told how each preload task ends (the seed's `OnPreloadListener`); exactly one of the
/// three methods runs per task, once.
///
/// Calls arrive on the loader's callback queue (serial, one per loader), never on the
/// thread that added the task, in the order the tasks ended.
public protocol PreloadListener: AnyObject, Sendable {
  /// The task fetched everything it was asked for.
  func preloadDidComplete(taskID: String, url: URL, report: PreloadReport)
  /// The task failed (the network, a bad playlist, no cache, …); nothing is retried.
  func preloadDidFail(taskID: String, url: URL, error: PlayheadError)
  /// The task was cancelled before it finished.
  func preloadWasCanceled(taskID: String, url: URL)
}
