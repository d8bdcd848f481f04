import PlayheadCore

extension RGBAImage {
  /// The `width` x `height` rectangle whose top-left pixel is (`x`, `y`), as a new image.
  ///
  /// The rectangle must lie entirely inside the image: a width or height below 1, a
  /// negative origin or a rectangle reaching past the right or bottom edge throws
  /// `.invalidArgument`, as does an image that is not well formed.
  public func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int)
    throws(PlayheadError) -> RGBAImage
  {
    guard isWellFormed else {
      throw PlayheadError(
        .invalidArgument, "Cannot crop a \(width)x\(height) image holding \(pixels.count) bytes")
    }
    let (right, rightOverflow) = x.addingReportingOverflow(cropWidth)
    let (bottom, bottomOverflow) = y.addingReportingOverflow(cropHeight)
    guard cropWidth >= 1, cropHeight >= 1, x >= 0, y >= 0, !rightOverflow, !bottomOverflow,
      right <= width, bottom <= height
    else {
      throw PlayheadError(
        .invalidArgument,
        "Cannot crop \(cropWidth)x\(cropHeight) at (\(x), \(y)) from a \(width)x\(height) image:"
          + (cropWidth < 1 || cropHeight < 1 ? " the region is empty" : " it is not inside"))
    }
    if x == 0, y == 0, cropWidth == width, cropHeight == height { return self }
    let sourceRow = width * 4
    let rowBytes = cropWidth * 4
    let total = rowBytes * cropHeight
    let result = [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
      pixels.withUnsafeBufferPointer { source in
        guard let target = buffer.baseAddress, let base = source.baseAddress else { return }
        for row in 0..<cropHeight {
          (target + row * rowBytes).update(
            from: base + (y + row) * sourceRow + x * 4, count: rowBytes)
        }
      }
      count = total
    }
    return RGBAImage(width: cropWidth, height: cropHeight, pixels: result)
  }

  /// This image scaled to `width` x `height` (bilinear, through swscale).
  ///
  /// With one side nil the other keeps the aspect ratio; with both nil the image is
  /// returned as it is. Throws `.invalidArgument` for a side below 1 or above
  /// `ImageCodec.maximumSide`, or an image that is not well formed.
  public func scaled(width newWidth: Int?, height newHeight: Int?) throws(PlayheadError)
    -> RGBAImage
  {
    guard isWellFormed else {
      throw PlayheadError(
        .invalidArgument, "Cannot scale a \(width)x\(height) image holding \(pixels.count) bytes")
    }
    if newWidth == nil && newHeight == nil { return self }
    if newWidth == width && newHeight == height { return self }
    let frame = try makeFrame()
    return try VideoConverter().convert(
      frame, width: newWidth, height: newHeight, gravity: .stretch)
  }

  /// Copies `image` into this one with its top-left pixel at (`x`, `y`); the parts that
  /// fall outside this image are left out.
  ///
  /// Pixels are replaced, not blended. Nothing happens when either image is not well
  /// formed.
  public mutating func paste(_ image: RGBAImage, x: Int, y: Int) {
    guard isWellFormed, image.isWellFormed else { return }
    let left = max(0, x)
    let top = max(0, y)
    let right = min(
      width, x.addingReportingOverflow(image.width).overflow ? width : x + image.width)
    let bottom = min(
      height, y.addingReportingOverflow(image.height).overflow ? height : y + image.height)
    guard left < right, top < bottom else { return }
    let rowBytes = (right - left) * 4
    let targetRow = width * 4
    let sourceRow = image.width * 4
    image.pixels.withUnsafeBufferPointer { source in
      pixels.withUnsafeMutableBufferPointer { target in
        guard let from = source.baseAddress, let to = target.baseAddress else { return }
        for row in top..<bottom {
          (to + row * targetRow + left * 4).update(
            from: from + (row - y) * sourceRow + (left - x) * 4, count: rowBytes)
        }
      }
    }
  }
}
