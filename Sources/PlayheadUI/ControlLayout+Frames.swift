/// Where one layout view sits in the control area, in pixels from the area's top-left.
public struct ControlFrame: Sendable, Hashable {
  /// The layout view's id.
  public var id: String
  /// The control it holds.
  public var tag: ControlTag
  /// The row, 0 for the top one.
  public var row: Int
  /// Left edge.
  public var x: Double
  /// Top edge.
  public var y: Double
  /// Width (may be 0 for an elastic view squeezed out or a zero-width spacer).
  public var width: Double
  /// Height: the scaled `controlBarHeight`.
  public var height: Double

  /// Whether the point lies inside the frame (left and top edges included).
  public func contains(x px: Double, y py: Double) -> Bool {
    px >= x && px < x + width && py >= y && py < y + height
  }
}

extension ControlLayout {
  /// The frames of the views a control area `width` pixels wide shows at `scale`: the
  /// compact or standard rows, each laid out by `frames(ofRow:width:spacing:)`.
  ///
  /// Widths, heights and spacing are multiplied by `scale` (a non-positive or non-finite
  /// scale counts as 1). Rows are `controlBarHeight × scale` tall, the top row at y = 0.
  public func frames(forWidth width: Double, scale: Double = 1) -> [ControlFrame] {
    let factor = Self.validScale(scale)
    let rows = rows(forWidth: width, scale: factor)
    let height = max(0, controlBarHeight) * factor
    var frames: [ControlFrame] = []
    for (rowIndex, row) in rows.enumerated() {
      let scaled = row.map { view -> ControlLayoutView in
        var copy = view
        copy.width = view.baseWidth * factor
        return copy
      }
      let spans = Self.frames(
        ofRow: scaled, width: width, spacing: max(0, horizontalItemSpacing) * factor)
      for span in spans {
        frames.append(
          ControlFrame(
            id: span.view.id, tag: span.view.tag, row: rowIndex, x: span.x,
            y: Double(rowIndex) * height, width: span.width, height: height))
      }
    }
    return frames
  }

  /// The height of the control area at `scale` for a view `width` pixels wide: its
  /// number of rows times the scaled bar height.
  public func controlAreaHeight(forWidth width: Double, scale: Double = 1) -> Double {
    let factor = Self.validScale(scale)
    return Double(rows(forWidth: width, scale: factor).count) * max(0, controlBarHeight) * factor
  }

  /// The seed's elastic rule for one row `width` pixels wide: fixed widths first, then
  /// the space left shared among the views with elasticity above 0 in proportion to
  /// their elasticity; removed views take no space.
  ///
  /// Views are placed from the row's left edge, `spacing` apart, in order. With no
  /// elastic view the space left stays empty at the right. When the widths and spacing
  /// exceed the row, elastic views give up width in proportion to their elasticity, down
  /// to 0 (a view that reaches 0 stops shrinking and the rest share the remainder); if
  /// the row is still too wide, views are dropped from its end until the rest fit, so
  /// no view is ever drawn past the right edge. Returns each remaining view with its
  /// left edge and width.
  public static func frames(ofRow row: [ControlLayoutView], width: Double, spacing: Double)
    -> [(view: ControlLayoutView, x: Double, width: Double)]
  {
    let rowWidth = width.isFinite ? max(0, width) : 0
    let gap = spacing.isFinite ? max(0, spacing) : 0
    var views = row.filter { !$0.isRemoved }
    var widths = views.map(\.baseWidth)
    func spare() -> Double {
      rowWidth - widths.reduce(0, +) - gap * Double(max(0, views.count - 1))
    }
    let free = spare()
    let elastic = views.indices.filter { views[$0].effectiveElasticity > 0 }
    if free > 0 {
      let total = elastic.reduce(0) { $0 + views[$1].effectiveElasticity }
      for index in elastic where total > 0 {
        widths[index] += free * views[index].effectiveElasticity / total
      }
    } else if free < 0 {
      shrink(&widths, elastic: elastic, views: views, by: -free)
    }
    while !views.isEmpty && spare() < -1e-9 {
      views.removeLast()
      widths.removeLast()
    }
    var x = 0.0
    var placed: [(view: ControlLayoutView, x: Double, width: Double)] = []
    for (view, viewWidth) in zip(views, widths) {
      placed.append((view, x, viewWidth))
      x += viewWidth + gap
    }
    return placed
  }

  /// Takes `deficit` pixels from the elastic views in proportion to their elasticity,
  /// none below 0.
  private static func shrink(
    _ widths: inout [Double], elastic: [Int], views: [ControlLayoutView], by deficit: Double
  ) {
    var remaining = deficit
    var active = elastic.filter { widths[$0] > 0 }
    while remaining > 1e-9 && !active.isEmpty {
      let total = active.reduce(0) { $0 + views[$1].effectiveElasticity }
      var taken = 0.0
      var exhausted: [Int] = []
      for index in active {
        let share = remaining * views[index].effectiveElasticity / total
        let cut = min(share, widths[index])
        widths[index] -= cut
        taken += cut
        if widths[index] <= 1e-9 {
          widths[index] = 0
          exhausted.append(index)
        }
      }
      remaining -= taken
      if exhausted.isEmpty { break }
      active.removeAll { exhausted.contains($0) }
    }
  }
}
