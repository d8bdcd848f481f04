import Foundation

/// Builds SCTE-35 `splice_info_section` bytes field by field, as ANSI/SCTE 35 lays them
/// out, for the decoder tests. The CRC is computed here bit by bit from the polynomial,
/// independently of the decoder's table.
struct BitWriter {
  private(set) var bytes: [UInt8] = []
  private var bitCount = 0

  /// Appends the low `count` bits of `value`, most significant first.
  mutating func put(_ value: UInt64, _ count: Int) {
    for shift in stride(from: count - 1, through: 0, by: -1) {
      if bitCount % 8 == 0 { bytes.append(0) }
      if (value >> UInt64(shift)) & 1 == 1 {
        bytes[bytes.count - 1] |= UInt8(0x80) >> UInt8(bitCount % 8)
      }
      bitCount += 1
    }
  }

  mutating func flag(_ value: Bool) { put(value ? 1 : 0, 1) }

  mutating func append(_ more: [UInt8]) {
    precondition(bitCount % 8 == 0)
    bytes += more
    bitCount += more.count * 8
  }
}

enum SCTE35Builder {
  /// CRC-32/MPEG-2, one bit at a time: polynomial 0x04C11DB7, initial 0xFFFFFFFF, no
  /// reflection, no final XOR.
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte) << 24
      for _ in 0..<8 {
        crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1
      }
    }
    return crc
  }

  /// A whole section around `command` and `descriptors`.
  static func section(
    commandType: UInt8, command: [UInt8], descriptors: [[UInt8]] = [],
    ptsAdjustment: UInt64 = 0, commandLength: Int? = nil, encrypted: Bool = false,
    tableID: UInt8 = 0xFC, corruptCRC: Bool = false
  ) -> [UInt8] {
    var body = BitWriter()
    body.put(0, 8)  // protocol_version
    body.flag(encrypted)
    body.put(0, 6)  // encryption_algorithm
    body.put(ptsAdjustment, 33)
    body.put(0, 8)  // cw_index
    body.put(0xFFF, 12)  // tier
    body.put(UInt64(commandLength ?? command.count), 12)
    body.put(UInt64(commandType), 8)
    body.append(command)
    let loop = descriptors.flatMap { $0 }
    body.put(UInt64(loop.count), 16)
    body.append(loop)
    var header = BitWriter()
    header.put(UInt64(tableID), 8)
    header.put(0, 1)  // section_syntax_indicator
    header.put(0, 1)  // private_indicator
    header.put(3, 2)  // sap_type: not specified
    header.put(UInt64(body.bytes.count + 4), 12)
    var bytes = header.bytes + body.bytes
    var crc = crc32(bytes)
    if corruptCRC { crc ^= 1 }
    bytes += [
      UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF),
    ]
    return bytes
  }

  /// `splice_time()`.
  static func spliceTime(_ writer: inout BitWriter, pts: UInt64?) {
    if let pts {
      writer.flag(true)
      writer.put(0x3F, 6)
      writer.put(pts, 33)
    } else {
      writer.flag(false)
      writer.put(0x7F, 7)
    }
  }

  /// A program `splice_insert()`.
  static func spliceInsert(
    eventID: UInt32, outOfNetwork: Bool, pts: UInt64?, breakDuration: UInt64? = nil,
    autoReturn: Bool = true, cancelled: Bool = false, uniqueProgramID: UInt16 = 7,
    availNum: UInt8 = 1, availsExpected: UInt8 = 2
  ) -> [UInt8] {
    var writer = BitWriter()
    writer.put(UInt64(eventID), 32)
    writer.flag(cancelled)
    writer.put(0x7F, 7)
    if cancelled { return writer.bytes }
    writer.flag(outOfNetwork)
    writer.flag(true)  // program_splice_flag
    writer.flag(breakDuration != nil)
    writer.flag(pts == nil)  // splice_immediate_flag
    writer.put(0xF, 4)
    if pts != nil { spliceTime(&writer, pts: pts) }
    if let breakDuration {
      writer.flag(autoReturn)
      writer.put(0x3F, 6)
      writer.put(breakDuration, 33)
    }
    writer.put(UInt64(uniqueProgramID), 16)
    writer.put(UInt64(availNum), 8)
    writer.put(UInt64(availsExpected), 8)
    return writer.bytes
  }

  /// A `time_signal()`.
  static func timeSignal(pts: UInt64?) -> [UInt8] {
    var writer = BitWriter()
    spliceTime(&writer, pts: pts)
    return writer.bytes
  }

  /// A `segmentation_descriptor()` with its tag and length, for a program segmentation.
  static func segmentationDescriptor(
    eventID: UInt32, type: UInt8, duration: UInt64? = nil, upidType: UInt8 = 0x0C,
    upid: [UInt8] = [], segmentNumber: UInt8 = 1, segmentsExpected: UInt8 = 1,
    subSegments: (UInt8, UInt8)? = nil, restricted: Bool = false
  ) -> [UInt8] {
    var writer = BitWriter()
    writer.put(0x4355_4549, 32)  // "CUEI"
    writer.put(UInt64(eventID), 32)
    writer.flag(false)  // cancel
    writer.put(0x7F, 7)
    writer.flag(true)  // program_segmentation_flag
    writer.flag(duration != nil)
    writer.flag(!restricted)  // delivery_not_restricted_flag
    if restricted {
      writer.flag(true)  // web_delivery_allowed
      writer.flag(false)  // no_regional_blackout
      writer.flag(true)  // archive_allowed
      writer.put(2, 2)  // device_restrictions
    } else {
      writer.put(0x1F, 5)
    }
    if let duration { writer.put(duration, 40) }
    writer.put(UInt64(upidType), 8)
    writer.put(UInt64(upid.count), 8)
    writer.append(upid)
    writer.put(UInt64(type), 8)
    writer.put(UInt64(segmentNumber), 8)
    writer.put(UInt64(segmentsExpected), 8)
    if let subSegments {
      writer.put(UInt64(subSegments.0), 8)
      writer.put(UInt64(subSegments.1), 8)
    }
    return [0x02, UInt8(writer.bytes.count)] + writer.bytes
  }

  /// `bytes` as `0x` and uppercase hex digits, as `EXT-X-DATERANGE` writes them.
  static func hex(_ bytes: [UInt8]) -> String {
    "0x" + bytes.map { String(format: "%02X", $0) }.joined()
  }

  /// `bytes` in base64, as `EXT-OATCLS-SCTE35` writes them.
  static func base64(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString()
  }

  /// A `splice_insert` out of the network for event `eventID`, lasting `seconds`.
  static func outSection(eventID: UInt32, seconds: UInt64, pts: UInt64 = 900_000) -> [UInt8] {
    section(
      commandType: 0x05,
      command: spliceInsert(
        eventID: eventID, outOfNetwork: true, pts: pts, breakDuration: seconds * 90_000))
  }

  /// A `splice_insert` back into the network for event `eventID`.
  static func inSection(eventID: UInt32, pts: UInt64 = 3_600_000) -> [UInt8] {
    section(
      commandType: 0x05, command: spliceInsert(eventID: eventID, outOfNetwork: false, pts: pts))
  }
}
