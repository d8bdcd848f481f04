import PlayheadMedia

/// A rectangle in pixels.
struct PixelRect: Equatable, Sendable {
  var x: Int
  var y: Int
  var width: Int
  var height: Int
}

/// Where a picture's texture is drawn in a window for a gravity: the part of the texture
/// shown and the part of the window it covers. Pure arithmetic, no SDL.
struct WindowLayout: Equatable, Sendable {
  /// The part of the texture drawn, in texture pixels (all of it, except for `fill`).
  var source: PixelRect
  /// Where it lands in the window (all of it, except for `fit`).
  var destination: PixelRect

  /// Lays a `textureWidth` x `textureHeight` texture whose pixels are `pixelAspect` times
  /// as wide as high into an `outputWidth` x `outputHeight` window.
  ///
  /// `fit` centres the whole picture at the largest size that fits, `fill` crops its
  /// centre to cover the window, `stretch` covers the window with all of it. Sizes below
  /// 1 are taken as 1.
  init(
    textureWidth: Int, textureHeight: Int, pixelAspect: Double, outputWidth: Int,
    outputHeight: Int, gravity: VideoGravity
  ) {
    let textureWidth = max(1, textureWidth)
    let textureHeight = max(1, textureHeight)
    let outputWidth = max(1, outputWidth)
    let outputHeight = max(1, outputHeight)
    let aspect = pixelAspect.isFinite && pixelAspect > 0 ? pixelAspect : 1
    let displayWidth = Double(textureWidth) * aspect
    let displayHeight = Double(textureHeight)
    let scaleX = Double(outputWidth) / displayWidth
    let scaleY = Double(outputHeight) / displayHeight
    source = PixelRect(x: 0, y: 0, width: textureWidth, height: textureHeight)
    destination = PixelRect(x: 0, y: 0, width: outputWidth, height: outputHeight)
    switch gravity {
    case .stretch:
      break
    case .fit:
      let scale = min(scaleX, scaleY)
      let width = min(outputWidth, max(1, Int((displayWidth * scale).rounded())))
      let height = min(outputHeight, max(1, Int((displayHeight * scale).rounded())))
      destination = PixelRect(
        x: (outputWidth - width) / 2, y: (outputHeight - height) / 2, width: width,
        height: height)
    case .fill:
      let scale = max(scaleX, scaleY)
      let width = min(
        textureWidth, max(1, Int((Double(outputWidth) / scale / aspect).rounded())))
      let height = min(textureHeight, max(1, Int((Double(outputHeight) / scale).rounded())))
      source = PixelRect(
        x: (textureWidth - width) / 2, y: (textureHeight - height) / 2, width: width,
        height: height)
    }
  }
}
