import Foundation
import PlayheadCore

/// What the engine asks a content-key provider for: the key of one `EXT-X-KEY`.
public struct ContentKeyRequest: Sendable, Equatable {
  /// The key's URI (`skd://…` for FairPlay, `data:…` for an inline key, a URL for AES-128).
  public var keyURI: URL
  /// The `METHOD` as written (the engine asks only for the AES-128 keys it decrypts with).
  public var method: String
  /// `KEYFORMAT` (`identity` unless the playlist says otherwise).
  public var keyFormat: String
  public var keyFormatVersions: String?

  public init(keyURI: URL, method: String, keyFormat: String, keyFormatVersions: String?) {
    self.keyURI = keyURI
    self.method = method
    self.keyFormat = keyFormat
    self.keyFormatVersions = keyFormatVersions
  }
}

/// A DRM plug-in point: supplies content keys instead of (or before) the engine fetching
/// the key URI itself.
///
/// The engine decrypts AES-128 (whole-segment CBC) only. A provider may return the
/// 16-byte key for an AES-128 `EXT-X-KEY` (a key server that needs a token, a key kept
/// on disk for offline play, an `skd://` or other key-system URI, which the engine never
/// loads itself). It is asked first, for every key URI; when it returns nil, a `data:` key
/// is decoded inline, an http(s) or file key is loaded, and any other key-system URI fails
/// the segments that need it with `.unsupportedEncryption`. Segments under a method other
/// than AES-128 (`SAMPLE-AES`, `AES-256`, an unknown one) fail with `.unsupportedEncryption`
/// naming the method when they are loaded; the segments before them play. FairPlay
/// Streaming does not exist on Linux (see docs/streaming.md).
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
