import Foundation
import PlayheadSDK

extension ControlsModel {
  /// The ad controls laid out now (nil without an ad): the badge at the bottom left and the
  /// skip control at the bottom right, just above the control area, and "Learn more" at the
  /// top right. They do not fade with the bar. None with `showsAdControls` off.
  func adControls() -> ControlsScene.AdControls? {
    guard options.showsAdControls, let ad = state.ad, viewWidth > 0, viewHeight > 0 else {
      return nil
    }
    let margin = 12 * scale
    let height = 30 * scale
    let areaTop = viewHeight - effectiveLayout.controlAreaHeight(forWidth: viewWidth, scale: scale)
    let rowY = max(margin, areaTop - margin - height)
    var badgeText = localization.string(
      .adPosition, filling: ["n": "\(ad.adNumber)", "count": "\(ad.adCount)"])
    if let remaining = ad.remainingSeconds {
      badgeText += " · " + ControlsTimeText.format(remaining.rounded(.up))
    }
    let badge = ControlsScene.AdControls.Box(
      x: margin, y: rowY, width: adLabelWidth(badgeText), height: height)
    var buttons: [ControlsScene.AdControls.Button] = []
    if let until = ad.secondsUntilSkippable {
      let label =
        ad.canSkip
        ? localization.string(.skipAd)
        : localization.string(.skipAdCountdown, filling: ["seconds": "\(Int(until.rounded(.up)))"])
      let width = adLabelWidth(label)
      buttons.append(
        adButton(
          .skip, label: label, isEnabled: ad.canSkip,
          box: .init(x: viewWidth - margin - width, y: rowY, width: width, height: height)))
    }
    if ad.hasLearnMore {
      let label = localization.string(.learnMore)
      let width = adLabelWidth(label)
      buttons.append(
        adButton(
          .learnMore, label: label, isEnabled: true,
          box: .init(x: viewWidth - margin - width, y: margin, width: width, height: height)))
    }
    return ControlsScene.AdControls(badgeText: badgeText, badge: badge, buttons: buttons)
  }

  /// The size of the ad controls' text at the current scale, in pixels.
  var adTextSize: Double { 14 * scale }

  private func adButton(
    _ kind: AdControlKind, label: String, isEnabled: Bool, box: ControlsScene.AdControls.Box
  ) -> ControlsScene.AdControls.Button {
    ControlsScene.AdControls.Button(
      kind: kind, label: label, box: box, isEnabled: isEnabled,
      isHovered: pointer.map { box.contains(x: $0.x, y: $0.y) } ?? false,
      isFocused: focusedAdControl == kind)
  }

  /// The width of a box holding `text` with padding: an estimate from the characters
  /// (wide East Asian ones count a full em), since the model has no font.
  private func adLabelWidth(_ text: String) -> Double {
    let ems = text.unicodeScalars.reduce(0.0) { sum, scalar in
      sum + (Self.isWide(scalar) ? 1.0 : 0.6)
    }
    return (ems * adTextSize + 24 * scale).rounded(.up)
  }

  /// Whether `scalar` is drawn a full em wide: Hangul, CJK, kana and full-width forms.
  private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60,
      0xFFE0...0xFFE6:
      return true
    default:
      return false
    }
  }

  /// What pressing an ad control does: skip once it can; open the page.
  func adActions(_ button: ControlsScene.AdControls.Button) -> [ControlsAction] {
    guard button.isEnabled else { return [] }
    switch button.kind {
    case .skip: return [.skipAd]
    case .learnMore: return [.openAdClickThrough]
    }
  }

  /// Tab, Shift+Tab and Return over the ad controls: focus moves through them in order
  /// (wrapping), Return presses the focused one. Not consumed without an ad control.
  mutating func navigate(_ key: ControlsNavigationKey) -> ControlsResponse {
    guard let buttons = adControls()?.buttons, !buttons.isEmpty else {
      focusedAdControl = nil
      return ControlsResponse(isConsumed: false)
    }
    let current = buttons.firstIndex { $0.kind == focusedAdControl }
    switch key {
    case .next:
      focusedAdControl = buttons[current.map { ($0 + 1) % buttons.count } ?? 0].kind
    case .previous:
      let index = current.map { ($0 + buttons.count - 1) % buttons.count } ?? buttons.count - 1
      focusedAdControl = buttons[index].kind
    case .activate:
      guard let current else { return ControlsResponse(isConsumed: false) }
      return ControlsResponse(actions: adActions(buttons[current]), isConsumed: true)
    }
    return ControlsResponse(isConsumed: true)
  }

  /// The press id of an ad control.
  static func adPressID(_ kind: AdControlKind) -> String { "\u{0}ad-\(kind.rawValue)" }
}
