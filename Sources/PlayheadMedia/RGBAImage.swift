/// An 8-bit RGBA picture: rows top to bottom, four bytes per pixel, no row padding.
///
/// Alpha is straight (not premultiplied).
public struct RGBAImage: Sendable, Equatable {
  public var width: Int
  public var height: Int
  /// `width * height * 4` bytes: R, G, B, A for each pixel, row-major.
  public var pixels: [UInt8]

  /// Wraps `pixels`, which should hold `width * height * 4` bytes.
  public init(width: Int, height: Int, pixels: [UInt8]) {
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// A `width` x `height` image filled with `color` (an empty image for sizes below 1).
  public init(width: Int, height: Int, color: RGBAColor) {
    let count = max(0, width) * max(0, height)
    self.width = max(0, width)
    self.height = max(0, height)
    var pixels = [UInt8](repeating: 0, count: count * 4)
    for index in 0..<count {
      pixels[index * 4] = color.r
      pixels[index * 4 + 1] = color.g
      pixels[index * 4 + 2] = color.b
      pixels[index * 4 + 3] = color.a
    }
    self.pixels = pixels
  }

  /// Whether `pixels` holds exactly `width * height * 4` bytes for a non-empty size.
  public var isWellFormed: Bool {
    width > 0 && height > 0 && pixels.count == width * height * 4
  }

  /// The pixel at column `x`, row `y`; all zero (transparent black) outside the image.
  public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    guard x >= 0, y >= 0, x < width, y < height else { return (0, 0, 0, 0) }
    let offset = (y * width + x) * 4
    guard offset + 3 < pixels.count else { return (0, 0, 0, 0) }
    return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
  }
}

/// An 8-bit RGBA colour with straight alpha.
public struct RGBAColor: Sendable, Equatable {
  public var r: UInt8
  public var g: UInt8
  public var b: UInt8
  public var a: UInt8

  public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }

  /// Opaque black.
  public static let black = RGBAColor(r: 0, g: 0, b: 0, a: 255)
  /// Fully transparent black.
  public static let clear = RGBAColor(r: 0, g: 0, b: 0, a: 0)
}

/// How a picture fills an output of a different shape.
public enum VideoGravity: String, Sendable, CaseIterable {
  /// Keep the aspect ratio and fit inside, with bars of the background colour
  /// (letterbox or pillarbox); like `resizeAspect`.
  case fit
  /// Keep the aspect ratio and cover the output, cropping the centre; like
  /// `resizeAspectFill`.
  case fill
  /// Scale to the output exactly, ignoring the aspect ratio; like `resize`.
  case stretch
}

/// Where a video that carries transparency keeps its alpha mask.
///
/// With a mask, the frame holds the colour picture in one half and a grayscale mask (white =
/// opaque) in the other; the output is the colour half with the mask as its alpha.
public enum AlphaRenderMode: String, Sendable, CaseIterable {
  /// No mask: the whole frame is the picture, fully opaque.
  case none
  /// The mask is the left half; colour is the right half.
  case alphaLeft
  /// The mask is the right half; colour is the left half.
  case alphaRight
  /// The mask is the top half; colour is the bottom half.
  case alphaTop
  /// The mask is the bottom half; colour is the top half.
  case alphaBottom
}
