extension ControlsModel {
  /// What to draw at `nowSeconds`: each control of the effective layout with its look and
  /// accessible name, the open menu, and the thumbnail preview while the pointer hovers
  /// over the slider or drags it.
  public func scene(nowSeconds: Double) -> ControlsScene {
    let frames = viewFrames()
    let areaHeight = effectiveLayout.controlAreaHeight(forWidth: viewWidth, scale: scale)
    let controls = frames.map { frame in
      ControlsScene.Control(
        frame: frame, appearance: appearance(of: frame.tag),
        accessibilityName: accessibilityName(of: frame.tag),
        isHovered: pointer.map { frame.contains(x: $0.x, y: $0.y) } ?? false)
    }
    var scene = ControlsScene(
      opacity: opacity(nowSeconds: nowSeconds), viewWidth: viewWidth, viewHeight: viewHeight,
      areaY: viewHeight - areaHeight, areaHeight: areaHeight, scale: scale, controls: controls,
      menu: sceneMenu(),
      thumbnail: thumbnailPreview(frames: frames, areaTop: viewHeight - areaHeight))
    scene.ad = adControls()
    scene.showsPoster =
      options.posterPath != nil && (state.isAudioOnly || (automaticKind?.isAudioOnly ?? false))
    return scene
  }

  /// The look of a control now.
  func appearance(of tag: ControlTag) -> ControlAppearance {
    switch tag {
    case .playback: return .playback(isPlaying: state.isPlaying)
    case .jumpBack: return .jumpBack
    case .closedCaption: return .closedCaption(isActive: state.selectedTextTrackID != nil)
    case .screenMode: return .screenMode(isFullScreen: state.isFullScreen)
    case .preferredBitrate:
      let menu = activeBitrateMenu
      let index = selectedBitrateIndex ?? menu?.selectedIndex
      let capped =
        index.flatMap { menu?.options.indices.contains($0) == true ? $0 : nil }
        .map { !(menu?.options[$0].isAutomatic ?? true) } ?? false
      return .preferredBitrate(isCapped: capped)
    case .liveIndicator: return .liveIndicator(isAtLiveEdge: state.isAtLiveEdge())
    case .currentTime: return .text(currentTimeText)
    case .timeSeparator: return .text("/")
    case .duration:
      return .text(state.duration.map(ControlsTimeText.format) ?? ControlsTimeText.unknown)
    case .progressSlider: return .slider(sliderAppearance)
    case .empty, .externalRoute, .pictureInPicture, .video360: return .empty
    }
  }

  /// The current-time label: the position on demand; behind the live edge of a DVR
  /// stream, the distance to live (`-0:42`).
  var currentTimeText: String {
    if state.streamKind == .liveDVR, let edge = state.seekableRange?.upperBound {
      return "-" + ControlsTimeText.format(max(0, edge - shownPosition))
    }
    return ControlsTimeText.format(shownPosition)
  }

  /// The position the controls show: the dragged one while dragging.
  var shownPosition: Double {
    guard let fraction = dragFraction, let range = state.sliderRange else { return state.position }
    return range.lowerBound + fraction * (range.upperBound - range.lowerBound)
  }

  var sliderAppearance: SliderAppearance {
    guard let range = state.sliderRange else {
      return SliderAppearance(
        played: 0, buffered: [], markers: [], isBumper: state.isBumper, isDragging: false)
    }
    let span = range.upperBound - range.lowerBound
    func fraction(_ seconds: Double) -> Double {
      max(0, min(1, (seconds - range.lowerBound) / span))
    }
    let buffered =
      state.isBumper
      ? [] : state.bufferedRanges.map { fraction($0.lowerBound)...fraction($0.upperBound) }
    let markers = state.markerTimes.filter { range.contains($0) }.map(fraction)
    return SliderAppearance(
      played: dragFraction ?? fraction(state.position),
      buffered: buffered.filter {
        $0.upperBound > $0.lowerBound
      }, markers: markers, isBumper: state.isBumper, isDragging: dragFraction != nil,
      adMarkers: state.adBreakTimes.filter { range.contains($0) }.map(fraction))
  }

  /// The accessible name of a control in its current state.
  func accessibilityName(of tag: ControlTag) -> String? {
    switch tag {
    case .playback: return localization.string(state.isPlaying ? .pause : .play)
    case .screenMode: return localization.string(state.isFullScreen ? .exitFullScreen : .fullScreen)
    default: return tag.accessibilityKey.map { localization.string($0) }
    }
  }

  private func sceneMenu() -> ControlsScene.Menu? {
    guard let box = menuGeometry() else { return nil }
    let rows = menuRows()
    let items = rows.enumerated().map { index, row in
      let y = box.y + Double(index) * box.rowHeight
      let hovered =
        !row.isHeading
        && (pointer.map {
          $0.x >= box.x && $0.x < box.x + box.width && $0.y >= y
            && $0.y < y + box.rowHeight
        } ?? false)
      return ControlsScene.Menu.Item(
        label: row.label, isHeading: row.isHeading, isSelected: row.isSelected,
        isHovered: hovered, x: box.x, y: y, width: box.width, height: box.rowHeight)
    }
    return ControlsScene.Menu(
      items: items, x: box.x, y: box.y, width: box.width, height: box.height)
  }

  private func thumbnailPreview(frames: [ControlFrame], areaTop: Double)
    -> ControlsScene.ThumbnailPreview?
  {
    guard options.thumbnailSeekingEnabled, state.hasThumbnails, !state.isSeekingBlocked,
      openMenu == nil, let pointer, let range = state.sliderRange,
      let slider = frames.first(where: { $0.tag == .progressSlider })
    else { return nil }
    guard dragFraction != nil || slider.contains(x: pointer.x, y: pointer.y),
      let fraction = dragFraction ?? sliderFraction(atX: pointer.x)
    else { return nil }
    let seconds = range.lowerBound + fraction * (range.upperBound - range.lowerBound)
    let halfWidth = ThumbnailGeometry.width * scale / 2
    let centre = max(halfWidth, min(viewWidth - halfWidth, pointer.x))
    return ControlsScene.ThumbnailPreview(
      timeSeconds: seconds, centreX: centre, bottomY: areaTop - 8 * scale)
  }
}

/// The size of the slider's thumbnail preview at scale 1: 16:9, shown 8 px above the
/// control area (the seed leaves the size to the application's delegate).
public enum ThumbnailGeometry {
  /// Width at scale 1 in pixels.
  public static let width: Double = 160
  /// Height at scale 1 in pixels.
  public static let height: Double = 90
}
