import Foundation
import PlayheadCore

/// Playhead's ABR controller: a throughput rule while the buffer is low, a buffer rule
/// once it is healthy, a guard that keeps one download from draining the buffer, and
/// abandonment of a download that would empty it.
///
/// Deterministic and free of I/O: the same calls give the same answers. Thread-safe; the
/// small per-item state sits in a `Locked`. See `docs/abr.md` for the rules and the
/// benchmark.
///
/// ```swift
/// let abr = DefaultABRController(configuration: .init(startPreference: .quality("HD")))
/// let first = abr.selectInitialLevel(levels: ladder, context: context)
/// ```
public final class DefaultABRController: ABRController, Sendable {
  /// The configuration, with every number clamped into range.
  public let configuration: Configuration
  /// What the controller remembers.
  let state = Locked(State())

  /// What the controller remembers: the last choice of the current item, and the
  /// network across items.
  struct State: Sendable {
    /// The `BitrateLevel.index` of the last choice.
    var lastIndex: Int?
    /// The lowest eligible bitrate of the last decision, in bits per second.
    var lowestBitrate: Double?
    /// Decayed bits of the engine's downloads, for the long-term throughput.
    var transferredBits = 0.0
    /// Decayed seconds of those downloads (request to last byte).
    var transferSeconds = 0.0
    /// Decayed download seconds whose throughput was below `lowestBitrate`.
    var outageSeconds = 0.0
    /// Decayed download seconds judged against `lowestBitrate`.
    var judgedSeconds = 0.0
    /// The lowest bitrate the current item left for a lower level (bits per second); a
    /// level at or above it needs the recovery margin.
    var leftBitrate: Double?
    /// Downloads in a row that took longer than their segment plays (or were abandoned).
    var slowStreak = 0
    /// Progress samples of the download being judged for abandonment: (seconds since its
    /// request, bytes loaded), the last `recentSpeedWindowSeconds` or so.
    var progress: [(elapsed: Double, bytes: Int64)] = []
    /// The level of the download the samples belong to.
    var progressLevel: Int?
    /// When (seconds since its request) the download being judged first met the
    /// abandonment condition without a break since; nil while it does not.
    var abandonDueSince: Double?
  }

  /// Creates a controller.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration.clamped
  }

  public func selectInitialLevel(levels: [BitrateLevel], context: ABRContext) -> Int {
    state.withLock { state in
      state.lastIndex = nil
      state.leftBitrate = nil
      guard !levels.isEmpty else { return -1 }
      if let manual = context.constraints.manualSelection(in: levels) { return manual.index }
      let ladder = ABRLadder(levels: context.constraints.eligibleLevels(levels))
      state.lowestBitrate = ladder.bitrates.first
      let chosen = ladder.levels[initialPosition(in: ladder, context: context)].index
      state.lastIndex = chosen
      return chosen
    }
  }

  public func selectLevel(levels: [BitrateLevel], context: ABRContext) -> ABRDecision {
    state.withLock { state in
      guard !levels.isEmpty else { return ABRDecision(level: -1, reason: .noLevels) }
      if let manual = context.constraints.manualSelection(in: levels) {
        return ABRDecision(level: manual.index, reason: .manual)
      }
      let ladder = ABRLadder(levels: context.constraints.eligibleLevels(levels))
      let decision = decide(in: ladder, context: context, allLevels: levels, state: &state)
      state.lastIndex = decision.level
      return decision
    }
  }

  public func shouldAbandon(
    levels: [BitrateLevel], download: InProgressDownload, context: ABRContext
  ) -> Int? {
    state.withLock { state in
      guard configuration.abandonsDownloads,
        context.constraints.manualSelection(in: levels) == nil,
        let downloading = levels.first(where: { $0.index == download.level })
      else { return nil }
      let ladder = ABRLadder(levels: context.constraints.eligibleLevels(levels))
      let recent = recentSpeed(of: download, state: &state)
      guard
        let target = abandonTarget(
          in: ladder, download: download, downloading: downloading, context: context,
          recentSpeed: recent)
      else {
        state.abandonDueSince = nil
        return nil
      }
      // The condition must hold for `abandonConfirmSeconds` while playing: right after a
      // link falls, the transfer recovering from its losses is slower than the link it
      // settles at. Starting, seeking or stalled, there is no buffer to ride.
      let elapsed = download.elapsed.finiteSeconds
      let since = state.abandonDueSince ?? elapsed
      state.abandonDueSince = since
      let confirm = context.phase == .playing ? configuration.abandonConfirmSeconds : 0
      // A microsecond of slack, so that checks exactly the confirmation time apart count.
      guard elapsed - since >= confirm - 1e-6 else { return nil }
      state.abandonDueSince = nil
      state.progress.removeAll()
      state.lastIndex = target
      if let position = ladder.position(ofIndex: target), position + 1 < ladder.count {
        state.leftBitrate = min(state.leftBitrate ?? .infinity, ladder.bitrates[position + 1])
      }
      return target
    }
  }

  public func didCompleteDownload(_ download: CompletedDownload) {
    state.withLock { noteDownload(download, state: &$0) }
  }

  public func reset() {
    state.withLock { $0 = State() }
  }
}
