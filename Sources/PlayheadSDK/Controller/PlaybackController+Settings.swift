import Foundation
import PlayheadCore
import PlayheadEngine

extension PlaybackController {
  /// The playback rate of the current and every later session (default 1).
  ///
  /// A value ≤ 0 (or not finite) becomes 1.0. A rate the item cannot play (faster than 1 on
  /// a live stream without DVR, or before the item is ready to say) plays at 1.0 while the
  /// requested value stays stored and is tried again on each new session. With a rate ≠ 1,
  /// audio keeps its pitch (time-domain stretching) unless `audioTimePitchAlgorithm` is
  /// `.varispeed`.
  public var playbackRate: Float {
    get { readSettings { $0.playbackRate } }
    set {
      let rate = newValue.isFinite && newValue > 0 ? newValue : 1
      writeSettings { $0.playbackRate = rate }
      queue.async { [self] in
        if let current { applyRate(to: current) }
      }
    }
  }

  /// How audio is sped up or slowed down when `playbackRate` ≠ 1 (default `.timeDomain`).
  public var audioTimePitchAlgorithm: AudioTimePitchAlgorithm {
    get { readSettings { $0.audioTimePitchAlgorithm } }
    set {
      writeSettings { $0.audioTimePitchAlgorithm = newValue }
      queue.async { [self] in
        if let current { applyRate(to: current) }
      }
    }
  }

  /// Whether the sound of the current and every later session is muted, ads included
  /// (default false). Changing it while an ad plays sends the ad's `mute` or `unmute`
  /// tracking.
  public var isMuted: Bool {
    get { readSettings { $0.isMuted } }
    set {
      let changed = writeSettingsReturning { settings -> Bool in
        defer { settings.isMuted = newValue }
        return settings.isMuted != newValue
      }
      queue.async { [self] in
        guard let current else { return }
        applyMute(to: current)
        if changed { adsMuteChanged(current, muted: newValue) }
      }
    }
  }

  /// Applies the stored mute to `runtime`'s players (content, bumper, ad). Call on the queue.
  func applyMute(to runtime: SessionRuntime) {
    let muted = readSettings { $0.isMuted }
    runtime.player?.isMuted = muted
    runtime.bumper?.session.player?.isMuted = muted
    runtime.ads?.active?.ad?.player.isMuted = muted
  }

  /// The rate the current session actually plays at (1 when the stored rate is not playable).
  public var effectivePlaybackRate: Float {
    queue.sync { current?.appliedRate ?? 1 }
  }

  /// Applies the stored rate to `runtime`'s player, falling back to 1.0. Call on the queue.
  func applyRate(to runtime: SessionRuntime) {
    guard let player = runtime.player, let item = player.currentItem, runtime.isReady else {
      return
    }
    let (requested, pitch) = readSettings { ($0.playbackRate, $0.audioTimePitchAlgorithm) }
    let playable: Bool
    if requested > 1 {
      playable = item.canPlayFastForward && item.streamKind != .live
    } else if requested < 1 {
      playable = item.canPlaySlowForward
    } else {
      playable = true
    }
    let rate: Float = playable ? requested : 1
    if !playable {
      manager.log("playback rate \(requested) is not supported by this item; playing at 1.0")
    }
    item.audioTimePitchAlgorithm = pitch
    runtime.appliedRate = rate
    player.defaultRate = rate
    if player.rate > 0 { player.rate = rate }
  }

  /// Caps the rendition bit rate (bits/s; 0 = no cap) of the current and every later session.
  public func setPreferredPeakBitRate(_ bitsPerSecond: Double) {
    let value = bitsPerSecond.isFinite ? max(0, bitsPerSecond) : 0
    writeSettings { $0.preferredPeakBitRate = value }
    queue.async { [self] in
      current?.player?.currentItem?.preferredPeakBitRate = value
      prepared?.player?.currentItem?.preferredPeakBitRate = value
    }
  }

  /// The cap last given to `setPreferredPeakBitRate` (0 = none).
  public var preferredPeakBitRate: Double { readSettings { $0.preferredPeakBitRate } }

  /// Plays only the first `previewDuration` of every content session, the current one
  /// included (seed 003's `setPreviewTime`): a session that reaches it sends the
  /// `previewEnded` lifecycle event instead of `end` (no "after" cue points fire) and the
  /// controller moves on as after an end; seeks past it go to it. `.invalid` (the default)
  /// plays whole videos; bumpers are never limited.
  public var previewDuration: MediaTime {
    get { readSettings { $0.previewDuration } }
    set {
      writeSettings { $0.previewDuration = newValue }
      queue.async { [self] in
        current?.player?.currentItem?.previewDuration = newValue
        prepared?.player?.currentItem?.previewDuration = newValue
      }
    }
  }

  /// Whether audio may play while the application is in the background (default false).
  /// Linux has no background state: the flag is stored for the application.
  public var allowsBackgroundAudioPlayback: Bool {
    get { readSettings { $0.allowsBackgroundAudioPlayback } }
    set { writeSettings { $0.allowsBackgroundAudioPlayback = newValue } }
  }

  /// Whether external playback (AirPlay) is allowed. Linux has none: stored only.
  public var allowsExternalPlayback: Bool {
    get { readSettings { $0.allowsExternalPlayback } }
    set { writeSettings { $0.allowsExternalPlayback = newValue } }
  }

  /// Whether external playback is used while an external screen is active; no effect when
  /// `allowsExternalPlayback` is false. Stored only on Linux.
  public var usesExternalPlaybackWhileExternalScreenIsActive: Bool {
    get { readSettings { $0.usesExternalPlaybackWhileExternalScreenIsActive } }
    set { writeSettings { $0.usesExternalPlaybackWhileExternalScreenIsActive = newValue } }
  }

  /// Set true when picture-in-picture becomes active and false when it ends (default
  /// false). Stored only on Linux.
  public var isPictureInPictureActive: Bool {
    get { readSettings { $0.isPictureInPictureActive } }
    set { writeSettings { $0.isPictureInPictureActive = newValue } }
  }

  /// Whether thumbnail seeking is on (default true).
  public var thumbnailSeekingEnabled: Bool {
    get { readSettings { $0.thumbnailSeekingEnabled } }
    set { writeSettings { $0.thumbnailSeekingEnabled = newValue } }
  }

  /// Whether the shutter hides the video (see `PlaybackView.shutter`).
  public var shutter: Bool {
    get { view.shutter }
    set { view.shutter = newValue }
  }

  /// The shutter's transition time in seconds (default 0).
  public var shutterFadeTime: Double {
    get { view.shutterFadeTime }
    set { view.shutterFadeTime = newValue }
  }

  /// The 360° virtual camera (pan 0, tilt 0, zoom 1, roll 0 by default); copy, change and
  /// assign back.
  public var viewProjection: ViewProjection {
    get { readSettings { $0.viewProjection } }
    set { writeSettings { $0.viewProjection = newValue } }
  }

  /// Disables ad playback while true (seed 002): no break starts, so a forward seek lands
  /// without playing the mid-rolls it jumps over, and playback crosses them without
  /// stopping. The seed's use: set it, seek to a saved time, clear it in the seek's
  /// completion. Default false; no effect without an ads plug-in.
  public var adsDisabled: Bool {
    get { readSettings { $0.adsDisabled } }
    set {
      writeSettings { $0.adsDisabled = newValue }
      queue.async { [self] in
        if let runtime = current { updatePausePoints(runtime) }
      }
    }
  }

  /// Pauses the ad on screen (`adPaused`, the `pause` beacon); no effect when no ad plays.
  public func pauseAd() {
    queue.async { [self] in
      if let runtime = current { pauseActiveAd(runtime) }
    }
  }

  /// Resumes a paused ad (`adResumed`, the `resume` beacon); no effect when no ad is paused.
  public func resumeAd() {
    queue.async { [self] in
      if let runtime = current { resumeActiveAd(runtime) }
    }
  }

  /// Whether the stream-concurrency service is asked before playing (default false).
  public var streamConcurrencyEnabled: Bool {
    get { readSettings { $0.streamConcurrencyEnabled } }
    set { writeSettings { $0.streamConcurrencyEnabled = newValue } }
  }

  /// The audience-segment targeting values passed to ad requests.
  public var audienceSegmentTargetingValues: [String: JSONValue] {
    readSettings { $0.audienceSegmentTargetingValues }
  }

  /// Replaces the audience-segment targeting values passed to ad requests.
  public func updateAudienceSegmentTargetingValues(_ values: [String: JSONValue]) {
    writeSettings { $0.audienceSegmentTargetingValues = values }
  }

  /// Stores a FairPlay application certificate under `identifier` in the engine's
  /// certificate registry (nil removes it). FairPlay does not exist on Linux: the registry
  /// serves content-key plug-ins.
  public func addFairPlayApplicationCertificate(_ certificate: Data?, identifier: String) {
    if let certificate {
      ApplicationCertificateRegistry.shared.add(certificate, identifier: identifier)
    } else {
      ApplicationCertificateRegistry.shared.remove(identifier: identifier)
    }
  }

  /// A bumper played before every video's content (nil = none). A video's `bumper_id`
  /// custom field, resolved by `bumperLookup`, wins over it. Applies to sessions made later.
  public var bumperVideo: Video? {
    get { readSettings { $0.bumperVideo } }
    set { writeSettings { $0.bumperVideo = newValue } }
  }

  /// Resolves a `bumper_id` custom field to a video (the catalog client sets it); nil
  /// ignores the field.
  public var bumperLookup: (@Sendable (String) -> Video?)? {
    get { readSettings { $0.bumperLookup } }
    set { writeSettings { $0.bumperLookup = newValue } }
  }
}
