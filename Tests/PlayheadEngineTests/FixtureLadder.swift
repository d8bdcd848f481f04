import Foundation
import PlayheadTestSupport

/// The fixture ladder (Fixtures/hls: a master playlist, three variants of six 2 s
/// segments), served from memory by a simulated network.
enum FixtureLadder {
  /// The variants' folders, lowest bandwidth first (their index is the level).
  static let variants = ["144p", "360p", "720p"]

  /// Every file of the ladder, at its path under `base`.
  static func resources(base: URL) throws -> [URL: Data] {
    var names = ["master.m3u8"]
    for variant in variants {
      names.append(variant + "/index.m3u8")
      names += (0..<6).map { String(format: "\(variant)/segment%03d.ts", $0) }
    }
    var files: [URL: Data] = [:]
    for name in names {
      files[base.appendingPathComponent(name)] = try Data(
        contentsOf: try Fixtures.url("hls/" + name))
    }
    return files
  }
}
