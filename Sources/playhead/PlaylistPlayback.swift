import Foundation
import Playhead

/// `playhead play --playlist FILE.json`: plays an SDK playlist through the playback
/// controller, printing its sessions, lifecycle events, cue points and QoE summaries.
struct PlaylistPlayback {
  /// The playlist file as typed.
  var path: String
  var autoAdvance: Bool
  var autoPlay: Bool

  func run(_ command: PlayCommand, console: Console) throws(PlayheadError) -> ExitCode {
    let videos: [PlayheadSDK.Video]
    do {
      videos = try loadVideos()
    } catch let error as PlaylistFileError {
      console.error(error.message)
      return error.exitCode
    } catch {
      console.error("cannot read playlist \(path): \(PlayheadError.reason(for: error))")
      return .source
    }
    return try Self.play(
      videos, autoAdvance: autoAdvance, autoPlay: autoPlay, command: command, console: console,
      ads: command.adOptions.configuration())
  }

  /// Plays `videos` through a playback controller set up by `configure` (bumpers), printing
  /// the analytics lines; shared with `play catalog:ACCOUNT/VIDEO_ID` and `play --ad-tag`.
  ///
  /// With `ads`, the ads plug-in stacks on the subtitles one; `startSeconds` starts the
  /// first video there as `seekWithoutAds` does (no break before it plays).
  static func play(
    _ videos: [PlayheadSDK.Video], autoAdvance: Bool, autoPlay: Bool, command: PlayCommand,
    console: Console, ads: AdsConfiguration? = nil, startSeconds: Double? = nil,
    configure: (PlaybackController) -> Void = { _ in }
  ) throws(PlayheadError) -> ExitCode {
    var configuration = try command.makeConfiguration()
    let screen = try command.openPlaylistScreen(console: console)
    if configuration.audioSink == nil, let device = screen?.audioDevice {
      configuration.audioSink = device
    }
    let queue = DispatchQueue(label: "playhead.cli.playlist")
    let subtitles = command.tracks.subtitles.map {
      SubtitleLines(language: $0, output: command.output, console: console)
    }
    var provider: (any PlaybackSessionProvider)? = subtitles.map {
      PlayerSDKManager.shared.createSidecarSubtitlesSessionProvider(
        configuration: SubtitleLines.configuration(language: $0.language))
    }
    if let ads {
      var ads = ads
      if ads.clickThroughHandler == nil { ads.clickThroughHandler = ClickThrough.open }
      provider = PlayerSDKManager.shared.createAdsSessionProvider(
        upstream: provider, configuration: ads)
    }
    let controller = PlayerSDKManager.shared.createPlaybackController(
      sessionProvider: provider, viewStrategy: nil, playerConfiguration: configuration,
      callbackQueue: queue)
    PlayerSDKManager.shared.logHandler = { line in
      if !command.output.json { console.errorLine(line) }
    }
    controller.autoAdvance = autoAdvance
    // With --subtitles the monitor plays each session once its subtitle track is loaded.
    controller.autoPlay = autoPlay && subtitles == nil
    if let rate = command.playback.rate { controller.playbackRate = rate }
    if let preview = command.playback.previewSeconds {
      controller.previewDuration = MediaTime(commandLineSeconds: preview)
    }
    configure(controller)
    let printer = JSONLinesAnalyticsConsumer(
      format: command.output.json ? .json : .text
    ) { line in
      guard Self.shouldPrint(line, output: command.output) else { return }
      console.line(line)
    }
    let monitor = PlaylistMonitor(
      controller: controller, autoAdvance: autoAdvance, autoPlay: autoPlay,
      waitsForSubtitles: subtitles != nil, queue: queue)
    if !command.output.quiet || command.output.events { controller.addSessionConsumer(printer) }
    if let subtitles { controller.addSessionConsumer(SessionSubtitles(lines: subtitles)) }
    controller.addSessionConsumer(monitor)
    if let startSeconds {
      controller.adsDisabled = true
      controller.addSessionConsumer(
        StartWithoutAds(controller: controller, start: MediaTime(commandLineSeconds: startSeconds)))
    }
    let view = screen?.show(controller, monitor: monitor, console: console)
    monitor.startInterruptHandling {
      if !command.output.json && !command.output.quiet { console.line("interrupted") }
    }
    controller.setVideos(videos)
    let outcome = monitor.waitForOutcome()
    // The last session's terminate (from close) is not printed: playlistComplete ends the list.
    controller.removeSessionConsumer(printer)
    view?.close()
    controller.close()
    if case .failed(let error) = outcome { console.error(error.message) }
    return outcome.exitCode
  }

  /// Without `--events` or `--json`, only the main lines are printed; cue enters and exits
  /// never are (the `--subtitles` lines show the cues).
  private static func shouldPrint(_ line: String, output: OutputOptions) -> Bool {
    let event = eventName(line, json: output.json)
    if event == "textCueEnter" || event == "textCueExit" { return false }
    if output.json || output.events { return true }
    if output.quiet { return false }
    return [
      "sessionAdvanced", "ready", "end", "fail", "failedToPlayToEndTime", "cuePoint", "summary",
      "playlistComplete", "bumperEnter", "bumperExit",
    ].contains(event)
  }

  /// The event name of an analytics line (JSON lines start with `{"event":"NAME"`).
  private static func eventName(_ line: String, json: Bool) -> String {
    guard json else {
      return line.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
    }
    let prefix = "{\"event\":\""
    guard line.hasPrefix(prefix) else { return "" }
    return String(line.dropFirst(prefix.count).prefix { $0 != "\"" })
  }

  /// The videos of the file: a playlist object (`{"videos": [...]}`) or a bare list.
  private func loadVideos() throws -> [PlayheadSDK.Video] {
    let url = URL(fileURLWithPath: path)
    // A device or FIFO (/dev/zero, /dev/urandom, a pipe) would be read forever.
    if let kind = Self.specialFileKind(path) {
      throw PlaylistFileError(
        message: "cannot read playlist \(path): \(kind), not a regular file", exitCode: .source)
    }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw PlaylistFileError(
        message: "cannot read playlist \(path): \(PlayheadError.reason(for: error))",
        exitCode: .source)
    }
    do {
      return try PlayheadSDK.Playlist(jsonData: data).videos
    } catch {
      throw PlaylistFileError(
        message: "invalid playlist \(path): \(error.message)", exitCode: .invalidPlaylist)
    }
  }
}

extension PlaylistPlayback {
  /// What `path` is when it exists and is not a regular file (symbolic links followed).
  fileprivate static func specialFileKind(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "a directory"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFIFO: return "a FIFO"
    case S_IFSOCK: return "a socket"
    default: return "a special file"
    }
  }
}

/// A playlist file that cannot be read or parsed.
struct PlaylistFileError: Error {
  var message: String
  var exitCode: ExitCode
}

/// Follows the controller until the list is done: plays the first session when
/// `--auto-play` is off, moves on after failures with `--auto-advance`, and records the
/// first failure for the exit status.
final class PlaylistMonitor: PlaybackSessionConsumer, Sendable {
  /// How the run ended.
  enum Outcome: Sendable {
    case completed
    case failed(PlayheadError)
    case interrupted

    var exitCode: ExitCode {
      switch self {
      case .completed: return .success
      case .failed(let error): return ExitCode(error)
      case .interrupted: return .interrupted
      }
    }
  }

  // Every method runs on `queue` (the controller's callback queue); `outcome` is read
  // after `done` is signalled.
  private let controller: PlaybackController
  private let autoAdvance: Bool
  private let autoPlay: Bool
  private let waitsForSubtitles: Bool
  private let queue: DispatchQueue
  private let done = DispatchSemaphore(value: 0)
  private let state = Locked(State())

  private struct State: Sendable {
    /// The session to play once its subtitle track is loaded (or none is chosen).
    var waitingSession: UInt64?
    var outcome: Outcome?
    var firstFailure: PlayheadError?
    var sessionCount = 0
  }

  init(
    controller: PlaybackController, autoAdvance: Bool, autoPlay: Bool,
    waitsForSubtitles: Bool = false, queue: DispatchQueue
  ) {
    self.controller = controller
    self.autoAdvance = autoAdvance
    self.autoPlay = autoPlay
    self.waitsForSubtitles = waitsForSubtitles
    self.queue = queue
  }

  /// Ends the run as complete (the window's q, Esc or close button).
  func quit() {
    queue.async { [self] in finish(.completed) }
  }

  /// Ctrl-C ends the run with the interrupted status.
  func startInterruptHandling(_ announce: @escaping @Sendable () -> Void) {
    // See `Interrupt`: the run ends within its grace period, a second Ctrl-C at once.
    Interrupt.setHandler { [self] in
      queue.async { [self] in
        announce()
        finish(.interrupted)
      }
    }
  }

  func waitForOutcome() -> Outcome {
    done.wait()
    return queue.sync { state.withLock { $0.outcome } } ?? .completed
  }

  func didAdvanceTo(_ session: PlaybackSession) {
    let sessionCount = state.withLock { state in
      state.sessionCount += 1
      return state.sessionCount
    }
    if autoPlay && !waitsForSubtitles { return }
    if !autoPlay && sessionCount > 1 {
      // Without --auto-play a new session waits for a play that never comes.
      finishWithResult()
      return
    }
    if waitsForSubtitles {
      state.withLock { $0.waitingSession = session.id }
    } else {
      controller.play()
    }
  }

  func playbackSession(_ session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {
    let settled = Self.subtitlesSettled(lifecycleEvent)
    let playsNow = state.withLock { state in
      guard state.waitingSession == session.id && settled else { return false }
      state.waitingSession = nil
      return true
    }
    if playsNow { controller.play() }
    switch lifecycleEvent.type {
    case .end, .previewEnded:
      if !autoAdvance { finishWithResult() }
    case .fail, .failedToPlayToEndTime:
      let error = lifecycleEvent.error
      state.withLock { state in
        if state.firstFailure == nil { state.firstFailure = error }
      }
      if !autoAdvance {
        finishWithResult()
      } else if lifecycleEvent.type == .failedToPlayToEndTime {
        let isLast = controller.queuedVideos.last == session.video
        if isLast { finishWithResult() } else { controller.advanceToNext() }
      }
    default:
      break
    }
  }

  /// Whether `event` ends the wait for a session's subtitles: none chosen, loaded, or
  /// failed.
  private static func subtitlesSettled(_ event: LifecycleEvent) -> Bool {
    switch event.type {
    case .textTrackChanged: return event.textTrackID == nil
    case .textTrackLoaded, .textTrackFailedToLoad: return true
    default: return false
    }
  }

  func didCompletePlaylist(_ videos: [Video]) {
    finishWithResult()
  }

  func noPlayableVideosFound(in videos: [Video]) {
    if videos.isEmpty { finish(.completed) }
  }

  private func finishWithResult() {
    finish(state.withLock { $0.firstFailure }.map(Outcome.failed) ?? .completed)
  }

  private func finish(_ result: Outcome) {
    let first = state.withLock { state in
      guard state.outcome == nil else { return false }
      state.outcome = result
      return true
    }
    guard first else { return }
    Interrupt.setHandler(nil)
    done.signal()
  }
}
