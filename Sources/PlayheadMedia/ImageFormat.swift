import Foundation

/// A still-image file format Playhead decodes and encodes through FFmpeg.
public enum ImageFormat: String, Sendable, CaseIterable {
  /// JPEG (JFIF): lossy, no transparency; FFmpeg's mjpeg codecs.
  case jpeg
  /// PNG: lossless, with transparency; FFmpeg's png codecs.
  case png

  /// The usual file-name extension, without the dot (`jpg`, `png`).
  public var fileExtension: String {
    switch self {
    case .jpeg: return "jpg"
    case .png: return "png"
    }
  }

  /// The format whose signature `data` starts with, or nil for anything else.
  ///
  /// JPEG starts with `FF D8 FF`, PNG with its eight-byte signature; an empty or shorter
  /// input is nil.
  public static func detect(_ data: Data) -> ImageFormat? {
    if data.starts(with: jpegSignature) { return .jpeg }
    if data.starts(with: pngSignature) { return .png }
    return nil
  }

  static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]
  static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}
