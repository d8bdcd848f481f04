/// One control of a control bar with its width and elasticity (`BCOVPUILayoutView`).
///
/// The same view (the same `id`) may sit in a layout's standard rows and in its compact
/// rows, as in the seed's custom layout; `ControlLayout.setRemoved(_:id:)` then removes
/// it from both. A removed view takes no space and no spacing.
///
/// ```swift
/// let slider = ControlLayoutView(tag: .progressSlider, elasticity: 1)
/// let logo = ControlLayoutView(id: "logo", tag: .empty, width: 88, elasticity: 1)
/// ```
public struct ControlLayoutView: Sendable, Hashable, Identifiable {
  /// Names the view within its layout; defaults to the tag's raw value, so give spacers
  /// and logos their own ids when a layout has more than one empty view.
  public var id: String
  /// Which control the view holds.
  public var tag: ControlTag
  /// The width at scale 1 in pixels; nil uses the tag's `defaultWidth` (the seed's
  /// `kBCOVPUILayoutUseDefaultValue`). Negative and non-finite widths count as 0.
  public var width: Double?
  /// How much of the row's spare space the view takes (or gives up when the row is too
  /// narrow), in proportion to the other elastic views of its row; 0 keeps the width.
  /// Negative and non-finite values count as 0.
  public var elasticity: Double
  /// Whether the view is left out of its rows (`isRemoved`).
  public var isRemoved: Bool

  /// A layout view for `tag`.
  public init(
    id: String? = nil, tag: ControlTag, width: Double? = nil, elasticity: Double = 0,
    isRemoved: Bool = false
  ) {
    self.id = id ?? tag.rawValue
    self.tag = tag
    self.width = width
    self.elasticity = elasticity
    self.isRemoved = isRemoved
  }

  /// The width the arithmetic starts from: `width` or the tag's default, at least 0.
  public var baseWidth: Double {
    let given = width ?? tag.defaultWidth
    return given.isFinite ? max(0, given) : 0
  }

  /// The elasticity the arithmetic uses: at least 0.
  public var effectiveElasticity: Double {
    elasticity.isFinite ? max(0, elasticity) : 0
  }
}
