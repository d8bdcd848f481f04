/// CRC-32/MPEG-2: polynomial 0x04C11DB7, initial value 0xFFFFFFFF, most significant bit
/// first, no final XOR (ISO/IEC 13818-1 Annex A, used by SCTE-35 sections).
///
/// Over a whole section including its `CRC_32` field the result is 0.
public enum MPEG2CRC32 {
  /// The CRC of `bytes`.
  public static func checksum<Bytes: Collection>(_ bytes: Bytes) -> UInt32
  where Bytes.Element == UInt8 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc = (crc << 8) ^ table[Int((crc >> 24) ^ UInt32(byte))]
    }
    return crc
  }

  private static let table: [UInt32] = (0..<256).map { index in
    var value = UInt32(index) << 24
    for _ in 0..<8 {
      value = value & 0x8000_0000 != 0 ? (value << 1) ^ 0x04C1_1DB7 : value << 1
    }
    return value
  }
}
