import Foundation
import PlayheadCore

/// What the engine asks a content-key provider for: the key of one `EXT-X-KEY`, or the
/// key of one Common Encryption key ID (DASH `cenc:default_KID`, an MP4's `tenc`).
public struct ContentKeyRequest: Sendable, Equatable {
  /// The key's URI (`skd://…` for FairPlay, `data:…` for an inline key, a URL for AES-128
  /// and sample keys); `urn:uuid:…` (the key ID) for a Common Encryption key.
  public var keyURI: URL
  /// The `METHOD` as written (`AES-128`, `SAMPLE-AES`, `SAMPLE-AES-CTR`); `cenc` for a
  /// Common Encryption key asked by ID.
  public var method: String
  /// `KEYFORMAT` (`identity` unless the playlist says otherwise); `cenc` for a key ID.
  public var keyFormat: String
  public var keyFormatVersions: String?
  /// The Common Encryption key ID, 32 lowercase hexadecimal digits; nil for an HLS key.
  public var keyID: String?

  public init(keyURI: URL, method: String, keyFormat: String, keyFormatVersions: String?) {
    self.keyURI = keyURI
    self.method = method
    self.keyFormat = keyFormat
    self.keyFormatVersions = keyFormatVersions
  }

  /// A request for the key of the Common Encryption key ID `keyID` (32 hex digits).
  public init(keyID: String, method: String, keyURI: URL) {
    self.init(keyURI: keyURI, method: method, keyFormat: "cenc", keyFormatVersions: nil)
    self.keyID = keyID
  }
}

/// A DRM plug-in point: supplies content keys instead of (or before) the engine fetching
/// the key URI itself.
///
/// The engine decrypts AES-128 (whole segments), HLS `SAMPLE-AES` / `SAMPLE-AES-CTR` and
/// Common Encryption (`cenc`, `cbcs`) samples. A provider may return the 16-byte key for an
/// `EXT-X-KEY` (a key server that needs a token, a key kept on disk for offline play, an
/// `skd://` or other key-system URI, which the engine never loads itself), or for a Common
/// Encryption key ID (`ContentKeyRequest.keyID` set; DASH ContentProtection). It is asked
/// first, for every key URI, and after the application's fixed keys for a key ID; when it
/// returns nil, a `data:` key is decoded inline, an http(s) or file key is loaded, a key ID
/// goes to the ClearKey licence server when there is one, and anything else fails the
/// content that needs it with a typed error naming the key. Segments under another method
/// (`AES-256`, an unknown one) fail with `.unsupportedEncryption` naming the method when
/// they are loaded; the segments before them play. FairPlay Streaming and Widevine do not
/// exist on Linux (see docs/encryption.md).
public protocol ContentKeyProvider: Sendable {
  /// The key for `request`, or nil to let the engine load the key URI itself.
  func contentKey(for request: ContentKeyRequest) throws(PlayheadError) -> [UInt8]?
}

/// Application certificates by identifier, the shape of the seed SDK's FairPlay API.
///
/// Certificates are stored and handed to content-key providers that ask for them; the
/// engine itself never uses them, as FairPlay does not exist on Linux.
public final class ApplicationCertificateRegistry: Sendable {
  /// The process-wide registry.
  public static let shared = ApplicationCertificateRegistry()

  private let certificates = Locked<[String: Data]>([:])

  public init() {}

  /// Stores `certificate` under `identifier`, replacing any earlier one.
  public func add(_ certificate: Data, identifier: String) {
    certificates.withLock { $0[identifier] = certificate }
  }

  /// Removes the certificate under `identifier`.
  public func remove(identifier: String) {
    certificates.withLock { $0[identifier] = nil }
  }

  /// The certificate under `identifier`, if any.
  public func certificate(for identifier: String) -> Data? {
    certificates.withLock { $0[identifier] }
  }

  /// Every identifier with a certificate.
  public var identifiers: [String] {
    certificates.withLock { $0.keys.sorted() }
  }
}
