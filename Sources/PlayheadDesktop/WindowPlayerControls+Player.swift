import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadUI

extension WindowPlayerControls {
  /// What the controls show, read from the player and its current item.
  struct Playback {
    var state: ControlsPlaybackState
    var itemID: ObjectIdentifier?
    /// The window's drawable size now.
    var windowSize: WindowSize?
    var markerTimes: [Double] {
      get { state.markerTimes }
      set { state.markerTimes = newValue }
    }
    var isBumper: Bool {
      get { state.isBumper }
      set { state.isBumper = newValue }
    }
  }

  /// A live window at least this long (seconds) gets the DVR layout and a slider.
  static let minimumDVRWindowSeconds = 30.0

  func readPlayback() -> Playback {
    let player = self.player
    var state = ControlsPlaybackState(
      isPlaying: (player?.rate ?? 0) != 0, isFullScreen: window.isFullscreen)
    let size = window.windowSize
    guard let item = player?.currentItem else {
      return Playback(state: state, itemID: nil, windowSize: size)
    }
    state.position = item.currentTime().seconds
    state.isAudioOnly = item.isAudioOnly
    state.bufferedRanges = item.loadedTimeRanges.compactMap(Self.range)
    let seekable = item.seekableTimeRanges.compactMap(Self.range)
    let window = seekable.first.map { $0.lowerBound...(seekable.last?.upperBound ?? $0.upperBound) }
    switch item.streamKind {
    case .vod:
      state.streamKind = .onDemand
      if item.duration.isNumeric, item.duration.seconds > 0 {
        state.duration = item.duration.seconds
      }
    case .live, .liveDVR:
      state.seekableRange = window
      let length = window.map { $0.upperBound - $0.lowerBound } ?? 0
      state.streamKind = length >= Self.minimumDVRWindowSeconds ? .liveDVR : .live
    }
    if let controller = textTrackController {
      state.textTracks = controller.options.filter(\.isSelectable).map {
        ControlsPlaybackState.TrackChoice(id: $0.id, label: $0.label)
      }
      state.selectedTextTrackID = controller.selected?.id
    } else {
      let text = Self.textTracks(of: item)
      state.textTracks = text.map { ControlsPlaybackState.TrackChoice(id: $0.id, label: $0.label) }
      state.selectedTextTrackID = item.selectedTextTrack.flatMap { selected in
        text.first { $0.track == selected }?.id
      }
    }
    let audio = Self.audioTracks(of: item)
    state.audioTracks = audio.map { ControlsPlaybackState.TrackChoice(id: $0.id, label: $0.label) }
    state.selectedAudioTrackID = item.selectedAudioRendition.flatMap { selected in
      audio.first { $0.track == selected }?.id
    }
    let levels = item.variants.map { variant in
      BitrateLevel(
        index: variant.index, bandwidth: variant.bandwidth, width: variant.width,
        height: variant.height, codecs: variant.codecs)
    }
    if levels.count >= 2 { state.bitrateMenu = BitrateMenu(levels: levels) }
    return Playback(state: state, itemID: ObjectIdentifier(item), windowSize: size)
  }

  /// The item's text tracks (subtitle renditions, then sidecar files) with the ids and
  /// labels the menu uses.
  static func textTracks(of item: PlayerItem) -> [(id: String, label: String, track: RenditionInfo)]
  {
    (item.subtitleRenditions + item.sidecarTextTracks).enumerated().map { index, track in
      ("text-\(index)", label(of: track), track)
    }
  }

  /// The item's audio tracks with the ids and labels the menu uses.
  static func audioTracks(of item: PlayerItem) -> [(
    id: String, label: String, track: RenditionInfo
  )] {
    item.audioRenditions.enumerated().map { index, track in
      ("audio-\(index)", label(of: track), track)
    }
  }

  /// A track's name, with its language when the name does not already say it.
  static func label(of track: RenditionInfo) -> String {
    let name = track.name.trimmingCharacters(in: .whitespaces)
    guard let language = track.language, !language.isEmpty else {
      return name.isEmpty ? "?" : name
    }
    if name.isEmpty { return language }
    return name.lowercased().contains(language.lowercased()) ? name : "\(name) (\(language))"
  }

  static func range(_ range: MediaTimeRange) -> ClosedRange<Double>? {
    let start = range.start.seconds
    let end = range.end.seconds
    guard start.isFinite, end.isFinite, end >= start else { return nil }
    return start...end
  }

  /// Applies an action of the controls to the player and the window.
  func apply(_ action: ControlsAction) {
    defer { onAction?(action) }
    if let performer, performer(action) { return }
    guard let player else { return }
    let item = player.currentItem
    switch action {
    case .play: player.play()
    case .pause: player.pause()
    case .seek(let seconds):
      player.seek(to: MediaTime(seconds: seconds, preferredTimescale: 1000))
    case .goToLive:
      if let end = item?.seekableTimeRanges.last?.end { player.seek(to: end) }
    case .setFullScreen(let on): window.setFullscreen(on)
    case .selectTextTrack(let id):
      if let controller = textTrackController {
        _ = controller.select(id.flatMap { id in controller.options.first { $0.id == id } })
        break
      }
      guard let item else { break }
      let track = id.flatMap { id in Self.textTracks(of: item).first { $0.id == id }?.track }
      _ = item.selectTextTrack(track)
    case .selectAudioTrack(let id):
      guard let item, let track = Self.audioTracks(of: item).first(where: { $0.id == id })?.track
      else { break }
      _ = item.selectAudioRendition(track)
    case .selectBitrate(let index):
      guard let item else { break }
      let menu = state.withLock { $0.model.activeBitrateMenu }
      guard let option = menu?.options[safe: index] else { break }
      item.preferredPeakBitRate = Double(max(0, option.bitrate))
    case .skipAd, .openAdClickThrough:
      // A bare player plays no ads: only a controller's performer acts on these.
      break
    }
  }
}

extension Array {
  fileprivate subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
