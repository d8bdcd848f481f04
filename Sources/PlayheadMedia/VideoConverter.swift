import CFFmpeg
import Foundation
import PlayheadCore

/// Converts decoded frames to RGBA images: scaling, gravity, background and alpha masks.
///
/// Safe to call from several threads (calls are serialised by a lock); keep one converter
/// per output to reuse its scaler between frames.
///
/// ```swift
/// let image = try converter.convert(frame, width: 200, height: 200, gravity: .fit)
/// ```
public final class VideoConverter: Sendable {
  private let scalers = Locked(Scalers())

  /// The two scalers a conversion uses, reachable only under the lock.
  private struct Scalers: @unchecked Sendable {
    // Unchecked Sendable: a `FrameScaler` holds FFmpeg pointers, which are not Sendable;
    // it is only used inside the `Locked` that holds it.
    let colour = FrameScaler()
    let mask = FrameScaler()
  }

  public init() {}

  /// Converts `frame` to RGBA at `width` x `height`.
  ///
  /// A nil size is the natural size (the colour half for alpha modes, widened for
  /// non-square pixels); with one side nil the other keeps the aspect ratio. `fit`
  /// letterboxes or pillarboxes with `background`, `fill` covers the output and crops the
  /// centre, `stretch` ignores the aspect ratio. With an alpha mode, the colour half gets
  /// its alpha from the grayscale mask in the other half. Throws `.invalidArgument` for a
  /// size below 1 or above 16384, `.decodeFailed` for a pixel format swscale cannot read.
  public func convert(
    _ frame: VideoFrame, width: Int?, height: Int?, gravity: VideoGravity = .fit,
    alphaMode: AlphaRenderMode = .none, background: RGBAColor = .black
  ) throws(PlayheadError) -> RGBAImage {
    try scalers.withLock { (scalers) throws(PlayheadError) -> RGBAImage in
      let raw = frame.raw
      let aspect = raw.pointee.sample_aspect_ratio
      let pixelAspect = aspect.num > 0 && aspect.den > 0 ? av_q2d(aspect) : 1
      guard
        let layout = ConversionLayout(
          frameWidth: Int(raw.pointee.width), frameHeight: Int(raw.pointee.height),
          pixelAspect: pixelAspect, width: width, height: height, gravity: gravity,
          alphaMode: alphaMode)
      else {
        throw PlayheadError(
          .invalidArgument,
          "Cannot convert a \(frame.width)x\(frame.height) frame to "
            + "\(width.map(String.init) ?? "natural")x\(height.map(String.init) ?? "natural")"
            + " (\(alphaMode.rawValue)); sides must be 1...\(ConversionLayout.maximumSide)")
      }
      let content = layout.content
      try scalers.colour.scale(
        raw, region: layout.colour, width: content.width, height: content.height,
        format: AV_PIX_FMT_RGBA, bytesPerPixel: 4)
      if let mask = layout.mask {
        try scalers.mask.scale(
          raw, region: mask, width: content.width, height: content.height,
          format: AV_PIX_FMT_GRAY8, bytesPerPixel: 1)
      }
      return Self.compose(
        layout, scalers: scalers, hasMask: layout.mask != nil, background: background)
    }
  }

  /// Builds the output image: background bars, the scaled picture, then mask alpha.
  private static func compose(
    _ layout: ConversionLayout, scalers: Scalers, hasMask: Bool, background: RGBAColor
  ) -> RGBAImage {
    let width = layout.outputWidth
    let height = layout.outputHeight
    let content = layout.content
    let rowBytes = width * 4
    let total = rowBytes * height
    let colour = scalers.colour.scratch
    let colourStride = scalers.colour.stride
    let mask = hasMask ? scalers.mask.scratch : nil
    let maskStride = scalers.mask.stride
    let pixels = [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
      guard let base = buffer.baseAddress else {
        count = 0
        return
      }
      let coversAll = content.width == width && content.height == height
      if !coversAll {
        for x in 0..<width {
          base[x * 4] = background.r
          base[x * 4 + 1] = background.g
          base[x * 4 + 2] = background.b
          base[x * 4 + 3] = background.a
        }
        for y in 1..<max(1, height) {
          (base + y * rowBytes).update(from: base, count: rowBytes)
        }
      }
      if let colour {
        for row in 0..<content.height {
          let target = base + (content.y + row) * rowBytes + content.x * 4
          target.update(from: colour + row * colourStride, count: content.width * 4)
          if let mask {
            let alphaRow = mask + row * maskStride
            for column in 0..<content.width {
              target[column * 4 + 3] = alphaRow[column]
            }
          }
        }
      }
      count = total
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
  }
}
