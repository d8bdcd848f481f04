import PlayheadCore

/// The walk over the bytes of a media file that holds a `sidx` (see
/// `MPDSegmentIndex.parse`). Positions are file offsets in Int128, so no value overflows.
struct SIDXReader {
  let bytes: [UInt8]
  /// The file offset of `bytes[0]`.
  let offset: Int128
  let maxDepth: Int

  /// Why the walk stopped: more bytes needed through an offset, or a malformed box.
  enum Failure: Error {
    case needs(Int128)
    case malformed(MPDError)
  }

  private var end: Int128 { offset + Int128(bytes.count) }

  func parseFirst() throws(MPDError) -> MPDSegmentIndex.Parsed {
    do throws(Failure) {
      var position = offset
      while true {
        let box = try header(at: position)
        if box.type == "sidx" {
          var entries: [MPDSegmentIndex.Entry] = []
          try sidx(box, depth: 0, into: &entries)
          guard let start = Int64(exactly: box.start), let length = Int64(exactly: box.size)
          else { throw Failure.malformed(Self.error("the box lies past 64-bit offsets")) }
          return .index(
            MPDSegmentIndex(entries: entries, boxRange: ByteRange(offset: start, length: length)))
        }
        position = box.start + box.size
        if position == end {
          throw Failure.malformed(Self.error("no sidx box in the bytes given"))
        }
      }
    } catch {
      switch error {
      case .malformed(let error): throw error
      case .needs(let through):
        guard let value = Int64(exactly: through) else {
          throw Self.error("the index lies past 64-bit offsets")
        }
        return .needsBytes(through: value)
      }
    }
  }

  struct Box {
    var start: Int128
    var size: Int128
    var headerSize: Int128
    var type: String
  }

  /// The box header at file offset `position`.
  func header(at position: Int128) throws(Failure) -> Box {
    guard position >= offset else { throw .malformed(Self.error("a box before the bytes given")) }
    guard position + 8 <= end else { throw .needs(position + 16) }
    let index = Int(position - offset)
    var size = Int128(read(index, 4))
    let type = String(decoding: bytes[index + 4..<index + 8], as: UTF8.self)
    var headerSize: Int128 = 8
    if size == 1 {
      guard position + 16 <= end else { throw .needs(position + 16) }
      size = Int128(read(index + 8, 8))
      headerSize = 16
    } else if size == 0 {
      throw .malformed(Self.error("box '\(Self.printable(type))' runs to the end of the file"))
    }
    guard size >= headerSize else {
      throw .malformed(Self.error("box '\(Self.printable(type))' of \(size) bytes"))
    }
    return Box(start: position, size: size, headerSize: headerSize, type: type)
  }

  /// Reads the `sidx` `box`, appending its media references (and its sub-indexes') in order.
  func sidx(_ box: Box, depth: Int, into entries: inout [MPDSegmentIndex.Entry]) throws(Failure) {
    guard depth <= maxDepth else {
      throw .malformed(Self.error("sub-indexes nested deeper than \(maxDepth)"))
    }
    let boxEnd = box.start + box.size
    guard boxEnd <= end else { throw .needs(boxEnd) }
    var index = Int(box.start - offset + box.headerSize)
    let limit = Int(boxEnd - offset)
    func take(_ count: Int) throws(Failure) -> UInt64 {
      guard index + count <= limit else {
        throw .malformed(Self.error("the box ends inside its fields"))
      }
      defer { index += count }
      return read(index, count)
    }
    let version = try take(1)
    _ = try take(3)
    guard version <= 1 else { throw .malformed(Self.error("version \(version) is not 0 or 1")) }
    _ = try take(4)  // reference_ID
    let timescale = try take(4)
    guard timescale > 0, timescale <= UInt64(Int32.max) else {
      throw .malformed(Self.error("timescale \(timescale) is out of range"))
    }
    let width = version == 0 ? 4 : 8
    var time = Int128(try take(width))
    let firstOffset = Int128(try take(width))
    _ = try take(2)  // reserved
    let count = Int(try take(2))
    guard limit - index >= count * 12 else {
      throw .malformed(Self.error("\(count) references do not fit a box of \(box.size) bytes"))
    }
    var position = boxEnd + firstOffset
    for number in stride(from: 1, through: count, by: 1) {
      let word = try take(4)
      let duration = Int128(try take(4))
      let sap = try take(4)
      let size = Int128(word & 0x7fff_ffff)
      guard size > 0 else {
        throw .malformed(Self.error("reference \(number) has no bytes"))
      }
      if word >> 31 == 1 {
        let sub = try header(at: position)
        guard sub.type == "sidx" else {
          throw .malformed(
            Self.error("reference \(number) points to '\(Self.printable(sub.type))', not a sidx"))
        }
        try sidx(sub, depth: depth + 1, into: &entries)
      } else {
        guard let start = Int64(exactly: position), let length = Int64(exactly: size),
          let start64 = Int64(exactly: time), let duration64 = Int64(exactly: duration),
          Int64(exactly: position + size) != nil
        else { throw .malformed(Self.error("reference \(number) lies past 64-bit values")) }
        entries.append(
          MPDSegmentIndex.Entry(
            range: ByteRange(offset: start, length: length), time: start64,
            duration: duration64, timescale: Int64(timescale), startsWithSAP: sap >> 31 == 1))
      }
      position += size
      time += duration
    }
  }

  /// `count` big-endian bytes from `index`.
  private func read(_ index: Int, _ count: Int) -> UInt64 {
    var value: UInt64 = 0
    for byte in bytes[index..<index + count] { value = value << 8 | UInt64(byte) }
    return value
  }

  static func error(_ message: String) -> MPDError {
    MPDError(path: "sidx", message, clause: nil)
  }

  /// A box type as printable ASCII.
  static func printable(_ type: String) -> String {
    String(type.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? Character($0) : "?" })
  }
}
