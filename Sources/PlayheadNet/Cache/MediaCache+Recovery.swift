import Foundation
import PlayheadCore

extension MediaCache {
  /// Checks (or writes, in a new or empty directory) the format marker; throws for a
  /// directory that holds other files or a cache of another format.
  static func checkMarker(in directory: URL) throws(PlayheadError) {
    let marker = directory.appendingPathComponent(markerName)
    if CacheFiles.fileSize(marker) != nil {
      let contents = (try? String(contentsOf: marker, encoding: .utf8)) ?? ""
      guard contents == markerContents else {
        throw PlayheadError(
          .unsupportedFormat,
          "\(directory.path) holds a cache of another format "
            + "(\(contents.trimmingCharacters(in: .whitespacesAndNewlines)))", url: directory)
      }
      return
    }
    let others = CacheFiles.names(in: directory).filter {
      $0 != lockName && !$0.hasPrefix(CacheFiles.temporaryPrefix)
    }
    guard others.isEmpty else {
      throw PlayheadError(
        .invalidArgument,
        "\(directory.path) is not empty and holds no Playhead cache; give a new or empty "
          + "directory", url: directory)
    }
    try CacheFiles.writeDurably(Data(markerContents.utf8), to: marker)
    try CacheFiles.syncDirectory(directory)
  }

  /// Loads the entries on disk. A writable cache first deletes everything it does not
  /// recognise or that is incomplete and rewrites indexes that list missing spans; a
  /// read-only cache (another process owns the directory) only skips such things.
  func recover() throws(PlayheadError) -> [CacheEntry] {
    let repairs = !isReadOnly
    let entriesURL = entriesDirectory
    if repairs {
      let known: Set<String> = [Self.markerName, Self.lockName, Self.entriesName]
      for name in CacheFiles.names(in: directory) where !known.contains(name) {
        CacheFiles.removeTree(directory.appendingPathComponent(name))
      }
      try CacheFiles.makeDirectory(entriesURL)
    }
    var loaded: [CacheEntry] = []
    for name in CacheFiles.names(in: entriesURL) {
      let url = entriesURL.appendingPathComponent(name)
      guard CacheEntry.isIdentifier(name), CacheFiles.isDirectory(url),
        let entry = loadEntry(at: url, id: name, repairs: repairs)
      else {
        if repairs { CacheFiles.removeTree(url) }
        continue
      }
      loaded.append(entry)
    }
    if repairs {
      try CacheFiles.syncDirectory(entriesURL)
      try CacheFiles.syncDirectory(directory)
    }
    return loaded
  }

  /// The entry whose directory is `url`, with the spans whose files are whole; nil when
  /// its index is unreadable, belongs to another directory, or lists no whole span.
  private func loadEntry(at url: URL, id: String, repairs: Bool) -> CacheEntry? {
    let indexURL = url.appendingPathComponent("index.json")
    guard let data = try? Data(contentsOf: indexURL),
      let index = try? JSONReader.decode(CacheEntryIndex.self, from: data, limits: .localState),
      index.format == CacheEntryIndex.currentFormat,
      CacheEntry.identifier(for: index.key) == id,
      CacheSpans.areValid(index.spans, totalLength: index.totalLength),
      let stamp = CacheFiles.modificationNanoseconds(indexURL)
    else { return nil }
    let entry = CacheEntry(id: id, key: index.key, directory: url)
    let kept = index.spans.filter {
      CacheFiles.fileSize(entry.spanURL($0)) == $0.length
    }
    guard !kept.isEmpty else { return nil }
    if repairs {
      let wanted = Set(kept.map(\.fileName) + ["index.json"])
      for name in CacheFiles.names(in: url) where !wanted.contains(name) {
        CacheFiles.removeTree(url.appendingPathComponent(name))
      }
      if kept != index.spans {
        var repaired = index
        repaired.spans = kept
        do {
          try writeIndex(repaired, of: entry, stamp: stamp)
        } catch {
          return nil
        }
      }
    }
    entry.totalLength = index.totalLength
    entry.spans = kept
    entry.accessStamp = stamp
    entry.hasDirectory = true
    return entry
  }

  /// Writes `index` as the entry's `index.json` durably and sets its time to `stamp`
  /// (the entry's last access, which orders eviction after a restart).
  func writeIndex(_ index: CacheEntryIndex, of entry: CacheEntry, stamp: Int64)
    throws(PlayheadError)
  {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data: Data
    do {
      data = try encoder.encode(index)
    } catch {
      throw PlayheadError(
        .ioError,
        "cannot encode the cache index of \(index.key): \(PlayheadError.reason(for: error))")
    }
    try CacheFiles.writeDurably(data, to: entry.indexURL)
    try CacheFiles.syncDirectory(entry.directory)
    CacheFiles.setModificationNanoseconds(entry.indexURL, stamp)
  }
}
