extension RGBAImage {
  /// The mean absolute difference to `other` over every channel (R, G, B and A) of every
  /// pixel, from 0 (identical) to 255; nil when the sizes differ or either image is not
  /// well formed.
  ///
  /// Useful to compare a lossy copy (a JPEG thumbnail) with its original.
  public func meanAbsoluteDifference(to other: RGBAImage) -> Double? {
    guard isWellFormed, other.isWellFormed, width == other.width, height == other.height else {
      return nil
    }
    var total = 0
    pixels.withUnsafeBufferPointer { lhs in
      other.pixels.withUnsafeBufferPointer { rhs in
        for index in 0..<lhs.count {
          total += abs(Int(lhs[index]) - Int(rhs[index]))
        }
      }
    }
    return Double(total) / Double(pixels.count)
  }
}
