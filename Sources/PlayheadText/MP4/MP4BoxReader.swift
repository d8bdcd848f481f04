/// One ISO BMFF box: its four-character type, where it starts and its payload (after the
/// size, type and, for a full box, nothing more: version and flags are read by the caller).
struct MP4Box {
  let type: String
  let start: Int
  let payload: Range<Int>
}

/// Reads boxes and big-endian fields out of a byte array; every read is bounds-checked and
/// throws `.truncated` with the path instead of trapping.
struct MP4BoxReader {
  let bytes: [UInt8]

  /// The boxes that fill `range` in order; a size below its header or past `range` throws.
  /// Size 0 runs to the end of `range`; size 1 has a 64-bit size after the type.
  func boxes(in range: Range<Int>, path: String) throws(MP4TextError) -> [MP4Box] {
    var boxes: [MP4Box] = []
    var position = range.lowerBound
    while position < range.upperBound {
      guard range.upperBound - position >= 8 else {
        throw MP4TextError(
          .truncated, path: path,
          "\(range.upperBound - position) bytes left, less than a box header")
      }
      let type = fourCC(at: position + 4)
      let here = path.isEmpty ? type : "\(path)/\(type)"
      var size = Int(uint32Unchecked(at: position))
      var header = 8
      if size == 1 {
        guard range.upperBound - position >= 16 else {
          throw MP4TextError(.truncated, path: here, "the bytes end inside its 64-bit size")
        }
        let large = uint64Unchecked(at: position + 8)
        guard large <= UInt64(range.upperBound - position) else {
          throw MP4TextError(
            .truncated, path: here, "its size \(large) runs past its container")
        }
        size = Int(large)
        header = 16
      } else if size == 0 {
        size = range.upperBound - position
      }
      guard size >= header else {
        throw MP4TextError(.malformed, path: here, "its size \(size) is below its header")
      }
      guard size <= range.upperBound - position else {
        throw MP4TextError(
          .truncated, path: here,
          "its size \(size) runs past its container (\(range.upperBound - position) bytes left)")
      }
      boxes.append(
        MP4Box(type: type, start: position, payload: (position + header)..<(position + size)))
      position += size
    }
    return boxes
  }

  /// The first child of `box` of type `type`.
  func child(_ type: String, of box: MP4Box, path: String) throws(MP4TextError) -> MP4Box? {
    try boxes(in: box.payload, path: path).first { $0.type == type }
  }

  func fourCC(at offset: Int) -> String {
    String(
      decoding: bytes[offset..<offset + 4].map { (0x20...0x7E).contains($0) ? $0 : 0x3F },
      as: UTF8.self)
  }

  func uint8(at offset: Int, in range: Range<Int>, path: String) throws(MP4TextError) -> UInt8 {
    try check(offset, 1, in: range, path: path)
    return bytes[offset]
  }

  func uint16(at offset: Int, in range: Range<Int>, path: String) throws(MP4TextError) -> UInt16 {
    try check(offset, 2, in: range, path: path)
    return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
  }

  func uint32(at offset: Int, in range: Range<Int>, path: String) throws(MP4TextError) -> UInt32 {
    try check(offset, 4, in: range, path: path)
    return uint32Unchecked(at: offset)
  }

  func uint64(at offset: Int, in range: Range<Int>, path: String) throws(MP4TextError) -> UInt64 {
    try check(offset, 8, in: range, path: path)
    return uint64Unchecked(at: offset)
  }

  /// The version and flags of the full box whose payload is `payload`.
  func versionAndFlags(_ payload: Range<Int>, path: String) throws(MP4TextError) -> (UInt8, UInt32)
  {
    let word = try uint32(at: payload.lowerBound, in: payload, path: path)
    return (UInt8(word >> 24), word & 0x00FF_FFFF)
  }

  /// The bytes of `range` as text (UTF-8, invalid sequences replaced), up to a NUL.
  func string(_ range: Range<Int>) -> String {
    let slice = bytes[range]
    let end = slice.firstIndex(of: 0) ?? range.upperBound
    return String(decoding: bytes[range.lowerBound..<end], as: UTF8.self)
  }

  private func check(_ offset: Int, _ count: Int, in range: Range<Int>, path: String)
    throws(MP4TextError)
  {
    guard offset >= range.lowerBound, offset <= range.upperBound - count else {
      throw MP4TextError(.truncated, path: path, "the box ends inside a field")
    }
  }

  private func uint32Unchecked(at offset: Int) -> UInt32 {
    bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
  }

  private func uint64Unchecked(at offset: Int) -> UInt64 {
    bytes[offset..<offset + 8].reduce(0) { $0 << 8 | UInt64($1) }
  }
}
