import Foundation

/// The MD5 digest (RFC 1321), for URL-signing schemes that require it.
///
/// MD5 is broken for collision resistance; it is here only because CDN signing schemes
/// (type A) are defined with it. Not for anything security-sensitive of Playhead's own.
public enum MD5 {
  /// The 16-byte digest of `data`.
  public static func digest<Bytes: Collection>(_ data: Bytes) -> [UInt8]
  where Bytes.Element == UInt8 {
    var state: (UInt32, UInt32, UInt32, UInt32) = (
      0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476
    )
    var message = Array(data)
    let bitLength = UInt64(message.count) &* 8
    message.append(0x80)
    while message.count % 64 != 56 { message.append(0) }
    for index in 0..<8 {
      message.append(UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(index))))
    }
    var words = [UInt32](repeating: 0, count: 16)
    for chunk in stride(from: 0, to: message.count, by: 64) {
      for index in 0..<16 {
        let base = chunk + index * 4
        words[index] =
          UInt32(message[base]) | UInt32(message[base + 1]) << 8 | UInt32(message[base + 2]) << 16
          | UInt32(message[base + 3]) << 24
      }
      var (a, b, c, d) = state
      for step in 0..<64 {
        let mixed: UInt32
        let wordIndex: Int
        switch step {
        case 0..<16:
          mixed = (b & c) | (~b & d)
          wordIndex = step
        case 16..<32:
          mixed = (d & b) | (~d & c)
          wordIndex = (5 * step + 1) % 16
        case 32..<48:
          mixed = b ^ c ^ d
          wordIndex = (3 * step + 5) % 16
        default:
          mixed = c ^ (b | ~d)
          wordIndex = (7 * step) % 16
        }
        let sum = a &+ mixed &+ constants[step] &+ words[wordIndex]
        a = d
        d = c
        c = b
        b = b &+ ((sum << shifts[step]) | (sum >> (32 - shifts[step])))
      }
      state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
    var output: [UInt8] = []
    for word in [state.0, state.1, state.2, state.3] {
      for index in 0..<4 { output.append(UInt8(truncatingIfNeeded: word >> (8 * UInt32(index)))) }
    }
    return output
  }

  /// The digest of `text`'s UTF-8 bytes as 32 lowercase hexadecimal digits.
  public static func hex(_ text: String) -> String {
    digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
  }

  private static let shifts: [UInt32] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
    5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
    6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
  ]

  /// floor(abs(sin(i + 1)) × 2^32), as RFC 1321 defines the table.
  private static let constants: [UInt32] = (0..<64).map { index in
    UInt32(truncatingIfNeeded: Int64((abs(sin(Double(index + 1))) * 4_294_967_296).rounded(.down)))
  }
}
