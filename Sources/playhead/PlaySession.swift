import Foundation
import Playhead

/// How a `play` run ended.
enum PlayOutcome: Sendable {
  /// The item played to its end.
  case ended
  /// The item reached its preview limit (`--preview`).
  case previewEnded
  /// The item could not be opened or stopped playing.
  case failed(PlayheadError)
  /// The user pressed Ctrl-C.
  case interrupted
  /// The user quit from the window (`q`, Escape, closing it) before the end.
  case quit

  /// `ended`, `failed` or `interrupted`.
  var name: String {
    switch self {
    case .ended: return "ended"
    case .previewEnded: return "previewEnded"
    case .failed: return "failed"
    case .interrupted: return "interrupted"
    case .quit: return "quit"
    }
  }
}

/// The figures of the summary that ends `play`.
struct PlaySummary: Sendable {
  /// How playback ended (`ended`, `failed`, `interrupted`).
  var outcome: String
  var statistics: PlaybackStatistics
  /// The item's duration (not numeric when unknown).
  var duration: MediaTime
  /// Media time played, summed over the item's access log.
  var played: MediaTime
  /// The average bit rate played (bits/s): time-weighted over the renditions of a stream,
  /// the declared bit rate of progressive media; nil when unknown.
  var averageBitRate: Double?
  /// Whether the item is a stream with renditions (the summary then names them).
  var hasVariants = false

  /// The human-readable summary lines.
  func lines(videoDisabled: Bool, audioDisabled: Bool) -> [String] {
    let ttff =
      statistics.timeToFirstFrame.isNumeric
      ? String(format: "%.0f ms", statistics.timeToFirstFrame.seconds * 1000) : "-"
    let video =
      videoDisabled
      ? "disabled"
      : "\(statistics.framesDecoded) frames decoded, \(statistics.framesRendered) shown, "
        + "\(statistics.framesDropped) dropped"
    let audio =
      audioDisabled
      ? "disabled"
      : "\(statistics.audioSamplesDecoded) samples decoded, "
        + "\(statistics.audioSamplesPlayed) played"
    return [
      "summary",
      "  played               \(TimeText.clock(played)) of \(TimeText.clock(duration))",
      "  time to first frame  \(ttff)",
      "  video                \(video)",
      "  audio                \(audio)",
      "  stalls               \(statistics.stallCount) (\(TimeText.seconds(statistics.totalStallTime)))",
      "  bytes read           \(statistics.bytesRead)",
    ] + streamLines
  }

  /// The lines about renditions and bit rate, when there is something to say.
  private var streamLines: [String] {
    var lines: [String] = []
    if let averageBitRate {
      lines.append("  average bit rate     \(VariantText.bitRate(averageBitRate))")
    }
    if hasVariants {
      lines.append("  rendition switches   \(statistics.variantSwitchCount)")
    }
    return lines
  }

  /// The declared bit rate of progressive media: the access log's indicated bit rates,
  /// weighted by the media time of each entry; nil when none is known.
  static func indicatedBitRate(_ log: [AccessLogEntry]) -> Double? {
    var weighted = 0.0
    var seconds = 0.0
    for entry in log where entry.indicatedBitrate > 0 && entry.durationWatched.isNumeric {
      weighted += entry.indicatedBitrate * entry.durationWatched.seconds
      seconds += entry.durationWatched.seconds
    }
    if seconds > 0 { return weighted / seconds }
    return log.last(where: { $0.indicatedBitrate > 0 })?.indicatedBitrate
  }
}

/// Follows one `play` run: prints events, lifecycle and progress, and wakes the main
/// thread when the item ends or fails, or on Ctrl-C.
///
/// Observers run on the session's own serial queue, so the main thread can block in
/// `waitForOutcome()` without starving them.
final class PlaySession: Sendable {
  // The mutable state, in `state`, is touched only on `queue`; the main thread reads it
  // through `queue.sync` after `done` has been signalled.
  let queue = DispatchQueue(label: "playhead.cli.play")
  private weak let player: Player?
  private let item: PlayerItem
  private let output: OutputOptions
  private let console: Console
  /// `--rendition INDEX`, checked against the stream once it is ready.
  private let renditionIndex: Int?
  /// `--audio LANG`, checked (and selected, when needed) once the item is ready.
  private let audio: AudioChoice?
  /// The player's clock when the session began: event times count from it.
  let clockOrigin: MediaTime
  /// Records every event, with `--record`.
  private let recorder: SessionRecorder?
  private let done = DispatchSemaphore(value: 0)
  private let state: Locked<State>

  private struct State: Sendable {
    /// Called once the `--audio` track plays (playback may start).
    var audioSettled: (@Sendable () -> Void)?
    /// The rendition `--audio` selected at ready, until the engine reports the switch.
    var pendingAudio: RenditionInfo?
    var bitRates = BitrateAverager()
    var outcome: PlayOutcome?
    /// With `--keep-open`: how the item ended, reported when the window is closed.
    var endedWhileKeptOpen: PlayOutcome?
    var becameReady = false
    var isStalled = false
    var lastLifecycle: String?
    /// The time-control status as of the last event handled, so that a progress tick
    /// shows the status at its own time (the player may have moved on by the time it
    /// runs).
    var timeControl: TimeControlStatus = .paused
  }

  /// With `--keep-open`, the end of the item leaves the window up until `quit()`.
  private let keepsOpen: Bool

  /// `audioSettled` runs on the session's queue once the `audio` track plays.
  init(
    player: Player, item: PlayerItem, output: OutputOptions, console: Console,
    renditionIndex: Int? = nil, audio: AudioChoice? = nil, keepsOpen: Bool = false,
    recorder: SessionRecorder? = nil, audioSettled: (@Sendable () -> Void)? = nil
  ) {
    self.keepsOpen = keepsOpen
    self.recorder = recorder
    self.player = player
    self.item = item
    self.output = output
    self.console = console
    self.renditionIndex = renditionIndex
    self.audio = audio
    self.state = Locked(State(audioSettled: audioSettled))
    self.clockOrigin = player.clock.now
  }

  /// Whether the progress line is shown (not with `--json` or `--quiet`).
  private var showsProgress: Bool { !output.json && !output.quiet }

  /// Whether the run has its outcome.
  private var isFinished: Bool { state.withLock { $0.outcome != nil } }

  /// Prints "loading", adds the observers and catches Ctrl-C; call before the item is set.
  func begin() {
    guard let player else { return }
    if !output.json && !output.quiet {
      console.line("loading \(EventText.display(item.asset.url))")
    }
    player.addEventObserver(queue: queue) { [self] event in handle(event) }
    if showsProgress {
      // About ten updates a second in place on a terminal; a plain line a second otherwise.
      let interval =
        console.isErrorTerminal
        ? MediaTime(value: 1, timescale: 10) : MediaTime(value: 1, timescale: 1)
      player.addPeriodicTimeObserver(forInterval: interval, queue: queue) { [self] time in
        showProgress(at: time)
      }
    }
    // The player closes and the summary prints within the grace period (then the tool
    // exits with 130 anyway); a second Ctrl-C ends the process at once.
    Interrupt.setHandler { [self] in
      queue.async { [self] in
        guard !isFinished else { return }
        if !output.json && !output.quiet { console.line("interrupted") }
        finish(.interrupted)
      }
    }
  }

  /// Blocks until the item ends or fails, or Ctrl-C.
  func waitForOutcome() -> PlayOutcome {
    done.wait()
    return queue.sync { state.withLock { $0.outcome } ?? .interrupted }
  }

  /// Prints the summary and the error, if any; returns the exit status. Call after the
  /// player has been closed.
  func end(_ outcome: PlayOutcome) -> ExitCode {
    console.clearProgress()
    let (becameReady, streamBitRate) = queue.sync {
      state.withLock { ($0.becameReady, $0.bitRates.averageBitsPerSecond) }
    }
    let log = item.accessLog()
    let hasVariants = !item.variants.isEmpty
    let summary = PlaySummary(
      outcome: outcome.name, statistics: item.statistics, duration: item.duration,
      played: log.reduce(MediaTime.zero) { $0 + $1.durationWatched },
      averageBitRate: hasVariants ? streamBitRate : PlaySummary.indicatedBitRate(log),
      hasVariants: hasVariants)
    if output.json {
      console.line(JSONLines.summary(summary))
    } else if !output.quiet && becameReady {
      let configuration = player?.configuration
      let lines = summary.lines(
        videoDisabled: configuration?.isVideoDisabled ?? false,
        audioDisabled: configuration?.isAudioDisabled ?? false)
      for line in lines { console.line(line) }
    }
    switch outcome {
    case .ended, .previewEnded, .quit:
      return .success
    case .failed(let error):
      console.error(error.message)
      return ExitCode(error)
    case .interrupted:
      return .interrupted
    }
  }

  /// Prints `event` as asked and notes the end of playback. Runs on `queue`.
  private func handle(_ event: PlayerEvent) {
    guard !isFinished else { return }
    state.withLock { $0.bitRates.record(event) }
    recorder?.recordEvent(JSONLines.eventValue(event, clockOrigin: clockOrigin))
    if output.json {
      console.line(JSONLines.event(event, clockOrigin: clockOrigin))
    } else {
      if output.events { console.line(EventText.line(event)) }
      // A brief wait for the decoder (fast mode) does not end "playing": print a step
      // only when it differs from the last one.
      if !output.quiet, let line = EventText.lifecycle(event) {
        let isNew = state.withLock { state in
          guard line != state.lastLifecycle else { return false }
          state.lastLifecycle = line
          return true
        }
        if isNew { console.line(line) }
      }
    }
    switch event.kind {
    case .itemStatusChanged(_, .readyToPlay):
      state.withLock { $0.becameReady = true }
      checkRendition()
      chooseAudio()
    case .audioRenditionChanged(_, let rendition):
      let settled: RenditionInfo? = state.withLock { state in
        guard let pending = state.pendingAudio, rendition == pending else { return nil }
        state.pendingAudio = nil
        return pending
      }
      if let settled { settleAudio(AudioChoice.describe(settled)) }
    case .itemStatusChanged(_, .failed(let error)), .failedToPlayToEnd(_, let error):
      finish(.failed(error))
    case .didPlayToEnd:
      endOrKeepOpen(.ended)
    case .previewEnded:
      endOrKeepOpen(.previewEnded)
    case .playbackStalled:
      state.withLock { $0.isStalled = true }
      redrawProgress()
    case .playbackRecovered:
      state.withLock { $0.isStalled = false }
    case .timeControlStatusChanged(let status):
      state.withLock { $0.timeControl = status }
      redrawProgress()
    default:
      break
    }
  }

  /// Ends the run with a usage error when `--rendition` names no rendition of the stream.
  /// Runs on `queue`.
  private func checkRendition() {
    guard let renditionIndex else { return }
    let count = item.variants.count
    guard renditionIndex >= count else { return }
    let message =
      count == 0
      ? "option '--rendition' needs an HLS stream; \(EventText.display(item.asset.url)) has "
        + "no renditions"
      : "option '--rendition' asks for rendition \(renditionIndex), but the stream has \(count) "
        + "(0 to \(count - 1), lowest bandwidth first)"
    finish(.failed(PlayheadError(.invalidArgument, message, url: item.asset.url)))
  }

  /// Applies `--audio` to the ready item: reports the track in the language, selects it
  /// first when another one plays, or ends the run with a usage error when there is none.
  /// Runs on `queue`.
  private func chooseAudio() {
    guard let audio, !isFinished else { return }
    switch audio.decide(for: item) {
    case .playing(let description):
      settleAudio(description)
    case .select(let rendition):
      state.withLock { $0.pendingAudio = rendition }
      if !item.selectAudioRendition(rendition) {
        finish(
          .failed(
            PlayheadError(
              .invalidState,
              "option '--audio': the audio track \(rendition.name) cannot be selected",
              url: item.asset.url)))
      }
    case .missing(let message):
      finish(.failed(PlayheadError(.invalidArgument, message, url: item.asset.url)))
    }
  }

  /// The `--audio` track plays: prints `audio: NAME [LANGUAGE]` (text output, unless
  /// `--quiet` or `--events`) and lets playback start. Runs on `queue`.
  private func settleAudio(_ description: String) {
    if !output.json && !output.quiet && !output.events {
      console.line("audio: \(description)")
    }
    let settled = state.withLock { state in
      defer { state.audioSettled = nil }
      return state.audioSettled
    }
    settled?()
  }

  /// Shows the progress line for `time`. Runs on `queue`.
  private func showProgress(at time: MediaTime) {
    guard !isFinished else { return }
    let (timeControl, isStalled) = state.withLock { ($0.timeControl, $0.isStalled) }
    let hasVariants = !item.variants.isEmpty
    let line = ProgressLine(
      time: time, duration: item.duration, status: timeControl,
      isStalled: isStalled, loadedTimeRanges: item.loadedTimeRanges,
      variant: hasVariants ? item.currentVariant : nil,
      bandwidthEstimate: hasVariants ? item.bandwidthEstimate : nil)
    console.progress(line.text)
  }

  /// Redraws the progress line in place after a state change (terminals only).
  private func redrawProgress() {
    guard showsProgress, console.isErrorTerminal, state.withLock({ $0.becameReady }) else {
      return
    }
    showProgress(at: item.currentTime())
  }

  /// Ends the run with the window's quit (`q`, Escape, closing it): with the outcome of
  /// the item when it had ended under `--keep-open`, else `quit`.
  func quit() {
    queue.async { [self] in
      guard !isFinished else { return }
      let ended = state.withLock { $0.endedWhileKeptOpen }
      if ended == nil && !output.json && !output.quiet { console.line("quit") }
      finish(ended ?? .quit)
    }
  }

  /// Finishes with `outcome`, or with `--keep-open` keeps the last frame up until `quit()`.
  private func endOrKeepOpen(_ outcome: PlayOutcome) {
    guard keepsOpen else { return finish(outcome) }
    state.withLock { $0.endedWhileKeptOpen = outcome }
  }

  /// Records the first outcome and wakes `waitForOutcome()`.
  private func finish(_ result: PlayOutcome) {
    let first = state.withLock { state in
      guard state.outcome == nil else { return false }
      state.outcome = result
      return true
    }
    if first { done.signal() }
  }
}
