import Foundation
import PlayheadMedia

/// What `ThumbnailGenerator` makes: how often, how big, single images or sprite sheets,
/// which image format.
public struct ThumbnailGeneratorOptions: Sendable, Equatable {
  /// A sprite sheet layout: `columns` x `rows` thumbnails per sheet.
  public struct SpriteGrid: Sendable, Equatable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
      self.columns = columns
      self.rows = rows
    }

    /// Parses `COLSxROWS` (`5x5`, `10X4`): each 1...100; nil otherwise.
    public init?(_ text: String) {
      let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
      guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
        (1...100).contains(columns), (1...100).contains(rows)
      else { return nil }
      self.init(columns: columns, rows: rows)
    }

    /// `COLSxROWS`.
    public var description: String { "\(columns)x\(rows)" }

    /// Thumbnails per sheet.
    public var capacity: Int { columns * rows }
  }

  /// Seconds between thumbnails: one cue every `intervalSeconds` (at least 0.001).
  public var intervalSeconds: Double
  /// The thumbnails' width in pixels (1...4096); the height keeps the picture's aspect
  /// ratio (non-square pixels included). Default 160.
  public var width: Int
  /// Sprite sheets of this layout, or nil for one image file per thumbnail.
  public var sprite: SpriteGrid?
  /// The image format (default JPEG).
  public var format: ImageFormat
  /// The JPEG quality, 0...1 (default 0.85); ignored for PNG.
  public var quality: Double
  /// The most thumbnails one run may make (default 100,000).
  public var maximumThumbnails: Int

  public init(
    intervalSeconds: Double, width: Int = 160, sprite: SpriteGrid? = nil,
    format: ImageFormat = .jpeg, quality: Double = 0.85, maximumThumbnails: Int = 100_000
  ) {
    self.intervalSeconds = intervalSeconds
    self.width = width
    self.sprite = sprite
    self.format = format
    self.quality = quality
    self.maximumThumbnails = maximumThumbnails
  }

  /// The options' problem as a one-line reason, or nil when they are usable.
  var problem: String? {
    if !intervalSeconds.isFinite || intervalSeconds < 0.001 {
      return "the interval must be at least 0.001 s (got \(intervalSeconds))"
    }
    if !(1...4096).contains(width) { return "the width must be 1...4096 (got \(width))" }
    if let sprite, !(1...100).contains(sprite.columns) || !(1...100).contains(sprite.rows) {
      return "a sprite grid needs 1...100 columns and rows (got \(sprite))"
    }
    if maximumThumbnails < 1 { return "the thumbnail limit must be at least 1" }
    return nil
  }
}
