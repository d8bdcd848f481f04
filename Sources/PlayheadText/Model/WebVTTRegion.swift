/// A WebVTT region (a `REGION` block): an area of the video that cues can be placed in,
/// which scrolls as cues are added.
///
/// Properties not written in the block have the WebVTT defaults: width 100%, 3 lines,
/// both anchors at (0%, 100%), no scrolling.
public struct WebVTTRegion: Sendable, Equatable {
  /// How the region scrolls when a cue is added.
  public enum Scroll: String, Sendable, CaseIterable {
    /// Cues appear in place (the default).
    case none
    /// Cues are added at the bottom and push earlier ones up (`scroll:up`).
    case up
  }

  /// A point as two percentages (0 to 100) of a width and a height.
  public struct Anchor: Sendable, Equatable {
    public let x: Double
    public let y: Double

    public init(x: Double, y: Double) {
      self.x = x
      self.y = y
    }

    /// (0%, 100%), the default of both anchors.
    public static let bottomLeft = Anchor(x: 0, y: 100)
  }

  /// The identifier cues name in their `region` setting; never empty in a parsed document.
  public let id: String
  /// The width, a percentage of the video's width.
  public let width: Double
  /// The height, in lines of text.
  public let lines: Int
  /// The point of the region that is placed at `viewportAnchor` (`regionanchor`), as
  /// percentages of the region's width and height.
  public let regionAnchor: Anchor
  /// Where the region's anchor sits (`viewportanchor`), as percentages of the video's
  /// width and height.
  public let viewportAnchor: Anchor
  /// `scroll`.
  public let scroll: Scroll

  public init(
    id: String, width: Double = 100, lines: Int = 3, regionAnchor: Anchor = .bottomLeft,
    viewportAnchor: Anchor = .bottomLeft, scroll: Scroll = .none
  ) {
    self.id = id
    self.width = width
    self.lines = lines
    self.regionAnchor = regionAnchor
    self.viewportAnchor = viewportAnchor
    self.scroll = scroll
  }
}
