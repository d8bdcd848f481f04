import Foundation
import PlayheadUI

/// Builds the ASS script that draws a `ControlsScene` with libass: vector drawings
/// (`\p1`) for the bar, icons, slider and menu boxes, text for labels, as mpv's on-screen
/// controller does. The script's PlayRes is the view's size, so coordinates are pixels.
enum ControlsScript {
  /// The colours of the controls (ASS colours are written `&HBBGGRR&`).
  enum Palette {
    static let bar = (r: 0, g: 0, b: 0, opacity: 0.55)
    static let icon = (r: 255, g: 255, b: 255)
    static let dimmed = (r: 170, g: 170, b: 170)
    static let track = (r: 255, g: 255, b: 255, opacity: 0.25)
    static let buffered = (r: 255, g: 255, b: 255, opacity: 0.5)
    static let played = (r: 255, g: 255, b: 255)
    static let bumper = (r: 138, g: 43, b: 226)
    static let marker = (r: 255, g: 204, b: 0)
    static let live = (r: 229, g: 9, b: 20)
    static let hover = (r: 255, g: 255, b: 255, opacity: 0.18)
    static let menu = (r: 20, g: 20, b: 20, opacity: 0.9)
    static let adBox = (r: 0, g: 0, b: 0, opacity: 0.65)
    static let adMarker = (r: 255, g: 140, b: 0)
    static let focus = (r: 255, g: 204, b: 0)
  }

  static func make(scene: ControlsScene, fontFamily: String) -> String {
    var script = Script(opacity: scene.opacity, scale: scene.scale)
    if scene.isBarVisible {
      script.rect(
        x: 0, y: scene.areaY, width: scene.viewWidth, height: scene.areaHeight,
        color: (Palette.bar.r, Palette.bar.g, Palette.bar.b), opacity: Palette.bar.opacity)
      for control in scene.controls {
        draw(control, into: &script)
      }
      if let menu = scene.menu { draw(menu, into: &script) }
    }
    if let ad = scene.ad {
      // The ad controls do not fade with the bar.
      script.opacity = 1
      draw(ad, into: &script)
    }
    return script.text(width: scene.viewWidth, height: scene.viewHeight, font: fontFamily)
  }

  private static func draw(_ control: ControlsScene.Control, into script: inout Script) {
    let frame = control.frame
    let cx = frame.x + frame.width / 2
    let cy = frame.y + frame.height / 2
    let icon = min(frame.width, frame.height) * 0.45
    let white = Palette.icon
    if control.isHovered && control.frame.tag.isInteractive && control.frame.tag != .progressSlider
    {
      script.circle(
        cx: cx, cy: cy, radius: min(frame.width, frame.height) * 0.42,
        color: (Palette.hover.r, Palette.hover.g, Palette.hover.b), opacity: Palette.hover.opacity)
    }
    switch control.appearance {
    case .playback(let isPlaying):
      if isPlaying {
        let bar = icon * 0.32
        script.rect(x: cx - icon * 0.4, y: cy - icon / 2, width: bar, height: icon, color: white)
        script.rect(
          x: cx + icon * 0.4 - bar, y: cy - icon / 2, width: bar, height: icon, color: white)
      } else {
        script.polygon(
          [
            (cx - icon * 0.38, cy - icon / 2), (cx + icon * 0.5, cy),
            (cx - icon * 0.38, cy + icon / 2),
          ],
          color: white)
      }
    case .jumpBack:
      script.ring(
        cx: cx, cy: cy + icon * 0.05, radius: icon * 0.42, width: icon * 0.12, color: white,
        gap: true)
      script.polygon(
        [
          (cx - icon * 0.62, cy - icon * 0.32), (cx - icon * 0.18, cy - icon * 0.42),
          (cx - icon * 0.5, cy + icon * 0.02),
        ], color: white)
    case .closedCaption(let isActive):
      let w = icon * 1.3
      let h = icon * 0.95
      if isActive {
        script.rect(x: cx - w / 2, y: cy - h / 2, width: w, height: h, color: white)
        script.label("CC", cx: cx, cy: cy, size: h * 0.62, color: (30, 30, 30), bold: true)
      } else {
        script.frameRect(
          x: cx - w / 2, y: cy - h / 2, width: w, height: h, line: icon * 0.09, color: white)
        script.label("CC", cx: cx, cy: cy, size: h * 0.62, color: white, bold: true)
      }
    case .screenMode(let isFullScreen):
      drawCorners(cx: cx, cy: cy, size: icon, inward: isFullScreen, into: &script)
    case .preferredBitrate(let isCapped):
      let color = isCapped ? (Palette.marker.r, Palette.marker.g, Palette.marker.b) : white
      let bar = icon * 0.22
      for index in 0..<3 {
        let height = icon * (0.45 + 0.275 * Double(index))
        script.rect(
          x: cx - icon / 2 + Double(index) * (bar + icon * 0.17), y: cy + icon / 2 - height,
          width: bar, height: height, color: color)
      }
    case .liveIndicator(let isAtLiveEdge):
      let dot = isAtLiveEdge ? (Palette.live.r, Palette.live.g, Palette.live.b) : Palette.dimmed
      let size = min(frame.height * 0.32, frame.width / 3.4)
      script.circle(cx: frame.x + size * 0.55, cy: cy, radius: size * 0.28, color: dot)
      script.label(
        "LIVE", cx: frame.x + size * 0.95 + (frame.width - size * 0.95) / 2, cy: cy, size: size,
        color: isAtLiveEdge ? white : Palette.dimmed, bold: true)
    case .text(let text):
      script.label(text, cx: cx, cy: cy, size: frame.height * 0.34, color: white, bold: false)
    case .slider(let look):
      drawSlider(look, frame: frame, into: &script)
    case .empty:
      break
    }
  }

  private static func drawSlider(
    _ look: SliderAppearance, frame: ControlFrame, into script: inout Script
  ) {
    let inset = 8 * script.scale
    let x0 = frame.x + inset
    let width = max(0, frame.width - 2 * inset)
    let thickness = max(2, 4 * script.scale)
    let y = frame.y + frame.height / 2 - thickness / 2
    script.rect(
      x: x0, y: y, width: width, height: thickness,
      color: (Palette.track.r, Palette.track.g, Palette.track.b), opacity: Palette.track.opacity)
    for range in look.buffered {
      script.rect(
        x: x0 + range.lowerBound * width, y: y,
        width: (range.upperBound - range.lowerBound) * width,
        height: thickness, color: (Palette.buffered.r, Palette.buffered.g, Palette.buffered.b),
        opacity: Palette.buffered.opacity)
    }
    let playedColor =
      look.isBumper ? (Palette.bumper.r, Palette.bumper.g, Palette.bumper.b) : Palette.played
    script.rect(x: x0, y: y, width: look.played * width, height: thickness, color: playedColor)
    for marker in look.markers {
      let tick = max(2, 3 * script.scale)
      script.rect(
        x: x0 + marker * width - tick / 2, y: y - thickness * 0.5, width: tick,
        height: thickness * 2,
        color: (Palette.marker.r, Palette.marker.g, Palette.marker.b))
    }
    for marker in look.adMarkers {
      let tick = max(3, 4 * script.scale)
      script.rect(
        x: x0 + marker * width - tick / 2, y: y - thickness * 0.75, width: tick,
        height: thickness * 2.5,
        color: (Palette.adMarker.r, Palette.adMarker.g, Palette.adMarker.b))
    }
    let knob = (look.isDragging ? 8 : 6) * script.scale
    script.circle(
      cx: x0 + look.played * width, cy: y + thickness / 2, radius: knob, color: playedColor)
  }

  private static func drawCorners(
    cx: Double, cy: Double, size: Double, inward: Bool, into script: inout Script
  ) {
    let half = size / 2
    let arm = size * 0.38
    let line = size * 0.12
    for (sx, sy) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
      // The corner point, and which way its arms run (towards the centre).
      let corner =
        inward
        ? (cx + sx * (half - arm), cy + sy * (half - arm)) : (cx + sx * half, cy + sy * half)
      let dx = inward ? sx : -sx
      let dy = inward ? sy : -sy
      let horizontalX = dx > 0 ? corner.0 : corner.0 - arm
      let verticalY = dy > 0 ? corner.1 : corner.1 - arm
      let lineX =
        sx > 0 ? (inward ? corner.0 : corner.0 - line) : (inward ? corner.0 - line : corner.0)
      let lineY =
        sy > 0 ? (inward ? corner.1 : corner.1 - line) : (inward ? corner.1 - line : corner.1)
      script.rect(x: horizontalX, y: lineY, width: arm, height: line, color: Palette.icon)
      script.rect(x: lineX, y: verticalY, width: line, height: arm, color: Palette.icon)
    }
  }

  /// The ad badge and buttons: dark boxes with white text; a disabled skip control's text
  /// is dimmed, a hovered button lighter, a focused one ringed.
  private static func draw(_ ad: ControlsScene.AdControls, into script: inout Script) {
    let textSize = 14 * script.scale
    let box = (Palette.adBox.r, Palette.adBox.g, Palette.adBox.b)
    script.rect(
      x: ad.badge.x, y: ad.badge.y, width: ad.badge.width, height: ad.badge.height, color: box,
      opacity: Palette.adBox.opacity)
    script.label(
      ad.badgeText, x: ad.badge.x + 12 * script.scale, cy: ad.badge.y + ad.badge.height / 2,
      size: textSize, color: Palette.icon, bold: true)
    for button in ad.buttons {
      let frame = button.box
      script.rect(
        x: frame.x, y: frame.y, width: frame.width, height: frame.height, color: box,
        opacity: Palette.adBox.opacity)
      if button.isHovered && button.isEnabled {
        script.rect(
          x: frame.x, y: frame.y, width: frame.width, height: frame.height,
          color: (Palette.hover.r, Palette.hover.g, Palette.hover.b), opacity: Palette.hover.opacity
        )
      }
      if button.isEnabled {
        script.frameRect(
          x: frame.x, y: frame.y, width: frame.width, height: frame.height,
          line: max(1, script.scale), color: Palette.icon)
      }
      if button.isFocused {
        let line = max(2, 2 * script.scale)
        script.frameRect(
          x: frame.x - line, y: frame.y - line, width: frame.width + 2 * line,
          height: frame.height + 2 * line, line: line,
          color: (Palette.focus.r, Palette.focus.g, Palette.focus.b))
      }
      script.label(
        button.label, cx: frame.x + frame.width / 2, cy: frame.y + frame.height / 2,
        size: textSize, color: button.isEnabled ? Palette.icon : Palette.dimmed, bold: true)
    }
  }

  private static func draw(_ menu: ControlsScene.Menu, into script: inout Script) {
    script.rect(
      x: menu.x, y: menu.y, width: menu.width, height: menu.height,
      color: (Palette.menu.r, Palette.menu.g, Palette.menu.b), opacity: Palette.menu.opacity)
    let textSize = 13 * script.scale
    for item in menu.items {
      if item.isHovered {
        script.rect(
          x: item.x, y: item.y, width: item.width, height: item.height,
          color: (Palette.hover.r, Palette.hover.g, Palette.hover.b), opacity: Palette.hover.opacity
        )
      }
      let left = item.x + 26 * script.scale
      let cy = item.y + item.height / 2
      if item.isHeading {
        script.label(
          item.label, x: item.x + 10 * script.scale, cy: cy, size: textSize, color: Palette.dimmed,
          bold: true)
      } else {
        if item.isSelected {
          script.label(
            "✓", cx: item.x + 14 * script.scale, cy: cy, size: textSize, color: Palette.icon,
            bold: true)
        }
        script.label(item.label, x: left, cy: cy, size: textSize, color: Palette.icon, bold: false)
      }
    }
  }
}
