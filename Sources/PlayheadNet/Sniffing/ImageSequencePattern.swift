import Foundation

/// Recognises FFmpeg's image-sequence file-name patterns (`frame%03d.png`, `img%d.jpg`),
/// which name many files at once: Playhead opens exactly the file it is given.
enum ImageSequencePattern {
  /// The picture extensions FFmpeg's image-sequence reader takes.
  static let imageExtensions: Set<String> = [
    "png", "jpg", "jpeg", "bmp", "tif", "tiff", "webp", "gif", "dpx", "exr", "ppm", "pgm", "pbm",
    "tga", "j2k", "jp2", "sgi", "pcx", "xwd",
  ]

  /// The first `%d` or `%0Nd` in `name` when `name` also has a picture extension (an
  /// image sequence), or nil.
  static func find(in name: String) -> String? {
    let pathExtension = (name as NSString).pathExtension.lowercased()
    guard imageExtensions.contains(pathExtension) else { return nil }
    let characters = Array(name)
    var index = 0
    while index < characters.count {
      guard characters[index] == "%" else {
        index += 1
        continue
      }
      var end = index + 1
      while end < characters.count, characters[end].isASCII, characters[end].isNumber {
        end += 1
      }
      if end < characters.count, characters[end] == "d" {
        return String(characters[index...end])
      }
      index = end
    }
    return nil
  }
}
