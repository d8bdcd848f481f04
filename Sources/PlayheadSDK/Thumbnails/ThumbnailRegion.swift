import Foundation

/// A rectangle of a thumbnail image (a sprite sheet), from a `#xywh=` media fragment.
///
/// Values are whole numbers, as the W3C Media Fragments spatial dimension allows: pixels
/// (`xywh=160,0,160,90` or `xywh=pixel:160,0,160,90`) or percentages of the image's size
/// (`xywh=percent:25,0,25,50`).
public struct ThumbnailRegion: Sendable, Hashable, CustomStringConvertible {
  /// The unit of a region's numbers.
  public enum Unit: String, Sendable, Hashable {
    /// Pixels of the image.
    case pixel
    /// Percent of the image's width (`x`, `width`) or height (`y`, `height`).
    case percent
  }

  /// The left edge.
  public var x: Int
  /// The top edge.
  public var y: Int
  /// The width; at least 1.
  public var width: Int
  /// The height; at least 1.
  public var height: Int
  /// Pixels or percent.
  public var unit: Unit

  public init(x: Int, y: Int, width: Int, height: Int, unit: Unit = .pixel) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
    self.unit = unit
  }

  /// The fragment as written in a thumbnails file: `xywh=x,y,w,h` for pixels,
  /// `xywh=percent:x,y,w,h` for percentages.
  public var description: String {
    let numbers = "\(x),\(y),\(width),\(height)"
    return unit == .pixel ? "xywh=\(numbers)" : "xywh=percent:\(numbers)"
  }

  /// The region in pixels of a `imageWidth` x `imageHeight` image.
  ///
  /// Pixel regions are returned as they are; percentages are converted with the edges
  /// rounded down (so adjacent percentage tiles meet without a gap or overlap) and at least
  /// one pixel of width and height. Whether the result lies inside the image is for the
  /// caller to check.
  public func pixels(imageWidth: Int, imageHeight: Int) -> ThumbnailRegion {
    guard unit == .percent else { return self }
    func scale(_ value: Double, _ size: Int) -> Int {
      let scaled = (value * Double(size) / 100).rounded(.down)
      return scaled.isFinite ? Int(max(-1e15, min(1e15, scaled))) : 0
    }
    let left = scale(Double(x), imageWidth)
    let top = scale(Double(y), imageHeight)
    let right = scale(Double(x) + Double(width), imageWidth)
    let bottom = scale(Double(y) + Double(height), imageHeight)
    return ThumbnailRegion(
      x: left, y: top, width: max(1, right - left), height: max(1, bottom - top), unit: .pixel)
  }

  /// The largest number accepted in a fragment (larger ones are malformed).
  static let maximumValue = 1 << 24

  /// Parses the spatial part of a media fragment: the `xywh=` dimension among the
  /// `&`-separated `name=value` pairs of `fragment` (without the `#`).
  ///
  /// Returns `.success(nil)` when the fragment has no `xywh` dimension (other dimensions
  /// such as `t=` are ignored), and `.failure` with a one-line reason when it is malformed:
  /// not four comma-separated whole numbers, a negative number, a zero width or height, a
  /// number above 2^24, an unknown unit, a percentage region reaching past 100%, or more
  /// than one `xywh`.
  public static func parse(fragment: String) -> Result<ThumbnailRegion?, ThumbnailRegionError> {
    var found: ThumbnailRegion?
    for pair in fragment.split(separator: "&", omittingEmptySubsequences: true) {
      guard pair.hasPrefix("xywh=") else { continue }
      if found != nil { return .failure(ThumbnailRegionError("more than one xywh dimension")) }
      switch parseValue(pair.dropFirst("xywh=".count)) {
      case .success(let region): found = region
      case .failure(let error): return .failure(error)
      }
    }
    return .success(found)
  }

  private static func parseValue(_ value: Substring) -> Result<
    ThumbnailRegion, ThumbnailRegionError
  > {
    var text = value
    var unit = Unit.pixel
    if let colon = text.firstIndex(of: ":") {
      switch text[text.startIndex..<colon] {
      case "pixel": unit = .pixel
      case "percent": unit = .percent
      case let other:
        return .failure(ThumbnailRegionError("unknown unit '\(other.prefix(20))' in xywh"))
      }
      text = text[text.index(after: colon)...]
    }
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 4 else {
      return .failure(
        ThumbnailRegionError("xywh needs four numbers x,y,w,h; got '\(value.prefix(40))'"))
    }
    var numbers: [Int] = []
    for part in parts {
      guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && $0.isNumber }),
        let number = Int(part), number <= maximumValue
      else {
        return .failure(
          ThumbnailRegionError(
            "xywh values must be whole numbers from 0 to \(maximumValue); got '\(part.prefix(20))'"
          ))
      }
      numbers.append(number)
    }
    let region = ThumbnailRegion(
      x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3], unit: unit)
    guard region.width >= 1, region.height >= 1 else {
      return .failure(ThumbnailRegionError("xywh width and height must be at least 1"))
    }
    if unit == .percent, region.x + region.width > 100 || region.y + region.height > 100 {
      return .failure(ThumbnailRegionError("xywh percentages reach past 100%"))
    }
    return .success(region)
  }
}

/// Why a `#xywh=` fragment could not be read.
public struct ThumbnailRegionError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A one-line reason.
  public let message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
