import PlayheadCore

extension VideoFrame {
  /// A `width` x `height` picture of one colour, for tests and placeholder pictures.
  ///
  /// `layout` `.yuv420p` and `.nv12` give those pixel formats (the colour through BT.601
  /// limited range, so it comes back within a few levels); `.other` gives an RGBA frame.
  /// The frame has no timestamp. Throws `.invalidArgument` for a side below 1.
  public static func solid(
    width: Int, height: Int, color: RGBAColor, layout: VideoPlaneLayout = .yuv420p
  ) throws(PlayheadError) -> VideoFrame {
    guard width >= 1, height >= 1 else {
      throw PlayheadError(.invalidArgument, "Cannot make a \(width)x\(height) picture")
    }
    let rgba = try RGBAImage(width: width, height: height, color: color).makeFrame()
    return try PlanarFrameConverter().convert(rgba, to: layout)
  }
}
