/// The settings of a cue (`vertical`, `line`, `position`, `size`, `align`, `region`), as
/// parsed from its timing line.
///
/// A nil property is a setting that was absent or ignored; the WebVTT defaults then apply:
/// horizontal text, automatic line and position, 100% size, centred text, no region.
/// Percentages are numbers from 0 to 100.
public struct WebVTTCueSettings: Sendable, Equatable {
  /// The writing direction of vertical text (`vertical:rl` or `vertical:lr`).
  public enum Vertical: String, Sendable, CaseIterable {
    /// Vertical text whose lines grow to the left.
    case rl
    /// Vertical text whose lines grow to the right.
    case lr
  }

  /// Where the line position counts from, for `line:…,start|center|end`.
  public enum LineAlignment: String, Sendable, CaseIterable {
    case start
    case center
    case end
  }

  /// Which point of the cue box the position refers to, for
  /// `position:…,line-left|center|line-right`.
  public enum PositionAlignment: String, Sendable, CaseIterable {
    case lineLeft = "line-left"
    case center
    case lineRight = "line-right"
  }

  /// How the text is aligned in its box (`align:…`).
  public enum TextAlignment: String, Sendable, CaseIterable {
    case start
    case center
    case end
    case left
    case right
  }

  /// The value of a `line` setting: a line number (`line:-1`, snapping to lines) or a
  /// percentage of the video's height or width (`line:90%`).
  public enum LinePosition: Sendable, Equatable {
    /// A line number; negative numbers count from the end. Fractions are allowed.
    case number(Double)
    /// A percentage from 0 to 100.
    case percentage(Double)
  }

  /// A `line` setting: its position and, when written, its alignment.
  public struct Line: Sendable, Equatable {
    public let position: LinePosition
    public let alignment: LineAlignment?

    public init(_ position: LinePosition, alignment: LineAlignment? = nil) {
      self.position = position
      self.alignment = alignment
    }
  }

  /// A `position` setting: a percentage and, when written, its alignment.
  public struct Position: Sendable, Equatable {
    /// The percentage, from 0 to 100.
    public let percentage: Double
    public let alignment: PositionAlignment?

    public init(_ percentage: Double, alignment: PositionAlignment? = nil) {
      self.percentage = percentage
      self.alignment = alignment
    }
  }

  /// `vertical`; nil for horizontal text.
  public let vertical: Vertical?
  /// `line`; nil for automatic placement.
  public let line: Line?
  /// `position`; nil for automatic placement.
  public let position: Position?
  /// `size`, a percentage; nil for the default 100.
  public let size: Double?
  /// `align`; nil for the default, centred.
  public let align: TextAlignment?
  /// `region`, the identifier of a region of the document; nil when absent.
  ///
  /// The parser keeps it only when such a region is defined and the cue is not placed by
  /// itself (no `vertical`, no `line`, a `size` of 100 or none), as the WebVTT rules say.
  public let region: String?

  public init(
    vertical: Vertical? = nil, line: Line? = nil, position: Position? = nil,
    size: Double? = nil, align: TextAlignment? = nil, region: String? = nil
  ) {
    self.vertical = vertical
    self.line = line
    self.position = position
    self.size = size
    self.align = align
    self.region = region
  }

  /// No settings: every default applies.
  public static let none = WebVTTCueSettings()

  /// Whether no setting is present.
  public var isEmpty: Bool { self == .none }
}
