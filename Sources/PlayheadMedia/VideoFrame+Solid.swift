import PlayheadCore

extension VideoFrame {
  /// `image` as a decoded frame in `layout`'s pixel format, for tests and placeholder
  /// pictures.
  ///
  /// `.yuv420p` and `.nv12` convert the colours through BT.601 limited range (they come
  /// back within a few levels); `.other` keeps RGBA, alpha included. The frame has no
  /// timestamp. Throws `.invalidArgument` for an image that is not well formed.
  public static func from(_ image: RGBAImage, layout: VideoPlaneLayout = .yuv420p)
    throws(PlayheadError) -> VideoFrame
  {
    let rgba = try image.makeFrame()
    return try PlanarFrameConverter().convert(rgba, to: layout)
  }

  /// A `width` x `height` picture of one colour in `layout`'s pixel format (see
  /// `from(_:layout:)`).
  ///
  /// Throws `.invalidArgument` for a side below 1.
  public static func solid(
    width: Int, height: Int, color: RGBAColor, layout: VideoPlaneLayout = .yuv420p
  ) throws(PlayheadError) -> VideoFrame {
    guard width >= 1, height >= 1 else {
      throw PlayheadError(.invalidArgument, "Cannot make a \(width)x\(height) picture")
    }
    return try from(RGBAImage(width: width, height: height, color: color), layout: layout)
  }
}
