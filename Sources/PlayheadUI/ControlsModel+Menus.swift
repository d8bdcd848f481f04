extension ControlsModel {
  /// One row of an open menu before it is placed.
  struct MenuRow: Equatable {
    var label: String
    var isHeading: Bool
    var isSelected: Bool
    var action: ControlsAction?
  }

  /// The rows of the open menu: for tracks, a "Subtitles" section (Off, then each text
  /// track) and, with two or more audio tracks, an "Audio" section; for bitrate, the
  /// menu's title (or "Quality") then "Auto" first and the other options in order.
  func menuRows() -> [MenuRow] {
    switch openMenu {
    case nil: return []
    case .tracks: return trackRows()
    case .bitrate: return bitrateRows()
    }
  }

  private func trackRows() -> [MenuRow] {
    var rows: [MenuRow] = []
    if !state.textTracks.isEmpty {
      rows.append(
        MenuRow(label: localization.string(.subtitles), isHeading: true, isSelected: false))
      rows.append(
        MenuRow(
          label: localization.string(.off), isHeading: false,
          isSelected: state.selectedTextTrackID == nil, action: .selectTextTrack(id: nil)))
      for track in state.textTracks {
        rows.append(
          MenuRow(
            label: track.label, isHeading: false,
            isSelected: state.selectedTextTrackID == track.id,
            action: .selectTextTrack(id: track.id)))
      }
    }
    if state.audioTracks.count >= 2 {
      rows.append(MenuRow(label: localization.string(.audio), isHeading: true, isSelected: false))
      for track in state.audioTracks {
        rows.append(
          MenuRow(
            label: track.label, isHeading: false,
            isSelected: state.selectedAudioTrackID == track.id,
            action: .selectAudioTrack(id: track.id)))
      }
    }
    return rows
  }

  private func bitrateRows() -> [MenuRow] {
    guard let menu = activeBitrateMenu else { return [] }
    let selected = selectedBitrateIndex ?? menu.selectedIndex
    var rows = [
      MenuRow(
        label: menu.title ?? localization.string(.quality), isHeading: true, isSelected: false)
    ]
    let automatic = menu.options.indices.filter { menu.options[$0].isAutomatic }
    let others = menu.options.indices.filter { !menu.options[$0].isAutomatic }
    for index in automatic + others {
      let option = menu.options[index]
      let label =
        option.isAutomatic && option.title == "Auto"
        ? localization.string(.auto) : option.title
      rows.append(
        MenuRow(
          label: label, isHeading: false, isSelected: index == selected,
          action: .selectBitrate(optionIndex: index)))
    }
    return rows
  }

  /// The open menu's box in view coordinates: right-aligned with its button, resting on
  /// the control area, kept inside the view.
  func menuGeometry() -> MenuBox? {
    let rows = menuRows()
    guard let kind = openMenu, !rows.isEmpty else { return nil }
    let buttonTag: ControlTag = kind == .tracks ? .closedCaption : .preferredBitrate
    let frames = viewFrames()
    guard let button = frames.first(where: { $0.tag == buttonTag }) else { return nil }
    let width = min(viewWidth, 220 * scale)
    let rowHeight = 28 * scale
    let areaTop = frames.map(\.y).min() ?? viewHeight
    let x = max(0, min(viewWidth - width, button.x + button.width - width))
    let y = max(0, areaTop - rowHeight * Double(rows.count))
    return MenuBox(x: x, y: y, width: width, rowHeight: rowHeight, rows: rows.count)
  }

  /// Applies the menu row under the point, closing the menu; headings do nothing.
  mutating func chooseMenuItem(x: Double, y: Double) -> [ControlsAction] {
    guard let menu = menuGeometry(), menu.contains(x: x, y: y) else { return [] }
    let rows = menuRows()
    let index = Int((y - menu.y) / menu.rowHeight)
    guard rows.indices.contains(index), let action = rows[index].action else { return [] }
    if case .selectBitrate(let option) = action { selectedBitrateIndex = option }
    openMenu = nil
    return [action]
  }
}

/// Where an open menu sits.
struct MenuBox: Equatable {
  var x: Double
  var y: Double
  var width: Double
  var rowHeight: Double
  var rows: Int

  var height: Double { rowHeight * Double(rows) }

  func contains(x px: Double, y py: Double) -> Bool {
    px >= x && px < x + width && py >= y && py < y + height
  }
}
