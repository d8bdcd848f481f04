/// A picture size in pixels, used as a resolution cap.
///
/// A level fits a resolution when neither its width nor its height is larger. Sizes of
/// zero or less are allowed but no level with a known size fits them.
public struct VideoResolution: Sendable, Hashable {
  /// The width in pixels.
  public var width: Int
  /// The height in pixels.
  public var height: Int

  /// Creates a size of `width` × `height` pixels.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// `width × height`, or zero when either is not positive; `Int.max` when it overflows.
  public var pixelCount: Int {
    guard width > 0, height > 0 else { return 0 }
    let (product, overflow) = width.multipliedReportingOverflow(by: height)
    return overflow ? Int.max : product
  }
}
