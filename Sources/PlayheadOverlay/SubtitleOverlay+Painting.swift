import PlayheadMedia

extension SubtitleOverlay {
  /// Paints one coverage mask over `image` ("over" with straight alpha); returns the
  /// rectangle it touched, nil when it touched nothing.
  static func paint(_ bitmap: LibassRenderer.Bitmap, onto image: inout RGBAImage)
    -> SubtitleOverlay.InkBox?
  {
    let x0 = max(0, bitmap.x)
    let y0 = max(0, bitmap.y)
    let x1 = min(image.width, bitmap.x + bitmap.width)
    let y1 = min(image.height, bitmap.y + bitmap.height)
    guard x0 < x1, y0 < y1, bitmap.color.a > 0 else { return nil }
    var touched: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
    let opacity = Int(bitmap.color.a)
    image.pixels.withUnsafeMutableBufferPointer { pixels in
      for y in y0..<y1 {
        let maskRow = (y - bitmap.y) * bitmap.stride - bitmap.x
        for x in x0..<x1 {
          let coverage = Int(bitmap.mask[maskRow + x])
          guard coverage > 0 else { continue }
          let alpha = coverage * opacity / 255
          guard alpha > 0 else { continue }
          let offset = (y * image.width + x) * 4
          let below = Int(pixels[offset + 3])
          let belowWeight = below * (255 - alpha) / 255
          let outAlpha = alpha + belowWeight
          func mix(_ source: UInt8, _ destination: UInt8) -> UInt8 {
            UInt8((Int(source) * alpha + Int(destination) * belowWeight) / max(1, outAlpha))
          }
          pixels[offset] = mix(bitmap.color.r, pixels[offset])
          pixels[offset + 1] = mix(bitmap.color.g, pixels[offset + 1])
          pixels[offset + 2] = mix(bitmap.color.b, pixels[offset + 2])
          pixels[offset + 3] = UInt8(min(255, outAlpha))
          if let box = touched {
            touched = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
          } else {
            touched = (x, y, x, y)
          }
        }
      }
    }
    guard let touched else { return nil }
    return SubtitleOverlay.InkBox(
      x: touched.minX, y: touched.minY, width: touched.maxX - touched.minX + 1,
      height: touched.maxY - touched.minY + 1)
  }

  static func union(_ a: SubtitleOverlay.InkBox?, _ b: SubtitleOverlay.InkBox)
    -> SubtitleOverlay.InkBox
  {
    guard let a else { return b }
    let x = min(a.x, b.x)
    let y = min(a.y, b.y)
    return SubtitleOverlay.InkBox(
      x: x, y: y, width: max(a.x + a.width, b.x + b.width) - x,
      height: max(a.y + a.height, b.y + b.height) - y)
  }
}
