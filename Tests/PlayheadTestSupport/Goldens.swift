import Foundation
import PlayheadMedia

/// Golden images under `<repo>/Tests/Goldens`: committed PNGs that rendered output is
/// compared with, pixel by pixel within a tolerance.
///
/// A missing golden fails the comparison. With `PLAYHEAD_UPDATE_GOLDENS=1` in the
/// environment the image is written as the new golden instead (review it, then commit it).
public enum Goldens {
  /// The outcome of one comparison.
  public struct Comparison: Sendable {
    /// Pixels whose largest channel difference exceeds the tolerance.
    public var differingPixels: Int
    /// All pixels compared.
    public var totalPixels: Int
    /// The largest channel difference met.
    public var largestDifference: Int
  }

  /// `<repo>/Tests/Goldens/<name>`.
  public static func url(_ name: String) -> URL {
    URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Goldens").appendingPathComponent(name)
  }

  /// Compares `image` with the golden `name`: each pixel's channels (RGBA) may differ by
  /// at most `tolerance`. Throws when the golden is missing or of another size (or writes
  /// it, when updating).
  public static func compare(_ image: RGBAImage, with name: String, tolerance: Int = 24) throws
    -> Comparison
  {
    let url = url(name)
    if ProcessInfo.processInfo.environment["PLAYHEAD_UPDATE_GOLDENS"] == "1" {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try PNGCodec.encode(image).write(to: url)
    }
    guard let data = try? Data(contentsOf: url) else {
      throw FixtureError(
        "golden \(url.path) is missing; run the test with PLAYHEAD_UPDATE_GOLDENS=1, "
          + "look at the image, and commit it")
    }
    let golden = try PNGCodec.decode(data)
    guard golden.width == image.width, golden.height == image.height else {
      throw FixtureError(
        "golden \(name) is \(golden.width)x\(golden.height), the image \(image.width)x\(image.height)"
      )
    }
    var differing = 0
    var largest = 0
    for index in stride(from: 0, to: image.pixels.count, by: 4) {
      var worst = 0
      for channel in 0..<4 {
        worst = max(
          worst, abs(Int(image.pixels[index + channel]) - Int(golden.pixels[index + channel])))
      }
      largest = max(largest, worst)
      if worst > tolerance { differing += 1 }
    }
    return Comparison(
      differingPixels: differing, totalPixels: image.width * image.height,
      largestDifference: largest)
  }
}
