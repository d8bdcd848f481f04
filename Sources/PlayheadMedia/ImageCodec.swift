import CFFmpeg
import Foundation
import PlayheadCore

/// Decodes JPEG and PNG files to RGBA images and encodes RGBA images as JPEG or PNG, all
/// through FFmpeg's image codecs.
///
/// The decoders get the whole file as one packet and run with FFmpeg's strictest error
/// detection, so a truncated or corrupt file throws instead of giving a half-grey picture.
///
/// ```swift
/// let sheet = try ImageCodec.decode(try Data(contentsOf: spriteURL))
/// let tile = try sheet.cropped(x: 160, y: 0, width: 160, height: 90)
/// let jpeg = try ImageCodec.encode(tile, as: .jpeg)
/// ```
public enum ImageCodec {
  /// The largest width or height accepted, in pixels, decoding or encoding.
  public static let maximumSide = 16384
  /// The most pixels a decoded picture may have (8192 x 8192, 256 MiB as RGBA); larger
  /// pictures are refused before they are decoded.
  public static let maximumPixelCount = 8192 * 8192

  /// Decodes a JPEG or PNG file (told apart by its signature) to RGBA.
  ///
  /// JPEGs and PNGs without alpha come out opaque. Throws `.emptySource` for no bytes,
  /// `.unsupportedFormat` for bytes that are neither JPEG nor PNG or for a picture wider or
  /// taller than `maximumSide`, and `.decodeFailed` for a truncated or corrupt file or one
  /// of more than `maximumPixelCount` pixels.
  public static func decode(_ data: Data) throws(PlayheadError) -> RGBAImage {
    if data.isEmpty { throw PlayheadError(.emptySource, "The image data is empty") }
    guard let format = ImageFormat.detect(data) else {
      throw PlayheadError(
        .unsupportedFormat, "The data is neither a JPEG nor a PNG image (no known signature)")
    }
    return try decode(data, as: format)
  }

  /// Decodes `data` as `format` (no signature check beyond the decoder's own).
  ///
  /// Throws as `decode(_:)`.
  public static func decode(_ data: Data, as format: ImageFormat) throws(PlayheadError)
    -> RGBAImage
  {
    if data.isEmpty { throw PlayheadError(.emptySource, "The image data is empty") }
    let decoder = try StillImageDecoder(format: format)
    let frame = try decoder.decode(data)
    guard frame.width >= 1, frame.height >= 1 else {
      throw PlayheadError(.decodeFailed, "The \(format.rawValue) image has no pixels")
    }
    guard frame.width <= maximumSide, frame.height <= maximumSide else {
      throw PlayheadError(
        .unsupportedFormat,
        "The \(frame.width)x\(frame.height) \(format.rawValue) image is larger than "
          + "\(maximumSide) pixels on a side")
    }
    return try VideoConverter().convert(frame, width: nil, height: nil, gravity: .stretch)
  }

  /// Encodes `image` as `format`.
  ///
  /// `quality` (0...1, default 0.85) applies to JPEG only: 1 is the best FFmpeg offers
  /// (quantiser 2), 0 the worst (31); values outside are clamped, NaN means the default.
  /// JPEG drops the alpha channel (straight alpha: the colour is kept as it is). Throws
  /// `.invalidArgument` for an image whose pixel count does not match its size or with a
  /// side above `maximumSide`, `.decodeFailed` when the encoder fails.
  public static func encode(_ image: RGBAImage, as format: ImageFormat, quality: Double = 0.85)
    throws(PlayheadError) -> Data
  {
    guard image.isWellFormed, image.width <= maximumSide, image.height <= maximumSide else {
      throw PlayheadError(
        .invalidArgument,
        "Cannot encode a \(image.width)x\(image.height) image holding \(image.pixels.count) bytes")
    }
    switch format {
    case .png:
      return try PNGCodec.encode(image)
    case .jpeg:
      let encoder = try JPEGEncoder(
        width: image.width, height: image.height, quality: quality.isNaN ? 0.85 : quality)
      return try encoder.encode(image)
    }
  }
}
