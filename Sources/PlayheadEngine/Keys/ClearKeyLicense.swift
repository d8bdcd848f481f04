import Foundation
import PlayheadCore
import PlayheadNet

/// Fetches content keys from a W3C EME ClearKey licence server: POSTs the key IDs as JSON
/// and reads the keys back from the JWK set the server answers with.
///
/// The request is `{"kids":["<base64url key ID>",…],"type":"temporary"}` with
/// `Content-Type: application/json`, sent through the player's data-source stack (purpose
/// `.key`, never cached, retried like any other key load). The answer must be a JWK set
/// (`{"keys":[{"kty":"oct","kid":"…","k":"…"}]}`) of at most `maxResponseBytes`; `kid`
/// and `k` are base64url with or without padding.
///
/// Errors, each a one-line `PlayheadError`: `.invalidArgument` for a licence URL that is
/// not http(s), no key IDs, or a key ID that is not 16 bytes; the stack's own errors
/// (`.httpStatus` with its status, `.timedOut`, `.connectionFailed`, `.cancelled`, …) for
/// the transfer; `.decryptionFailed`, naming the key IDs in lowercase hex and the licence
/// URL, for an answer that is too large, not JSON, not a JWK set, holds a key whose `kty`
/// is not `oct`, whose `kid` or `k` is not base64url, whose key is not 16 bytes, that gives
/// two keys for one key ID, or that lacks a key asked for. The call blocks: make it from a
/// loading thread.
///
/// ```swift
/// let keys = try ClearKeyLicense.keys(
///   for: [defaultKID], from: licenceURL, loader: stack.loader())
/// let key = keys[defaultKID]  // 16 bytes
/// ```
public enum ClearKeyLicense {
  /// The largest answer read, in bytes (1 MiB); a larger one fails the request.
  public static let maxResponseBytes = 1 << 20

  /// Asks the ClearKey licence server at `url` for the keys of `keyIDs` and returns them
  /// by key ID.
  ///
  /// `keyIDs` are 16-byte key IDs (a duplicate is asked for once); `headers` are sent
  /// with the request (an `Authorization`, a `Content-Type` to replace
  /// `application/json`). The result holds exactly the keys asked for, each 16 bytes; a
  /// key the answer holds for another key ID is left out. See the type for the errors.
  public static func keys(
    for keyIDs: [[UInt8]], from url: URL, loader: DataLoader,
    headers: [String: String] = [:]
  ) throws(PlayheadError) -> [[UInt8]: [UInt8]] {
    let wanted = try checkedKeyIDs(keyIDs, url: url)
    var fields = ["Content-Type": "application/json"]
    for (name, value) in headers {
      if name.lowercased() == "content-type" { fields["Content-Type"] = nil }
      fields[name] = value
    }
    let request = DataRequest(
      url: url, purpose: .key, headers: fields, flags: [.bypassesCache],
      body: requestBody(for: wanted))
    let limit = maxResponseBytes
    let tooLarge = Locked(false)
    let response: DataResponse
    do {
      response = try loader.load(request) { progress in
        let over = progress.bytesLoaded > limit || (progress.bytesExpected ?? 0) > limit
        if over { tooLarge.withLock { $0 = true } }
        return !over
      }
    } catch {
      if error.code == .cancelled, tooLarge.value { throw oversized(wanted, url: url) }
      throw error
    }
    if response.data.count > limit { throw oversized(wanted, url: url) }
    return try parseKeys(response.data, for: wanted, url: url)
  }

  /// The request's JSON: `{"kids":[…],"type":"temporary"}`, key IDs in base64url without
  /// padding, in the order given.
  static func requestBody(for keyIDs: [[UInt8]]) -> Data {
    let kids = keyIDs.map { OrderedJSON.string(Base64URL.encode($0)) }
    let json = OrderedJSON.object([
      .init("kids", .array(kids)), .init("type", .string("temporary")),
    ])
    return Data(json.encoded.utf8)
  }

  /// `keyIDs` without duplicates (first one kept); throws `.invalidArgument` for a URL
  /// that is not http(s), no key IDs, or a key ID that is not 16 bytes.
  private static func checkedKeyIDs(_ keyIDs: [[UInt8]], url: URL) throws(PlayheadError)
    -> [[UInt8]]
  {
    let scheme = url.scheme?.lowercased() ?? ""
    guard scheme == "http" || scheme == "https" else {
      throw PlayheadError(
        .invalidArgument,
        "a ClearKey licence URL must be http or https, not '\(scheme)': \(url.absoluteString)",
        url: url)
    }
    guard !keyIDs.isEmpty else {
      throw PlayheadError(
        .invalidArgument, "no key IDs to ask the ClearKey licence server \(url.absoluteString) for",
        url: url)
    }
    var seen = Set<[UInt8]>()
    var unique: [[UInt8]] = []
    for keyID in keyIDs where seen.insert(keyID).inserted {
      guard keyID.count == 16 else {
        throw PlayheadError(
          .invalidArgument,
          "key ID \(hex(keyID)) is \(keyID.count) bytes, not 16 (ClearKey licence "
            + "\(url.absoluteString))", url: url)
      }
      unique.append(keyID)
    }
    return unique
  }

  private static func oversized(_ keyIDs: [[UInt8]], url: URL) -> PlayheadError {
    failure("is larger than \(maxResponseBytes) bytes", keyIDs: keyIDs, url: url)
  }

  /// The `.decryptionFailed` error for an answer that `what`, naming the key IDs and `url`.
  static func failure(_ what: String, keyIDs: [[UInt8]], url: URL) -> PlayheadError {
    let label = keyIDs.count == 1 ? "key ID" : "key IDs"
    return PlayheadError(
      .decryptionFailed,
      "the ClearKey licence from \(url.absoluteString) for \(label) "
        + "\(keyIDs.map(hex).joined(separator: ", ")) \(what)", url: url)
  }

  /// `bytes` as lowercase hex (a key ID is 32 digits).
  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
