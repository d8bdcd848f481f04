import Foundation
import PlayheadMedia

extension RGBAImage {
  /// How many pixels of the bottom third (where subtitles are drawn) differ clearly from
  /// `other`'s: by more than `threshold` in the sum of the red, green and blue distances.
  ///
  /// -1 when the two images differ in size, so a size mismatch never passes as "drawn".
  public func differingBottomThirdPixels(from other: RGBAImage, threshold: Int = 90) -> Int {
    guard width == other.width, height == other.height else { return -1 }
    var count = 0
    for y in (height * 2 / 3)..<height {
      for x in 0..<width {
        let p = pixel(x: x, y: y)
        let q = other.pixel(x: x, y: y)
        let distance =
          abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b))
        if distance > threshold { count += 1 }
      }
    }
    return count
  }
}
