/// Why bytes or text could not be decoded as an SCTE-35 `splice_info_section`.
///
/// Every malformed, truncated or hostile input gives one of these; the decoder never
/// traps and never reads past the bytes it was given.
public enum SCTE35Error: Error, Sendable, Hashable, CustomStringConvertible {
  /// The text is neither `0x` hex nor base64, or is longer than a section can be.
  case invalidText
  /// The section ends before `field`, which starts at `byteOffset` of the section.
  case truncated(field: String, byteOffset: Int)
  /// `table_id` is not 0xFC.
  case wrongTableID(UInt8)
  /// The `CRC_32` field does not match the CRC-32 (MPEG-2) of the section.
  case crcMismatch(expected: UInt32, computed: UInt32)
  /// `encrypted_packet` is set: the command and descriptors cannot be read.
  case encrypted
  /// `splice_command_length` is 0xFFF (unknown) for a command whose length only its own
  /// syntax gives, so the descriptors cannot be found.
  case unknownCommandLength(commandType: UInt8)
  /// A length or field contradicts the section's structure.
  case malformed(String)

  /// A one-line description.
  public var description: String {
    switch self {
    case .invalidText: return "SCTE-35 text is neither 0x hex nor base64 (or too long)"
    case .truncated(let field, let offset):
      return "SCTE-35 section ends before \(field) at byte \(offset)"
    case .wrongTableID(let id): return "SCTE-35 table_id is \(id), not 0xFC"
    case .crcMismatch(let expected, let computed):
      return "SCTE-35 CRC_32 is \(hex(expected)) but the section's CRC-32 is \(hex(computed))"
    case .encrypted: return "SCTE-35 section is encrypted"
    case .unknownCommandLength(let type):
      return "SCTE-35 splice_command_length is unknown for command type \(type)"
    case .malformed(let message): return "SCTE-35 section is malformed: \(message)"
    }
  }

  private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
  }
}
