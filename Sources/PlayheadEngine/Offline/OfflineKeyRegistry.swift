import Foundation
import PlayheadCore
import PlayheadMedia

/// The application's keys for downloads encrypted at rest ("secure downloads"): the player
/// looks a download's key up here by its key ID when it opens the folder.
///
/// Keys are 16 bytes (AES-128). They live only in memory; the download folder stores a key
/// ID derived from the key (a truncated SHA-256 with a fixed label), never the key. A folder
/// whose key is not registered fails to open with `.decryptionFailed` ("no offline key…");
/// with other keys registered but not its own, the message says the key is wrong. Thread-safe.
///
/// Example:
/// ```swift
/// try OfflineKeyRegistry.shared.register(key)
/// let player = Player(url: downloadFolder)
/// ```
public final class OfflineKeyRegistry: Sendable {
  /// The registry the player reads.
  public static let shared = OfflineKeyRegistry()

  private let keys = Locked<[String: [UInt8]]>([:])

  /// Makes an empty registry (the player reads `shared`; others are for tests and tools).
  public init() {}

  /// Adds `key`; throws `.invalidArgument` unless it is 16 bytes. Returns its key ID.
  @discardableResult
  public func register(_ key: [UInt8]) throws(PlayheadError) -> String {
    let id = try Self.keyID(for: key)
    keys.withLock { $0[id] = key }
    return id
  }

  /// Removes the key with this ID, if registered.
  public func unregister(keyID: String) {
    keys.withLock { $0[keyID] = nil }
  }

  /// Removes every key.
  public func removeAll() {
    keys.withLock { $0.removeAll() }
  }

  /// The key with this ID, if registered.
  public func key(forKeyID keyID: String) -> [UInt8]? {
    keys.withLock { $0[keyID] }
  }

  /// How many keys are registered.
  public var count: Int {
    keys.withLock { $0.count }
  }

  /// The ID of `key`: the first 16 bytes of SHA-256("playhead-offline-key-id-v1" ‖ key), as
  /// 32 hex digits. Throws `.invalidArgument` unless the key is 16 bytes.
  public static func keyID(for key: [UInt8]) throws(PlayheadError) -> String {
    guard key.count == AESCTR.keyBytes else {
      throw PlayheadError(
        .invalidArgument,
        "an offline key must be \(AESCTR.keyBytes) bytes (32 hex digits), not \(key.count)")
    }
    let digest = try SHA256.digest(Data("playhead-offline-key-id-v1".utf8) + Data(key))
    return SHA256.hex(Array(digest.prefix(16)))
  }

  /// Parses a key written as 32 hexadecimal digits (an optional `0x` prefix is allowed);
  /// throws `.invalidArgument` for anything else.
  public static func key(fromHex text: String) throws(PlayheadError) -> [UInt8] {
    var digits = Substring(text.trimmingCharacters(in: .whitespaces))
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
    guard digits.count == 2 * AESCTR.keyBytes else {
      throw PlayheadError(
        .invalidArgument, "an offline key must be 32 hex digits, not \(digits.count) characters")
    }
    var bytes: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
      let next = digits.index(index, offsetBy: 2)
      guard let byte = UInt8(digits[index..<next], radix: 16) else {
        throw PlayheadError(.invalidArgument, "an offline key must be hex digits, not '\(text)'")
      }
      bytes.append(byte)
      index = next
    }
    return bytes
  }
}

/// The cipher of one file of a download encrypted at rest: AES-128-CTR with the
/// application's key and a nonce derived from the file's path in the folder.
enum OfflineFileCipher {
  /// The scheme name written into manifests.
  static let scheme = "aes-128-ctr-v1"

  /// The nonce of the file at `relativePath` in a download with `salt` (hex text): the
  /// first 8 bytes of SHA-256("playhead-offline-nonce-v1" ‖ salt ‖ "/" ‖ path), the salt
  /// and the path as UTF-8.
  static func nonce(salt: String, path relativePath: String) throws(PlayheadError) -> [UInt8] {
    let input = "playhead-offline-nonce-v1" + salt + "/" + relativePath
    return Array(try SHA256.digest(Data(input.utf8)).prefix(AESCTR.nonceBytes))
  }

  /// The cipher for `relativePath` under `key` and `salt`.
  static func cipher(key: [UInt8], salt: String, path relativePath: String)
    throws(PlayheadError) -> AESCTR
  {
    try AESCTR(key: key, nonce: nonce(salt: salt, path: relativePath))
  }
}
