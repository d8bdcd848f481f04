import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// The Common Encryption keys a DASH download keeps beside its segments (the samples stay
/// encrypted on disk), so that it plays with no network as an AES-128 download does.
///
/// At download time every key ID the MPD names (`cenc:default_KID`) is asked of the
/// download configuration's keys, its content-key provider and its ClearKey licence
/// server (else the MPD's http(s) `Laurl`); the answers are written to
/// `content-keys.json` (key ID → key, both hexadecimal). A key ID nobody answers is left
/// out: the download completes, and playing it needs that key from the player's own
/// configuration. The file is not encrypted at rest (as AES-128 key files of a download
/// without an at-rest key are not).
enum OfflineContentKeys {
  /// The file name in the download folder.
  static let fileName = "content-keys.json"

  /// The keys of `keyIDs` that `resolver` finds, as the file's text; nil when none.
  static func text(for keyIDs: [[UInt8]], resolver: SampleKeyResolver) throws(PlayheadError)
    -> String?
  {
    var fields: [String] = []
    for keyID in keyIDs {
      guard let key = try resolver.key(for: keyID) else { continue }
      fields.append("\"\(SampleKeyID.hex(keyID))\":\"\(SampleKeyID.hex(key))\"")
    }
    return fields.isEmpty ? nil : "{" + fields.joined(separator: ",") + "}\n"
  }

  /// The keys kept in `folder`, or nil when it has none; throws `.unsupportedFormat` for a
  /// file that is not an object of hexadecimal strings.
  static func load(from folder: URL) throws(PlayheadError) -> SampleKeys? {
    let url = folder.appendingPathComponent(fileName)
    guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
    guard
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: String],
      data.count < 1 << 20
    else {
      throw PlayheadError(
        .unsupportedFormat, "\(fileName) of the download is not a key table", url: url)
    }
    return try SampleKeys(hex: object)
  }
}

/// Keys asked of `first`, then of `second`.
struct ChainedSampleKeys: SampleKeySource {
  let first: any SampleKeySource
  let second: any SampleKeySource

  func key(for keyID: [UInt8]) throws(PlayheadError) -> [UInt8]? {
    if let key = try first.key(for: keyID) { return key }
    return try second.key(for: keyID)
  }
}
