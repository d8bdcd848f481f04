import Foundation
import Playhead
import PlayheadDesktop
import PlayheadOverlay
import PlayheadUI

/// What the window's keys and mouse do to the player, following mpv's habits, and what the
/// window draws over the picture: the active subtitle cues (`WindowSubtitles`) and the
/// statistics page.
///
/// Window events are handled on the session's queue, one at a time; the statistics page
/// is drawn there too (`StatisticsPage`).
final class WindowControls: Sendable {
  let window: WindowVideoSink
  private let console: Console
  private let quiet: Bool
  private let statisticsRenderer: SubtitleOverlayRenderer
  /// SDL's name for the renderer drawing the window, for the statistics page.
  private let rendererName: String
  /// `--no-controls`, `--layout`, `--compact`.
  private let controlsRequest: (hidden: Bool, layout: ControlLayout.Kind?, compact: Bool)
  /// `--json`: the controls' changes are printed as `controlsChanged` lines.
  private let printsJSON: Bool
  private let state = Locked(State())

  private struct State: Sendable {
    /// What the controls act on, from `attach`.
    var player: Player?
    var item: PlayerItem?
    var session: PlaySession?
    var subtitles: WindowSubtitles?
    /// The control bar (none with `--no-controls`).
    var controls: WindowPlayerControls?
    /// The SDK's text tracks, when the play prints subtitles.
    var textTracks: TextTrackController?
    /// The desktop's media controls (MPRIS2), when there is a session bus.
    var mpris: MPRISService?
    var showsStatistics = false
    /// The periodic observer that redraws the statistics page while it is shown.
    var statisticsObserver: ObserverToken?
  }

  /// Opens the window (before the player exists: it is the player's video sink); events
  /// act once `attach` has been called. Throws the window's error.
  init(request: WindowRequest, title: String, console: Console, quiet: Bool, json: Bool)
    throws(PlayheadError)
  {
    let events = Locked<(@Sendable (WindowEvent) -> Void)?>(nil)
    let options = WindowOptions(
      title: title, size: request.size.map { WindowSize(width: $0.width, height: $0.height) },
      isFullscreen: request.isFullscreen, gravity: request.gravity,
      background: request.background, rendering: request.rendering)
    window = try WindowVideoSink(options: options) { event in events.value?(event) }
    rendererName = window.rendererName ?? "-"
    self.console = console
    self.quiet = quiet
    controlsRequest = (request.hidesControls, request.layout, request.isCompact)
    printsJSON = json
    statisticsRenderer = try SubtitleOverlayRenderer(style: StatisticsPage.style)
    events.withLock { handler in
      handler = { [weak self] event in
        guard let controls = self, let queue = controls.queue else { return }
        queue.async { controls.handle(event) }
      }
    }
  }

  /// Starts acting on `player` playing `item`, on `session`'s queue, and drawing its
  /// subtitles on the picture.
  func attach(player: Player, item: PlayerItem, session: PlaySession) {
    var subtitles: WindowSubtitles?
    do {
      subtitles = try WindowSubtitles(window: window, player: player)
    } catch {
      console.error("subtitles: \(error.message)")
    }
    let controls = makeControls(player: player)
    let mpris = makeMPRIS(player: player, item: item, session: session)
    state.withLock { state in
      state.mpris = mpris
      state.player = player
      state.item = item
      state.session = session
      state.subtitles = subtitles
      state.controls = controls
    }
  }

  /// The control bar for `player`, as `--no-controls`, `--layout` and `--compact` ask.
  private func makeControls(player: Player) -> WindowPlayerControls? {
    guard !controlsRequest.hidden else { return nil }
    let options = PlayerViewOptions(
      automaticControlTypeSelection: controlsRequest.layout == nil,
      alwaysCompact: controlsRequest.compact)
    do {
      let controls = try WindowPlayerControls(
        window: window, player: player, options: options,
        layout: controlsRequest.layout.map(ControlLayout.provided)
      ) { [weak self] action in self?.controlsDid(action) }
      if printsJSON {
        controls.onControlsChange = { [console] tags in
          console.line(ControlsChangedLine.json(tags))
        }
      }
      return controls
    } catch {
      console.error("controls: \(error.message)")
      return nil
    }
  }

  /// The MPRIS2 service for the desktop's media keys and widgets, titled by the media's
  /// name; nil without a session bus (`DBUS_SESSION_BUS_ADDRESS`), as on a bare server.
  private func makeMPRIS(player: Player, item: PlayerItem, session: PlaySession) -> MPRISService? {
    guard let address = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"],
      !address.isEmpty
    else { return nil }
    let url = item.asset.url
    let title = url.lastPathComponent.isEmpty ? url.absoluteString : url.lastPathComponent
    do {
      return try MPRISService(
        player: player, metadata: { MPRISMetadata(title: title, url: url) },
        handlers: MPRISHandlers(quit: { [weak session] in session?.quit() }))
    } catch {
      console.error("media keys: \(error.message)")
      return nil
    }
  }

  /// Says what a choice in the controls' menus changed, and redraws subtitles.
  private func controlsDid(_ action: ControlsAction) {
    guard let item = state.withLock({ $0.item }) else { return }
    switch action {
    case .selectTextTrack(let id):
      if let controller = state.withLock({ $0.textTracks }) {
        let label = id.flatMap { id in controller.options.first { $0.id == id }?.label }
        say("subtitles: " + (label ?? "off"))
      } else {
        say("subtitles: " + (item.selectedTextTrack.map(AudioChoice.describe) ?? "off"))
      }
      refreshSubtitles()
    case .selectAudioTrack:
      say("audio: " + (item.selectedAudioRendition.map(AudioChoice.describe) ?? "-"))
    case .selectBitrate:
      let cap = item.preferredPeakBitRate
      say("bitrate: " + (cap > 0 ? "at most \(Int(cap)) bit/s" : "auto"))
    case .play, .pause, .seek, .goToLive, .setFullScreen, .skipAd, .openAdClickThrough:
      break
    }
  }

  /// Lists and chooses subtitles through `controller` (the SDK's text tracks of a play
  /// with `--subtitles` or `--sub-file`), in the menu and with `j`, so the printed cues
  /// follow the choice.
  func useTextTracks(_ controller: TextTrackController) {
    let controls = state.withLock { state in
      state.textTracks = controller
      return state.controls
    }
    controls?.textTrackController = controller
  }

  /// Closes the window (its observers first) and lets go of the player.
  func close() {
    state.withLock { state in
      if let token = state.statisticsObserver { state.player?.removeTimeObserver(token) }
      state.statisticsObserver = nil
      state.subtitles?.close()
      state.subtitles = nil
      state.controls?.close()
      state.controls = nil
      state.mpris?.close()
      state.mpris = nil
      state.player = nil
      state.item = nil
      state.session = nil
    }
    window.close()
  }

  private var queue: DispatchQueue? { state.withLock { $0.session?.queue } }
  private var player: Player? { state.withLock { $0.player } }
  private var session: PlaySession? { state.withLock { $0.session } }

  // MARK: Window events

  private func handle(_ event: WindowEvent) {
    guard let player, let item = state.withLock({ $0.item }), let session else { return }
    if let controls = state.withLock({ $0.controls }), controls.handle(event) { return }
    switch event {
    case .key(let key): handle(key, player: player, item: item, session: session)
    case .click: togglePause(player)
    case .doubleClick:
      // The first click of the pair toggled pause: undo it.
      togglePause(player)
      window.setFullscreen(!window.isFullscreen)
    case .resized: refreshSubtitles()
    case .closeRequested: session.quit()
    case .buttonReleased, .pointerMoved, .pointerLeft: break
    }
  }

  private func handle(_ key: Key, player: Player, item: PlayerItem, session: PlaySession) {
    switch key {
    case .space, .p: togglePause(player)
    case .left: seek(player, item, by: -5)
    case .right: seek(player, item, by: 5)
    case .down: seek(player, item, by: -60)
    case .up: seek(player, item, by: 60)
    case .f: window.setFullscreen(!window.isFullscreen)
    case .m:
      player.isMuted.toggle()
      say(player.isMuted ? "mute: on" : "mute: off")
    case .nine, .zero:
      let step: Float = key == .nine ? -0.05 : 0.05
      player.volume = ((player.volume + step) * 20).rounded() / 20
      say("volume: \(Int((player.volume * 100).rounded()))%")
    case .j: cycleSubtitles(item)
    case .hash: cycleAudio(item)
    case .l, .capitalL: cycleChannel(player, forward: key == .l)
    case .period:
      if player.rate != 0 { player.pause() }
      item.step(byCount: 1)
    case .q, .escape: session.quit()
    case .i: toggleStatistics()
    case .tab, .backTab, .enter, .other: break
    }
  }

  private func togglePause(_ player: Player) {
    if player.rate == 0 { player.play() } else { player.pause() }
  }

  /// Seeks by `seconds` from the current time, kept within the seekable range.
  private func seek(_ player: Player, _ item: PlayerItem, by seconds: Double) {
    var target = item.currentTime() + MediaTime(seconds: seconds, preferredTimescale: 1000)
    let ranges = item.seekableTimeRanges
    if let first = ranges.first, let last = ranges.last {
      target = min(max(target, first.start), last.end)
    } else if item.duration.isNumeric {
      target = min(max(target, .zero), item.duration)
    }
    player.seek(to: target)
  }

  private func cycleSubtitles(_ item: PlayerItem) {
    if let controller = state.withLock({ $0.textTracks }) {
      let options = controller.options.filter(\.isSelectable)
      guard !options.isEmpty else { return say("subtitles: none") }
      let next = Self.next(after: controller.selected, in: options, allowsOff: true)
      _ = controller.select(next)
      say("subtitles: " + (next.map { $0.label } ?? "off"))
      return refreshSubtitles()
    }
    let tracks = item.subtitleRenditions + item.sidecarTextTracks
    guard !tracks.isEmpty else { return say("subtitles: none") }
    let next = Self.next(after: item.selectedTextTrack, in: tracks, allowsOff: true)
    _ = item.selectTextTrack(next)
    say("subtitles: " + (next.map(AudioChoice.describe) ?? "off"))
    refreshSubtitles()
  }

  private func cycleAudio(_ item: PlayerItem) {
    let tracks = item.audioRenditions
    guard tracks.count > 1,
      let next = Self.next(after: item.selectedAudioRendition, in: tracks, allowsOff: false)
    else { return say("audio: only one track") }
    _ = item.selectAudioRendition(next)
    say("audio: " + AudioChoice.describe(next))
  }

  private func cycleChannel(_ player: Player, forward: Bool) {
    let order: [AudioChannelMode] = [.both, .left, .right]
    let index = order.firstIndex(of: player.audioOutputChannel) ?? 0
    let next = order[(index + (forward ? 1 : order.count - 1)) % order.count]
    player.audioOutputChannel = next
    say("audio channel: \(next.rawValue)")
  }

  /// The option after `current` (the first when there is none); after the last, nil when
  /// `allowsOff`, else the first again.
  static func next<Option: Equatable>(after current: Option?, in options: [Option], allowsOff: Bool)
    -> Option?
  {
    guard let current, let index = options.firstIndex(of: current) else { return options.first }
    if index + 1 < options.count { return options[index + 1] }
    return allowsOff ? nil : options.first
  }

  private func say(_ line: String) {
    if !quiet { console.line(line) }
  }

  // MARK: Overlays

  private func refreshSubtitles() {
    state.withLock { $0.subtitles }?.refresh()
  }

  private func toggleStatistics() {
    let (shows, player, stale) = state.withLock { state in
      state.showsStatistics.toggle()
      let stale = state.statisticsObserver
      state.statisticsObserver = nil
      return (state.showsStatistics, state.player, stale)
    }
    if let stale { player?.removeTimeObserver(stale) }
    guard shows, let player, let queue else { return window.setOverlay(nil, layer: .window) }
    // Drawn now, then twice a second of playback (frozen while paused, as the figures are).
    drawStatistics()
    let token = player.addPeriodicTimeObserver(
      forInterval: MediaTime(value: 1, timescale: 2), queue: queue
    ) { [weak self] _ in self?.drawStatistics() }
    state.withLock { $0.statisticsObserver = token }
  }

  private func drawStatistics() {
    guard let player, let item = state.withLock({ $0.item }), let size = window.windowSize
    else { return }
    let lines =
      StatsText.lines(of: item, player: player) + ["Window: SDL \(rendererName) renderer"]
    do {
      let overlay = try statisticsRenderer.overlay(
        for: [StatisticsPage.cue(lines)], width: size.width, height: size.height)
      window.setOverlay(overlay.image, layer: .window)
    } catch {
      console.error("statistics: \(error.message)")
    }
  }
}

/// The statistics page: its style and its text as a cue.
enum StatisticsPage {
  /// A small monospaced font at the top left.
  static let style = SubtitleStyle(
    fontFamily: "DejaVu Sans Mono", fontSizeFraction: 0.03, outlineFraction: 0.12,
    shadowFraction: 0, bottomMarginFraction: 0, sideMarginFraction: 0.01)

  /// The statistics page as one cue at the top left.
  static func cue(_ lines: [String]) -> WebVTTCue {
    let escaped = lines.map {
      $0.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
    let settings = WebVTTCueSettings(
      line: WebVTTCueSettings.Line(.percentage(2), alignment: .start),
      position: WebVTTCueSettings.Position(1, alignment: .lineLeft), size: 98,
      align: .left)
    return WebVTTCue(
      start: .zero, end: MediaTime(value: 1, timescale: 1), settings: settings,
      text: escaped.joined(separator: "\n"))
  }
}
