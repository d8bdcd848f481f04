import Foundation

/// An HLS VOD ladder of zero-filled segments for tests that play a network, not media: a
/// master playlist at `base/master.m3u8` with one variant per bitrate (`l<level>/`), each
/// with `segmentCount` segments of `segmentSeconds`, sized bitrate × duration × `scale`.
enum SyntheticLadder {
  static func resources(
    base: URL, bitrates: [Int], segmentCount: Int, segmentSeconds: Double,
    scale: (Int) -> Double = { _ in 1 }
  ) -> [URL: Data] {
    var files: [URL: Data] = [:]
    var masterText = "#EXTM3U\n#EXT-X-VERSION:3\n"
    let target = Int(segmentSeconds.rounded(.up))
    let extinf = String(format: "%.3f", segmentSeconds)
    for (level, bitrate) in bitrates.enumerated() {
      masterText += "#EXT-X-STREAM-INF:BANDWIDTH=\(bitrate)\nl\(level)/index.m3u8\n"
      var media =
        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(target)\n#EXT-X-PLAYLIST-TYPE:VOD\n"
      for index in 0..<segmentCount {
        media += "#EXTINF:\(extinf),\ns\(index).ts\n"
        let bytes = Int(Double(bitrate) * segmentSeconds / 8 * scale(index))
        files[base.appendingPathComponent("l\(level)/s\(index).ts")] = Data(count: bytes)
      }
      media += "#EXT-X-ENDLIST\n"
      files[base.appendingPathComponent("l\(level)/index.m3u8")] = Data(media.utf8)
    }
    files[base.appendingPathComponent("master.m3u8")] = Data(masterText.utf8)
    return files
  }
}
