/// The controls of a player UI: rows of layout views for standard widths and for compact
/// ones, with the bar's height and spacing (`BCOVPUIControlLayout`).
///
/// The controls use `compactRows` when the view is narrower than
/// `compactLayoutMaximumWidth` (both at scale 1), else `standardRows`. Each row is one
/// control bar of `controlBarHeight`; rows stack from the top of the control area down.
/// A layout is a value: change a copy and install it on the controls to change what
/// shows (the seed's `setNeedsLayout`).
public struct ControlLayout: Sendable, Hashable {
  /// The rows for standard widths, top row first.
  public var standardRows: [[ControlLayoutView]]
  /// The rows for compact widths, top row first.
  public var compactRows: [[ControlLayoutView]]
  /// The height of each row at scale 1 in pixels (default 40).
  public var controlBarHeight: Double
  /// The space between neighbouring views of a row at scale 1 in pixels (default 8).
  public var horizontalItemSpacing: Double
  /// Views narrower than this (at scale 1, in pixels) use the compact rows (default 500).
  public var compactLayoutMaximumWidth: Double

  /// A layout of the given rows.
  public init(
    standardRows: [[ControlLayoutView]], compactRows: [[ControlLayoutView]],
    controlBarHeight: Double = 40, horizontalItemSpacing: Double = 8,
    compactLayoutMaximumWidth: Double = 500
  ) {
    self.standardRows = standardRows
    self.compactRows = compactRows
    self.controlBarHeight = controlBarHeight
    self.horizontalItemSpacing = horizontalItemSpacing
    self.compactLayoutMaximumWidth = compactLayoutMaximumWidth
  }

  /// Whether a view `width` pixels wide at `scale` uses the compact rows.
  public func usesCompactRows(forWidth width: Double, scale: Double = 1) -> Bool {
    width < compactLayoutMaximumWidth * Self.validScale(scale)
  }

  /// The rows a view `width` pixels wide at `scale` uses.
  public func rows(forWidth width: Double, scale: Double = 1) -> [[ControlLayoutView]] {
    usesCompactRows(forWidth: width, scale: scale) ? compactRows : standardRows
  }

  /// Removes (or brings back) every view with `id`, in the standard and compact rows.
  public mutating func setRemoved(_ removed: Bool, id: String) {
    for row in standardRows.indices {
      for index in standardRows[row].indices where standardRows[row][index].id == id {
        standardRows[row][index].isRemoved = removed
      }
    }
    for row in compactRows.indices {
      for index in compactRows[row].indices where compactRows[row][index].id == id {
        compactRows[row][index].isRemoved = removed
      }
    }
  }

  /// Removes (or brings back) every view holding `tag`.
  public mutating func setRemoved(_ removed: Bool, tag: ControlTag) {
    let ids = Set((standardRows + compactRows).joined().filter { $0.tag == tag }.map(\.id))
    for id in ids { setRemoved(removed, id: id) }
  }

  /// The view with `id`, from the standard rows first.
  public func view(id: String) -> ControlLayoutView? {
    (standardRows + compactRows).joined().first { $0.id == id }
  }

  /// Every tag the layout holds (standard or compact), removed or not.
  public var tags: Set<ControlTag> {
    Set((standardRows + compactRows).joined().map(\.tag))
  }

  static func validScale(_ scale: Double) -> Double {
    scale.isFinite && scale > 0 ? scale : 1
  }
}
