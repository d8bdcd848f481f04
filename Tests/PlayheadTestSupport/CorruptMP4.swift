import Foundation

/// Makes broken MP4 files from a good one, for bad-input tests: the sample tables stay,
/// but the chunk offsets (`stco` / `co64`) of chosen tracks point past the end of the file.
public enum CorruptMP4 {
  /// `data` (an MP4 with its `moov`) with the chunk offsets of `tracks` (indexes of the
  /// `trak` boxes in file order; nil: every track), from chunk `firstChunk` on, set past
  /// the end of the file. Throws when no chunk offset table was changed.
  public static func withChunkOffsetsPastTheEnd(
    of data: Data, tracks: Set<Int>? = nil, fromChunk firstChunk: Int = 0
  ) throws -> Data {
    var bytes = [UInt8](data)
    var track = -1
    var changed = 0
    func u32(_ at: Int) -> Int {
      Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }
    func walk(_ start: Int, _ end: Int) {
      var at = start
      while at + 8 <= end {
        var size = u32(at)
        let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
        var header = 8
        if size == 1, at + 16 <= end {
          size = (u32(at + 8) << 32) | u32(at + 12)
          header = 16
        } else if size == 0 {
          size = end - at
        }
        guard size >= header, at + size <= end else { return }
        if type == "trak" { track += 1 }
        if ["moov", "trak", "mdia", "minf", "stbl"].contains(type) {
          walk(at + header, at + size)
        } else if type == "stco" || type == "co64", tracks?.contains(track) ?? true {
          let width = type == "stco" ? 4 : 8
          let count = u32(at + header + 4)
          for chunk in firstChunk..<max(firstChunk, count) {
            let entry = at + header + 8 + chunk * width
            guard entry + width <= at + size else { break }
            // 0xFFFFFF00: past the end of any fixture.
            for byte in 0..<width { bytes[entry + byte] = byte == width - 1 ? 0x00 : 0xFF }
            changed += 1
          }
        }
        at += size
      }
    }
    walk(0, bytes.count)
    guard changed > 0 else {
      throw FixtureError("no chunk offset table to corrupt (tracks \(String(describing: tracks)))")
    }
    return Data(bytes)
  }
}
