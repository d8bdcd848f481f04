/// Reads big-endian bit fields from a slice of bytes, never past its end.
///
/// Every read names its field, so that a section that ends too soon says where.
struct SCTE35BitReader {
  private let bytes: [UInt8]
  /// The next bit to read, counted from the start of `bytes`.
  private var bitOffset: Int
  /// The first bit this reader may not read.
  private let endBit: Int

  init(_ bytes: [UInt8], byteRange: Range<Int>) {
    self.bytes = bytes
    self.bitOffset = byteRange.lowerBound * 8
    self.endBit = byteRange.upperBound * 8
  }

  /// The byte offset of the next read (rounded down).
  var byteOffset: Int { bitOffset / 8 }
  /// Whole bytes left.
  var remainingBytes: Int { (endBit - bitOffset) / 8 }

  /// The next `count` bits (at most 64) as an unsigned number.
  mutating func bits(_ count: Int, _ field: String) throws(SCTE35Error) -> UInt64 {
    guard count <= endBit - bitOffset else {
      throw .truncated(field: field, byteOffset: byteOffset)
    }
    var value: UInt64 = 0
    var left = count
    while left > 0 {
      let byte = bytes[bitOffset / 8]
      let used = bitOffset % 8
      let take = min(8 - used, left)
      let chunk = (UInt64(byte) >> UInt64(8 - used - take)) & ((1 << UInt64(take)) - 1)
      value = value << UInt64(take) | chunk
      bitOffset += take
      left -= take
    }
    return value
  }

  /// The next bit as a flag.
  mutating func flag(_ field: String) throws(SCTE35Error) -> Bool {
    try bits(1, field) == 1
  }

  /// The next byte.
  mutating func byte(_ field: String) throws(SCTE35Error) -> UInt8 {
    UInt8(try bits(8, field))
  }

  /// Skips `count` bits (reserved fields).
  mutating func skip(_ count: Int, _ field: String) throws(SCTE35Error) {
    _ = try bits(count, field)
  }

  /// The next `count` bytes; the reader must be on a byte boundary.
  mutating func bytes(_ count: Int, _ field: String) throws(SCTE35Error) -> [UInt8] {
    let reader = try take(count, field)
    return Array(bytes[reader.bitOffset / 8..<reader.endBit / 8])
  }

  /// A reader for the next `count` bytes, which this reader then skips; the reader must be
  /// on a byte boundary.
  mutating func take(_ count: Int, _ field: String) throws(SCTE35Error) -> SCTE35BitReader {
    guard bitOffset % 8 == 0 else { throw .malformed("\(field) is not byte aligned") }
    guard count >= 0, count <= remainingBytes else {
      throw .truncated(field: field, byteOffset: byteOffset)
    }
    let start = bitOffset / 8
    bitOffset += count * 8
    return SCTE35BitReader(bytes, byteRange: start..<start + count)
  }
}
