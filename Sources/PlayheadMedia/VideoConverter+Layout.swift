/// An integer rectangle in pixels.
struct PixelRect: Equatable {
  var x: Int
  var y: Int
  var width: Int
  var height: Int
}

/// Where the colour and mask halves sit in a frame, and where the picture lands in the
/// output; pure arithmetic, no FFmpeg.
struct ConversionLayout: Equatable {
  /// The colour region of the source frame, already cropped for `fill`.
  var colour: PixelRect
  /// The mask region of the source frame (same size as `colour`), for alpha modes.
  var mask: PixelRect?
  /// Where the scaled picture lands in the output.
  var content: PixelRect
  var outputWidth: Int
  var outputHeight: Int

  static let maximumSide = 16384

  /// Splits a `frameWidth` x `frameHeight` frame for `alphaMode`, sizes the output
  /// (nil = natural size, one nil = keep aspect) and places the picture for `gravity`.
  ///
  /// `pixelAspect` stretches the natural width for non-square pixels. Returns nil for
  /// sizes below 1 or above `maximumSide`.
  init?(
    frameWidth: Int, frameHeight: Int, pixelAspect: Double, width: Int?, height: Int?,
    gravity: VideoGravity, alphaMode: AlphaRenderMode
  ) {
    var colour = PixelRect(x: 0, y: 0, width: frameWidth, height: frameHeight)
    var mask: PixelRect?
    let halfWidth = frameWidth / 2
    let halfHeight = frameHeight / 2
    switch alphaMode {
    case .none:
      break
    case .alphaLeft:
      mask = PixelRect(x: 0, y: 0, width: halfWidth, height: frameHeight)
      colour = PixelRect(x: halfWidth, y: 0, width: halfWidth, height: frameHeight)
    case .alphaRight:
      colour = PixelRect(x: 0, y: 0, width: halfWidth, height: frameHeight)
      mask = PixelRect(x: halfWidth, y: 0, width: halfWidth, height: frameHeight)
    case .alphaTop:
      mask = PixelRect(x: 0, y: 0, width: frameWidth, height: halfHeight)
      colour = PixelRect(x: 0, y: halfHeight, width: frameWidth, height: halfHeight)
    case .alphaBottom:
      colour = PixelRect(x: 0, y: 0, width: frameWidth, height: halfHeight)
      mask = PixelRect(x: 0, y: halfHeight, width: frameWidth, height: halfHeight)
    }
    guard colour.width >= 1, colour.height >= 1 else { return nil }
    let aspect = pixelAspect.isFinite && pixelAspect > 0 ? pixelAspect : 1
    let naturalWidth = max(1, Int((Double(colour.width) * aspect).rounded()))
    let naturalHeight = colour.height
    let outputWidth: Int
    let outputHeight: Int
    switch (width, height) {
    case (nil, nil):
      (outputWidth, outputHeight) = (naturalWidth, naturalHeight)
    case (let width?, nil):
      outputWidth = width
      outputHeight = max(
        1, Int((Double(width) * Double(naturalHeight) / Double(naturalWidth)).rounded()))
    case (nil, let height?):
      outputHeight = height
      outputWidth = max(
        1, Int((Double(height) * Double(naturalWidth) / Double(naturalHeight)).rounded()))
    case (let width?, let height?):
      (outputWidth, outputHeight) = (width, height)
    }
    let range = 1...Self.maximumSide
    guard range.contains(outputWidth), range.contains(outputHeight) else { return nil }
    var content = PixelRect(x: 0, y: 0, width: outputWidth, height: outputHeight)
    let scaleX = Double(outputWidth) / Double(naturalWidth)
    let scaleY = Double(outputHeight) / Double(naturalHeight)
    switch gravity {
    case .stretch:
      break
    case .fit:
      let scale = min(scaleX, scaleY)
      content.width = min(outputWidth, max(1, Int((Double(naturalWidth) * scale).rounded())))
      content.height = min(outputHeight, max(1, Int((Double(naturalHeight) * scale).rounded())))
      content.x = (outputWidth - content.width) / 2
      content.y = (outputHeight - content.height) / 2
    case .fill:
      let scale = max(scaleX, scaleY)
      // The visible part of the source, in source pixels (undoing the pixel aspect).
      let visibleWidth = min(
        colour.width, max(1, Int((Double(outputWidth) / scale / aspect).rounded())))
      let visibleHeight = min(colour.height, max(1, Int((Double(outputHeight) / scale).rounded())))
      let cropX = (colour.width - visibleWidth) / 2
      let cropY = (colour.height - visibleHeight) / 2
      colour = PixelRect(
        x: colour.x + cropX, y: colour.y + cropY, width: visibleWidth, height: visibleHeight)
      if let original = mask {
        mask = PixelRect(
          x: original.x + cropX, y: original.y + cropY, width: visibleWidth, height: visibleHeight)
      }
    }
    self.colour = colour
    self.mask = mask
    self.content = content
    self.outputWidth = outputWidth
    self.outputHeight = outputHeight
  }
}
