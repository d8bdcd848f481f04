import Foundation

/// `download`'s own options: `--out DIR` (`-o`), `--rendition N`, `--max-bitrate BPS` and
/// `--encrypt-key-hex HEX`.
struct DownloadOptions: OptionGroup, Equatable, Sendable {
  static let names: Set<String> = [
    "--out", "-o", "--rendition", "--max-bitrate", "--encrypt-key-hex",
  ]

  /// `--out DIR`: the folder to fill.
  var outputPath: String?
  /// `--rendition N`: the variant's index in the master playlist.
  var variantIndex: Int?
  /// `--max-bitrate BPS`: the highest variant whose bandwidth is at most BPS.
  var maxBitrate: Int?
  /// `--encrypt-key-hex HEX`: the key the media is encrypted with at rest.
  var encryptionKey: [UInt8]?

  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    let text = try cursor.value(for: name, inline: inline)
    switch name {
    case "--rendition":
      variantIndex = try ArgumentValue.integer(text, option: name, in: 0...10_000)
    case "--max-bitrate":
      maxBitrate = try ArgumentValue.integer(text, option: name, in: 1...Int(Int32.max))
    case "--encrypt-key-hex":
      encryptionKey = try ArgumentValue.key(text, option: name)
    default:
      outputPath = try ArgumentValue.path(text, option: name)
    }
  }
}
