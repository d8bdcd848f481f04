import Foundation

// Playhead's helpers for handlers that keep their metadata in `metadata`. They are not part
// of swift-log's API: they stay (as extensions of its `LogHandler`) when `Logging.swift` is
// swapped for it.
extension LogHandler {
  /// One value of `metadata`; setting it changes this handler only.
  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  /// The metadata an entry is written with: the handler's, with the entry's own on top
  /// (an entry's key wins over the handler's).
  public func metadata(mergedWith entry: Logger.Metadata?) -> Logger.Metadata {
    guard let entry, !entry.isEmpty else { return metadata }
    return metadata.merging(entry) { _, entryValue in entryValue }
  }
}
