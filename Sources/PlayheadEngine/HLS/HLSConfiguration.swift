import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// How a player loads HLS streams: buffer, rendition choice, content keys. (Requests are
/// the player's: `PlayerConfiguration.request` and `network`.)
public struct HLSConfiguration: Sendable {
  /// A fixed forward buffer, for configurations with neither a scene nor buffer settings:
  /// an HLS driver used without a player (the playback simulator) loads while less than
  /// this is downloaded ahead; a player given a value other than the default (30 s) makes
  /// it the high-water mark of its default load control, with the optimiser off (the
  /// startup and resume buffers stay the engine defaults, capped at it). With a scene or
  /// buffer settings, or `PlayerConfiguration.makeLoadControl`, it is not used.
  public var forwardBufferDuration: MediaTime
  /// The default `forwardBufferDuration` (30 s).
  public static let defaultForwardBufferDuration = MediaTime(value: 30, timescale: 1)
  /// A scene preset for buffering (short, medium, long, live); nil = none. A player
  /// applies it to every item, HLS or progressive (`PlayerConfiguration.scene`).
  public var scene: PlayerScene?
  /// Explicit buffer settings; they win over the scene's values. A player applies them to
  /// every item (`PlayerConfiguration.bufferSettings`).
  public var bufferSettings: BufferSettings?
  /// The bandwidth to assume before any transfer has been measured (bits/s).
  public var defaultBandwidthEstimate: Int
  /// The highest variant bandwidth to choose (bits/s; 0 = no cap).
  public var preferredPeakBitRate: Int
  /// The largest picture to choose, in pixels (nil = no cap).
  public var maximumPixelCount: Int?
  /// A variant chosen by hand (index into the master playlist's variants); nil = automatic.
  public var manualVariantIndex: Int?
  /// How long a variant URI that failed stays excluded before it may be tried again.
  public var exclusionDurationMs: Int
  /// Makes the bitrate controller for each stream; nil uses `DefaultABRController`
  /// with `startPreference`.
  public var makeABRController: (@Sendable () -> any ABRController)?
  /// How the start rendition is chosen (default bandwidth, resolution or quality label).
  public var startPreference: ABRStartPreference
  /// How often, in clock time, a segment download that receives nothing is offered to the
  /// bitrate controller's abandon rule (hls.js checks every 100 ms); nil offers it only as
  /// bytes arrive.
  public var stalledDownloadCheckIntervalMs: Int? = 100
  /// Supplies content keys before the engine loads key URIs itself (DRM plug-in point).
  public var contentKeyProvider: (any ContentKeyProvider)?
  /// The largest distance behind the live edge playback may fall before it jumps
  /// forward (nil = never catch up).
  public var maximumLiveLatency: MediaTime?
  /// The load control of the item a player loads with this configuration (set by the
  /// player for each item; nil elsewhere).
  /// Content keys by Common Encryption key ID (DASH and fMP4 CENC content), asked before
  /// the content-key provider and the licence server; `SampleKeys(hex:)` holds fixed
  /// ClearKey keys (`play --key KID:KEY`).
  public var sampleKeySource: (any SampleKeySource)?
  /// A W3C ClearKey licence server (EME JSON over POST, through the player's stack) for key
  /// IDs no other place answers; nil uses the MPD's ClearKey `Laurl` when it has one.
  public var clearKeyLicenseURL: URL?
  var itemLoadControl: ItemLoadControl?
  /// Where playlists come from when they are not M3U8s (a DASH manifest's translation);
  /// nil loads every playlist as an M3U8.
  var playlistSource: (any HLSPlaylistSource)?
  /// The logger of the player that loads with this configuration (set by the player for
  /// each item; nil elsewhere, where the driver logs as `playhead.hls`).
  var logger: Logger?

  public init(
    forwardBufferDuration: MediaTime = HLSConfiguration.defaultForwardBufferDuration,
    defaultBandwidthEstimate: Int = 1_000_000,
    preferredPeakBitRate: Int = 0,
    maximumPixelCount: Int? = nil,
    manualVariantIndex: Int? = nil,
    exclusionDurationMs: Int = 60_000,
    makeABRController: (@Sendable () -> any ABRController)? = nil,
    startPreference: ABRStartPreference = .automatic,
    scene: PlayerScene? = nil,
    bufferSettings: BufferSettings? = nil,
    contentKeyProvider: (any ContentKeyProvider)? = nil,
    maximumLiveLatency: MediaTime? = nil
  ) {
    self.forwardBufferDuration = forwardBufferDuration
    self.defaultBandwidthEstimate = defaultBandwidthEstimate
    self.preferredPeakBitRate = preferredPeakBitRate
    self.maximumPixelCount = maximumPixelCount
    self.manualVariantIndex = manualVariantIndex
    self.exclusionDurationMs = exclusionDurationMs
    self.makeABRController = makeABRController
    self.startPreference = startPreference
    self.scene = scene
    self.bufferSettings = bufferSettings
    self.contentKeyProvider = contentKeyProvider
    self.maximumLiveLatency = maximumLiveLatency
  }

  /// How long a failed URI stays excluded, as a clock duration (`exclusionDurationMs`, at
  /// least 0).
  var exclusionDuration: MediaTime { .fromMilliseconds(max(0, exclusionDurationMs)) }
}
