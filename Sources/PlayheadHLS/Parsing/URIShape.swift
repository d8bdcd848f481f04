import Foundation

/// What the origin rule and the URL check need to know about a URI, read from its UTF-8
/// bytes in one pass without building strings.
struct URIShape {
  /// The length of the scheme before `:`, or nil for a relative reference.
  var scheme: Int?
  /// Whether the scheme is `http` or `https` (any case).
  var isWebScheme = false
  /// The end of `scheme://authority` or `//authority`, or nil when there is no authority.
  var authorityEnd: Int?
  /// Whether the URI's scheme and authority equal the cached ones.
  var matchesCachedAuthority = false

  init(_ bytes: UnsafeBufferPointer<UInt8>, cachedAuthority: [UInt8]) {
    scheme = Self.schemeLength(bytes)
    if let scheme { isWebScheme = Self.isWeb(bytes, length: scheme) }
    let afterScheme = scheme.map { $0 + 1 } ?? 0
    guard afterScheme + 1 < bytes.count, bytes[afterScheme] == UInt8(ascii: "/"),
      bytes[afterScheme + 1] == UInt8(ascii: "/")
    else { return }
    var end = afterScheme + 2
    while end < bytes.count {
      let byte = bytes[end]
      if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
        break
      }
      end += 1
    }
    authorityEnd = end
    guard cachedAuthority.count == end, let base = bytes.baseAddress else { return }
    matchesCachedAuthority = cachedAuthority.withUnsafeBufferPointer { cached in
      cached.baseAddress.map { memcmp($0, base, end) == 0 } ?? false
    }
  }

  /// The length of the scheme of the URI in `bytes`, or nil when it has none.
  static func schemeLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let first = bytes.first, (first | 0x20) >= 0x61, (first | 0x20) <= 0x7A else {
      return nil
    }
    var index = 1
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: ":"):
        return index
      case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "+"), UInt8(ascii: "-"),
        UInt8(ascii: "."):
        index += 1
      default:
        return nil
      }
    }
    return nil
  }

  /// Whether the first `length` bytes are `http` or `https`, ignoring case.
  private static func isWeb(_ bytes: UnsafeBufferPointer<UInt8>, length: Int) -> Bool {
    guard length == 4 || length == 5 else { return false }
    let letters: [UInt8] = [0x68, 0x74, 0x74, 0x70, 0x73]
    for index in 0..<length where bytes[index] | 0x20 != letters[index] { return false }
    return true
  }
}
