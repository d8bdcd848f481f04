import Foundation
import Playhead

/// `--cache-dir DIR` and `--cache-max-mb N`: play through a disk cache in DIR, keeping at
/// most N MiB (default 20 GiB).
struct CacheOptions: OptionGroup, Equatable, Sendable {
  /// The option names this type reads.
  static let names: Set<String> = ["--cache-dir", "--cache-max-mb"]

  /// `--cache-dir DIR`.
  var directory: String?
  /// `--cache-max-mb N`, in MiB.
  var maximumMegabytes: Int?

  /// Reads the value of `name` (one of `names`) from `cursor`.
  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    let text = try cursor.value(for: name, inline: inline)
    switch name {
    case "--cache-dir":
      directory = try ArgumentValue.path(text, option: name)
    default:
      maximumMegabytes = try ArgumentValue.integer(text, option: name, in: 1...100_000_000)
    }
  }

  /// Checks that the options go together.
  func validate() throws(UsageError) {
    if maximumMegabytes != nil && directory == nil {
      throw UsageError("option '--cache-max-mb' goes with '--cache-dir DIR'")
    }
  }

  /// The cache these options name, opened; nil without `--cache-dir`.
  func open() throws(PlayheadError) -> MediaCache? {
    guard let directory else { return nil }
    var configuration = MediaCache.Configuration()
    if let maximumMegabytes {
      configuration.maximumBytes = Int64(maximumMegabytes) * 1024 * 1024
    }
    return try MediaCache.open(directory: fileURL(forPath: directory), configuration: configuration)
  }
}
