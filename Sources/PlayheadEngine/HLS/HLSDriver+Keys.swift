import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadMedia
import PlayheadNet

/// Content keys and decryption of segments and initialization sections.
///
/// AES-128 resources are decrypted whole as they load. Sample-encrypted segments
/// (`SAMPLE-AES`, `SAMPLE-AES-CTR`, `SAMPLE-AES-CENC`) load as they are and carry their key
/// (`sampleKey`) to the run, whose demuxer decrypts each packet (`attachDecryptor`). A
/// resource under another method (`AES-256`, `AES-256-CTR`, `AES-256-GCM`, an unknown
/// one) fails with `.unsupportedEncryption` naming the method when it is loaded, so the
/// clear resources before it play. A key comes from the key cache, else the content-key
/// provider, else a `data:` URI decoded inline, else its URI loaded (`http(s)` or
/// `file`); a key-system URI (`skd://…`) that no provider answers for fails with
/// `.unsupportedEncryption`.
extension HLSDriver {
  /// The decorator that decrypts a resource loaded with `key` and `iv`: nil when the
  /// resource is clear or sample-encrypted (its packets are decrypted later), AES-128 with
  /// the key fetched (or cached) now; throws `.unsupportedEncryption` for another method.
  ///
  /// `resource` names what is decrypted in messages ("segment 12").
  func decryption(
    key: EncryptionKey?, iv: [UInt8]?, resource: String, url: URL,
    isInitializationSection: Bool = false
  ) throws(PlayheadError) -> DataSourceDecorator? {
    guard let key, key.method != .none else { return nil }
    // Sample encryption leaves the initialization section clear (RFC 8216 4.3.2.4), and
    // a segment's structure: its packets are decrypted after demuxing.
    if Self.sampleMethods.contains(key.method) { return nil }
    guard key.method == .aes128 else {
      throw PlayheadError(
        .unsupportedEncryption,
        "\(resource) (\(url.absoluteString)) is encrypted with METHOD=\(key.method.rawValue), "
          + "which Playhead cannot decrypt (AES-128, SAMPLE-AES and SAMPLE-AES-CTR only)",
        url: url)
    }
    let keyBytes = try aes128Key(key, resource: resource, url: url)
    guard let iv, iv.count == 16 else {
      throw PlayheadError(
        .unsupportedFormat, "AES-128 \(resource) without a 16-byte IV", url: url)
    }
    return DataSourceDecorator { AES128DataSource(upstream: $0, key: keyBytes, iv: iv) }
  }

  /// The methods that encrypt samples, not whole resources.
  static let sampleMethods: Set<KeyMethod> = [.sampleAES, .sampleAESCTR, .sampleAESCENC]

  /// The key that decrypts the samples of `segment`, fetched (or cached) now; nil when its
  /// samples are clear or it is decrypted whole.
  func sampleKey(of segment: MediaSegment) throws(PlayheadError) -> SegmentSampleKey? {
    guard let key = segment.key, Self.sampleMethods.contains(key.method) else { return nil }
    let resource = "segment \(segment.mediaSequence)"
    let bytes = try aes128Key(key, resource: resource, url: segment.uri)
    return SegmentSampleKey(
      method: key.method, key: bytes,
      iv: key.iv ?? EncryptionKey.sequenceIV(segment.mediaSequence),
      label: "the key \(Self.excerpt(key.uriString ?? "?")) of \(resource)")
  }

  /// The 16 bytes of an AES-128 or sample key (fetched or decoded once, then cached by
  /// URI).
  private func aes128Key(_ key: EncryptionKey, resource: String, url: URL)
    throws(PlayheadError) -> [UInt8]
  {
    guard let keyURIText = key.uriString, let keyURL = key.uri else {
      throw PlayheadError(.unsupportedFormat, "AES-128 key without a URI", url: url)
    }
    lock.lock()
    let cached = keyCache[keyURL]
    lock.unlock()
    if let cached { return cached }
    let keyBytes: [UInt8]
    if let provided = try configuration.contentKeyProvider?.contentKey(
      for: ContentKeyRequest(
        keyURI: keyURL, method: key.method.rawValue, keyFormat: key.keyFormat,
        keyFormatVersions: key.keyFormatVersions))
    {
      guard provided.count == 16 else {
        throw PlayheadError(
          .decryptionFailed,
          "the content-key provider gave \(provided.count) bytes for \(Self.excerpt(keyURIText)), not 16",
          url: keyURL)
      }
      keyBytes = provided
    } else if keyURIText.lowercased().hasPrefix("data:") {
      guard let inline = key.inlineKey else {
        throw PlayheadError(
          .decryptionFailed,
          "the AES-128 key of \(resource) is a data: URI that is not base64 or percent-encoded",
          url: url)
      }
      guard inline.count == 16 else {
        throw PlayheadError(
          .decryptionFailed,
          "the AES-128 key of \(resource) is a data: URI of \(inline.count) bytes, not 16",
          url: url)
      }
      keyBytes = inline
    } else if key.isLoadable {
      let response = try loader.load(DataRequest(url: keyURL, purpose: .key))
      keyBytes = [UInt8](response.data)
      guard keyBytes.count == 16 else {
        throw PlayheadError(
          .decodeFailed,
          "the AES-128 key at \(keyURL.absoluteString) has \(keyBytes.count) bytes, not 16",
          url: keyURL)
      }
    } else {
      throw PlayheadError(
        .unsupportedEncryption,
        "the key of \(resource) is '\(Self.excerpt(keyURIText))', a key for a key system, "
          + "and no content-key provider answered for it", url: url)
    }
    lock.lock()
    keyCache[keyURL] = keyBytes
    lock.unlock()
    return keyBytes
  }

  /// `text` shortened for a message (a `data:` URI can be long).
  private static func excerpt(_ text: String) -> String {
    text.count <= 80 ? text : String(text.prefix(77)) + "..."
  }
}
