import Foundation
import PlayheadMedia

/// A video clip of one flat colour made with ffmpeg (H.264, 25 fps, no audio), so that what
/// a window shows can be told apart from the controls drawn over it, pixel by pixel.
public enum StillClip {
  /// Makes a `seconds` long 320x180 clip of `colour` in a temporary file; the caller
  /// removes it.
  public static func make(_ colour: RGBAColor, seconds: Int) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "playhead-still-\(UUID().uuidString).mp4")
    let hex = String(format: "0x%02x%02x%02x", colour.r, colour.g, colour.b)
    let process = Process()
    process.executableURL = try XvfbDisplay.executable(named: "ffmpeg")
    process.arguments = [
      "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=\(hex):s=320x180:r=25:d=\(seconds)",
      "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p", url.path,
    ]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw XvfbError("ffmpeg could not make the \(hex) clip")
    }
    return url
  }
}
