import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// Finds the content key of a Common Encryption key ID for a stream's packet decryptors,
/// asking in order: the keys the application gave (`HLSConfiguration.sampleKeySource`,
/// `play --key`), its `ContentKeyProvider` (asked with the key ID), the ClearKey licence
/// server (`HLSConfiguration.clearKeyLicenseURL`, else the MPD's `Laurl`). Answers are
/// kept for the stream's life; nil from every place leaves the decryptor to fail with the
/// key ID named (a run of HLS segments first tries its segment's key: `RunSampleKeys`).
final class SampleKeyResolver: SampleKeySource {
  private let configured: (any SampleKeySource)?
  private let provider: (any ContentKeyProvider)?
  /// Fetches keys from the licence server (nil when there is none).
  private let license: (@Sendable ([[UInt8]]) throws(PlayheadError) -> [[UInt8]: [UInt8]])?
  private let cache = Locked<[[UInt8]: [UInt8]]>([:])

  init(
    configured: (any SampleKeySource)?, provider: (any ContentKeyProvider)?,
    license: (@Sendable ([[UInt8]]) throws(PlayheadError) -> [[UInt8]: [UInt8]])?
  ) {
    self.configured = configured
    self.provider = provider
    self.license = license
  }

  func key(for keyID: [UInt8]) throws(PlayheadError) -> [UInt8]? {
    if let cached = cache.withLock({ $0[keyID] }) { return cached }
    if let key = try configured?.key(for: keyID) { return remember(key, for: keyID) }
    let hex = SampleKeyID.hex(keyID)
    if let provider,
      let key = try provider.contentKey(
        for: ContentKeyRequest(keyID: hex, method: "cenc", keyURI: Self.keyURI(hex)))
    {
      return remember(key, for: keyID)
    }
    if let license {
      let keys = try license([keyID])
      cache.withLock { cache in cache.merge(keys) { _, new in new } }
      return keys[keyID]
    }
    return nil
  }

  private func remember(_ key: [UInt8], for keyID: [UInt8]) -> [UInt8] {
    cache.withLock { $0[keyID] = key }
    return key
  }

  /// The URI a provider sees for a key ID: `urn:uuid:` and the ID in UUID form.
  static func keyURI(_ hex: String) -> URL {
    let characters = Array(hex)
    guard characters.count == 32 else { return URL(string: "urn:uuid:\(hex)")! }
    let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }
    return URL(string: "urn:uuid:" + groups.joined(separator: "-"))!
  }
}

/// The keys of one run: the stream's (`SampleKeyResolver`), else the key of the HLS
/// segment being read (`SAMPLE-AES-CTR` and cbcs `SAMPLE-AES` name their key by URI, not
/// by key ID).
struct RunSampleKeys: SampleKeySource {
  let stream: SampleKeyResolver
  let schedule: RunKeySchedule

  func key(for keyID: [UInt8]) throws(PlayheadError) -> [UInt8]? {
    if let key = try stream.key(for: keyID) { return key }
    return schedule.latestKey?.key
  }
}

extension SampleKeyID {
  /// `keyID` as lowercase hexadecimal digits only.
  static func hex(_ keyID: [UInt8]) -> String {
    keyID.map { String(format: "%02x", $0) }.joined()
  }
}
