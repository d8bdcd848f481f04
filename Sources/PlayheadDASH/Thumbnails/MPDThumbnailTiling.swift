import Foundation
import PlayheadCore

extension MPDDescriptor {
  /// The DASH-IF thumbnail tile schemes (IOP 6.2.6): `http://dashif.org/thumbnail_tile` and
  /// the `…/guidelines/thumbnail_tile` spelling.
  public static let thumbnailTileSchemes: Set<String> = [
    "http://dashif.org/thumbnail_tile", "http://dashif.org/guidelines/thumbnail_tile",
  ]

  /// Whether this descriptor is a DASH-IF thumbnail tile descriptor.
  public var isThumbnailTile: Bool { Self.thumbnailTileSchemes.contains(schemeIDURI) }
}

/// How the images of a DASH-IF thumbnail Representation are cut into thumbnails: each
/// segment is one image of `columns` x `rows` tiles of `tileWidth` x `tileHeight` pixels,
/// which cover the segment's duration in equal parts in row-major order (left to right,
/// then top to bottom).
///
/// Read from the descriptor's `@value` (`"COLSxROWS"`, `"10x1"`) and the Representation's
/// `@width` and `@height` (the whole image): the tile size is `width / columns` by
/// `height / rows`, rounded down.
///
/// ```swift
/// let tiling = try set.thumbnailTiling(of: representation, path: path)
/// let (x, y) = tiling.origin(ofTile: 7)   // for 5x2 tiles of 64x36: (128, 36)
/// ```
public struct MPDThumbnailTiling: Sendable, Hashable {
  /// The largest number of tiles in one image (a 100x100 grid); more is refused.
  public static let maximumTiles = 10_000
  /// The largest image side read, in pixels (2^24).
  public static let maximumImageSide = 1 << 24

  public let columns: Int
  public let rows: Int
  public let tileWidth: Int
  public let tileHeight: Int

  /// How many tiles an image holds.
  public var tileCount: Int { columns * rows }

  /// Reads a tiling from a descriptor value and the image size.
  ///
  /// Throws an `MPDError` at `path` when the value is not two whole numbers from 1
  /// joined by `x` (case-insensitive, white space around the value allowed), when the grid
  /// has more than `maximumTiles` tiles, when the width or height is missing, zero, or
  /// above `maximumImageSide`, or when a tile would be under one pixel.
  public init(value: String?, width: Int?, height: Int?, path: String) throws(MPDError) {
    let text = (value ?? "").trimmingCharacters(in: .whitespaces)
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    let quoted = text.count > 40 ? "\(text.prefix(40))…" : text
    guard parts.count == 2,
      parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy(\.isASCII) }),
      let columns = Int(parts[0]), let rows = Int(parts[1])
    else {
      throw MPDError(path: path, "thumbnail_tile value '\(quoted)' is not a grid COLSxROWS")
    }
    guard columns >= 1, rows >= 1 else {
      throw MPDError(path: path, "the thumbnail grid '\(quoted)' has no tiles")
    }
    guard columns * rows <= Self.maximumTiles else {
      throw MPDError(
        path: path, "the thumbnail grid '\(quoted)' has more than \(Self.maximumTiles) tiles")
    }
    guard let width, let height, width >= 1, height >= 1 else {
      throw MPDError(path: path, "a thumbnail Representation needs @width and @height")
    }
    guard width <= Self.maximumImageSide, height <= Self.maximumImageSide else {
      throw MPDError(path: path, "the thumbnail image \(width)x\(height) is too large")
    }
    guard width / columns >= 1, height / rows >= 1 else {
      throw MPDError(
        path: path, "\(width)x\(height) cut into \(columns)x\(rows) gives tiles under a pixel")
    }
    self.columns = columns
    self.rows = rows
    self.tileWidth = width / columns
    self.tileHeight = height / rows
  }

  /// The top-left corner of tile `index` (from 0, row-major), in pixels of the image.
  public func origin(ofTile index: Int) -> (x: Int, y: Int) {
    ((index % columns) * tileWidth, (index / columns) * tileHeight)
  }
}

extension MPDAdaptationSet {
  /// The thumbnail tile descriptor that applies to `representation`: its own (essential,
  /// then supplemental), else the set's; nil when neither has one.
  public func thumbnailTileDescriptor(of representation: MPDRepresentation) -> MPDDescriptor? {
    let own = representation.essentialProperties + representation.supplementalProperties
    return own.first(where: \.isThumbnailTile)
      ?? (essentialProperties + supplementalProperties).first(where: \.isThumbnailTile)
  }

  /// The tiling of `representation`'s images, from the descriptor that applies to it and
  /// its size; `path` is the Representation's element path, for errors.
  ///
  /// Throws as `MPDThumbnailTiling.init(value:width:height:path:)`, and when no descriptor
  /// applies.
  public func thumbnailTiling(of representation: MPDRepresentation, path: String)
    throws(MPDError) -> MPDThumbnailTiling
  {
    guard let descriptor = thumbnailTileDescriptor(of: representation) else {
      throw MPDError(path: path, "no thumbnail_tile descriptor")
    }
    return try MPDThumbnailTiling(
      value: descriptor.value, width: representation.width, height: representation.height,
      path: path)
  }
}
