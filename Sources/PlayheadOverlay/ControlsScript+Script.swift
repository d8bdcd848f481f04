import Foundation

extension ControlsScript {
  /// The events of one controls script, each a drawing or a label at an absolute
  /// position, painted in order (later over earlier).
  struct Script {
    typealias Color = (r: Int, g: Int, b: Int)

    /// The scene's opacity, multiplied into every event's.
    var opacity: Double
    var scale: Double
    var events: [String] = []

    init(opacity: Double, scale: Double) {
      self.opacity = max(0, min(1, opacity.isFinite ? opacity : 0))
      self.scale = scale
    }

    /// A filled polygon through `points`.
    mutating func polygon(_ points: [(Double, Double)], color: Color, opacity: Double = 1) {
      guard let first = points.first else { return }
      var path = "m \(n(first.0)) \(n(first.1))"
      for point in points.dropFirst() { path += " l \(n(point.0)) \(n(point.1))" }
      drawing(path, color: color, opacity: opacity)
    }

    /// A filled rectangle (nothing for a zero or negative size).
    mutating func rect(
      x: Double, y: Double, width: Double, height: Double, color: Color, opacity: Double = 1
    ) {
      guard width > 0, height > 0 else { return }
      polygon(
        [(x, y), (x + width, y), (x + width, y + height), (x, y + height)], color: color,
        opacity: opacity)
    }

    /// A rectangle's outline, `line` thick, inside its bounds.
    mutating func frameRect(
      x: Double, y: Double, width: Double, height: Double, line: Double, color: Color
    ) {
      rect(x: x, y: y, width: width, height: line, color: color)
      rect(x: x, y: y + height - line, width: width, height: line, color: color)
      rect(x: x, y: y + line, width: line, height: height - 2 * line, color: color)
      rect(x: x + width - line, y: y + line, width: line, height: height - 2 * line, color: color)
    }

    /// A filled circle, four Bézier quarters.
    mutating func circle(cx: Double, cy: Double, radius: Double, color: Color, opacity: Double = 1)
    {
      guard radius > 0 else { return }
      drawing(
        Self.circlePath(cx: cx, cy: cy, radius: radius, clockwise: true), color: color,
        opacity: opacity)
    }

    /// A ring `width` thick; with `gap`, its upper-left quarter is left open (a
    /// jump-back arrow's arc).
    mutating func ring(
      cx: Double, cy: Double, radius: Double, width: Double, color: Color, gap: Bool
    ) {
      let outer = radius
      let inner = max(0, radius - width)
      if !gap {
        drawing(
          Self.circlePath(cx: cx, cy: cy, radius: outer, clockwise: true) + " "
            + Self.circlePath(cx: cx, cy: cy, radius: inner, clockwise: false), color: color,
          opacity: 1)
        return
      }
      // Three quarters from the top, clockwise, then back along the inner edge.
      let k = 0.5523
      let o = outer
      let i = inner
      let path = [
        "m \(n(cx)) \(n(cy - o))",
        "b \(n(cx + o * k)) \(n(cy - o)) \(n(cx + o)) \(n(cy - o * k)) \(n(cx + o)) \(n(cy))",
        "b \(n(cx + o)) \(n(cy + o * k)) \(n(cx + o * k)) \(n(cy + o)) \(n(cx)) \(n(cy + o))",
        "b \(n(cx - o * k)) \(n(cy + o)) \(n(cx - o)) \(n(cy + o * k)) \(n(cx - o)) \(n(cy))",
        "l \(n(cx - i)) \(n(cy))",
        "b \(n(cx - i)) \(n(cy + i * k)) \(n(cx - i * k)) \(n(cy + i)) \(n(cx)) \(n(cy + i))",
        "b \(n(cx + i * k)) \(n(cy + i)) \(n(cx + i)) \(n(cy + i * k)) \(n(cx + i)) \(n(cy))",
        "b \(n(cx + i)) \(n(cy - i * k)) \(n(cx + i * k)) \(n(cy - i)) \(n(cx)) \(n(cy - i))",
      ].joined(separator: " ")
      drawing(path, color: color, opacity: 1)
    }

    /// Text centred on a point.
    mutating func label(
      _ text: String, cx: Double, cy: Double, size: Double, color: Color, bold: Bool
    ) {
      event(
        alignment: 5, x: cx, y: cy, color: color, opacity: 1,
        extra: "\\fs\(n(size))\\b\(bold ? 1 : 0)", body: Self.escape(text))
    }

    /// Text starting at `x`, centred vertically on `cy`.
    mutating func label(
      _ text: String, x: Double, cy: Double, size: Double, color: Color, bold: Bool
    ) {
      event(
        alignment: 4, x: x, y: cy, color: color, opacity: 1,
        extra: "\\fs\(n(size))\\b\(bold ? 1 : 0)", body: Self.escape(text))
    }

    private mutating func drawing(_ path: String, color: Color, opacity: Double) {
      event(alignment: 7, x: 0, y: 0, color: color, opacity: opacity, extra: "\\p1", body: path)
    }

    private mutating func event(
      alignment: Int, x: Double, y: Double, color: Color, opacity itemOpacity: Double,
      extra: String,
      body: String
    ) {
      let alpha = 255 - Int((self.opacity * max(0, min(1, itemOpacity)) * 255).rounded())
      guard alpha < 255 else { return }
      let colour = String(format: "&H%02X%02X%02X&", color.b, color.g, color.r)
      let tags = String(
        format: "\\an%d\\pos(%@,%@)\\bord0\\shad0\\1c%@\\1a&H%02X&", alignment, n(x), n(y), colour,
        alpha)
      events.append("Dialogue: 0,0:00:00.00,9:59:59.99,Default,,0,0,0,,{\(tags)\(extra)}\(body)")
    }

    /// The whole script for a view `width` x `height`.
    func text(width: Double, height: Double, font: String) -> String {
      let lines = [
        "[Script Info]", "ScriptType: v4.00+", "PlayResX: \(Int(width.rounded()))",
        "PlayResY: \(Int(height.rounded()))", "WrapStyle: 2", "ScaledBorderAndShadow: yes", "",
        "[V4+ Styles]",
        "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, "
          + "BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, "
          + "BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding",
        "Style: Default,\(font.replacingOccurrences(of: ",", with: " ")),14,&H00FFFFFF,&H00FFFFFF,"
          + "&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,0,0,7,0,0,0,1",
        "", "[Events]",
        "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
      ]
      return (lines + events).joined(separator: "\n") + "\n"
    }

    static func circlePath(cx: Double, cy: Double, radius r: Double, clockwise: Bool) -> String {
      let k = 0.5523 * r
      if clockwise {
        return
          "m \(n(cx)) \(n(cy - r)) b \(n(cx + k)) \(n(cy - r)) \(n(cx + r)) \(n(cy - k)) \(n(cx + r)) \(n(cy))"
          + " b \(n(cx + r)) \(n(cy + k)) \(n(cx + k)) \(n(cy + r)) \(n(cx)) \(n(cy + r))"
          + " b \(n(cx - k)) \(n(cy + r)) \(n(cx - r)) \(n(cy + k)) \(n(cx - r)) \(n(cy))"
          + " b \(n(cx - r)) \(n(cy - k)) \(n(cx - k)) \(n(cy - r)) \(n(cx)) \(n(cy - r))"
      }
      return
        "m \(n(cx)) \(n(cy - r)) b \(n(cx - k)) \(n(cy - r)) \(n(cx - r)) \(n(cy - k)) \(n(cx - r)) \(n(cy))"
        + " b \(n(cx - r)) \(n(cy + k)) \(n(cx - k)) \(n(cy + r)) \(n(cx)) \(n(cy + r))"
        + " b \(n(cx + k)) \(n(cy + r)) \(n(cx + r)) \(n(cy + k)) \(n(cx + r)) \(n(cy))"
        + " b \(n(cx + r)) \(n(cy - k)) \(n(cx + k)) \(n(cy - r)) \(n(cx)) \(n(cy - r))"
    }

    /// Text with ASS's override braces and line breaks made harmless.
    static func escape(_ text: String) -> String {
      var output = ""
      for character in text {
        switch character {
        case "\n", "\r\n", "\r": output += " "
        case "\\": output += "\\\u{2060}"
        case "{": output += "\\{"
        case "}": output += "\\}"
        default: output.append(character)
        }
      }
      return output
    }
  }
}

/// A coordinate with two decimals, as ASS reads them.
private func n(_ value: Double) -> String {
  String(format: "%.2f", value.isFinite ? value : 0)
}
