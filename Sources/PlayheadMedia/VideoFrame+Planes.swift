import CFFmpeg
import PlayheadCore

/// How a decoded picture's pixels lie in memory, for outputs that upload planes as they are.
public enum VideoPlaneLayout: Sendable, Equatable, CaseIterable {
  /// Three 8-bit planes, Y, U and V, with chroma at half width and half height (FFmpeg's
  /// `yuv420p`, SDL's IYUV), limited range.
  case yuv420p
  /// An 8-bit Y plane and one plane of interleaved U and V samples at half width and half
  /// height (FFmpeg's `nv12`), limited range.
  case nv12
  /// Any other layout: RGB, 4:2:2 or 4:4:4, more than 8 bits, full range (`yuvj420p`, or
  /// `yuv420p` tagged full range), or rows stored bottom-up. Convert such a frame with
  /// `PlanarFrameConverter` first.
  case other
}

/// One plane of a decoded picture: its first row and the distance in bytes between rows.
///
/// Valid only inside the `VideoFrame.withPlanes(_:)` call that hands it out.
public struct VideoPlane {
  /// The first byte of the top row.
  public let baseAddress: UnsafePointer<UInt8>
  /// Bytes from the start of one row to the start of the next (at least the row's width).
  public let bytesPerRow: Int
}

extension VideoFrame {
  /// The frame's layout when it is one an output can upload directly, else `.other`.
  ///
  /// Frames with a missing plane, a negative row stride (bottom-up) or tagged full range
  /// are `.other`.
  public var planeLayout: VideoPlaneLayout {
    guard raw.pointee.color_range != AVCOL_RANGE_JPEG else { return .other }
    let planeCount: Int
    switch AVPixelFormat(raw.pointee.format) {
    case AV_PIX_FMT_YUV420P: planeCount = 3
    case AV_PIX_FMT_NV12: planeCount = 2
    default: return .other
    }
    let planes = rawPlanes
    guard planes.count >= planeCount,
      planes.prefix(planeCount).allSatisfy({ $0.pointer != nil && $0.stride > 0 })
    else { return .other }
    return planeCount == 3 ? .yuv420p : .nv12
  }

  /// The width of a pixel relative to its height (1 for square pixels or when unknown).
  public var pixelAspectRatio: Double {
    let aspect = raw.pointee.sample_aspect_ratio
    guard aspect.num > 0, aspect.den > 0 else { return 1 }
    return av_q2d(aspect)
  }

  /// Calls `body` with the planes of a `.yuv420p` (Y, U, V) or `.nv12` (Y, UV) frame.
  ///
  /// A frame of layout `.other` gives an empty array. The planes are valid only during the
  /// call.
  public func withPlanes<Result, Failure: Error>(
    _ body: ([VideoPlane]) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let count: Int
    switch planeLayout {
    case .yuv420p: count = 3
    case .nv12: count = 2
    case .other: count = 0
    }
    let planes = rawPlanes.prefix(count).compactMap { plane -> VideoPlane? in
      guard let pointer = plane.pointer else { return nil }
      return VideoPlane(baseAddress: UnsafePointer(pointer), bytesPerRow: plane.stride)
    }
    defer { withExtendedLifetime(self) {} }
    return try body(planes)
  }

  /// The first three data pointers and strides of the `AVFrame`.
  private var rawPlanes: [(pointer: UnsafeMutablePointer<UInt8>?, stride: Int)] {
    let data = raw.pointee.data
    let sizes = raw.pointee.linesize
    return [(data.0, Int(sizes.0)), (data.1, Int(sizes.1)), (data.2, Int(sizes.2))]
  }
}
