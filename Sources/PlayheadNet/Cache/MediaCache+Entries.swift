import Foundation
import PlayheadCore

/// What a load sees of an entry at one moment.
struct CacheEntryState: Sendable {
  var spans: [CacheSpan]
  var totalLength: Int64?
}

extension MediaCache {
  /// Starts using the entry of `key` (creating it in memory when there is none) and marks
  /// it used now; nil when the cache is closed, or when another key with the same hash
  /// is in use (the load then bypasses the cache). Balance with `release`.
  func acquire(key: String) -> CacheEntry? {
    lock.lock()
    guard !closed else {
      lock.unlock()
      return nil
    }
    let id = CacheEntry.identifier(for: key)
    var trash: URL?
    let entry: CacheEntry
    if let existing = entriesByID[id], existing.key == key {
      entry = existing
    } else {
      if let other = entriesByID[id] {
        guard other.users == 0 else {
          lock.unlock()
          return nil
        }
        trash = detachLocked(other)
      }
      entry = CacheEntry(
        id: id, key: key, directory: entriesDirectory.appendingPathComponent(id))
      entriesByID[id] = entry
    }
    entry.users += 1
    let stamp = nextStampLocked()
    entry.accessStamp = stamp
    let touch = entry.hasDirectory && !isReadOnly
    lock.unlock()
    if let trash { CacheFiles.removeTree(trash) }
    if touch { CacheFiles.setModificationNanoseconds(entry.indexURL, stamp) }
    return entry
  }

  /// Stops using `entry`; an entry left empty is forgotten, and the cache is trimmed
  /// (entries in use may have kept it over its limits).
  func release(_ entry: CacheEntry) {
    lock.lock()
    entry.users = max(0, entry.users - 1)
    var trash: URL?
    if entry.users == 0 && entry.spans.isEmpty && !entry.isRemoved {
      trash = detachLocked(entry)
    }
    let needsTrim =
      storedTotalBytes > storedConfiguration.effectiveMaximumBytes
      || storedConfiguration.effectiveMinimumFreeBytes > 0
    lock.unlock()
    if let trash { CacheFiles.removeTree(trash) }
    if needsTrim { trim() }
  }

  /// The entry's spans and length now.
  func state(of entry: CacheEntry) -> CacheEntryState {
    lock.lock()
    defer { lock.unlock() }
    return CacheEntryState(spans: entry.spans, totalLength: entry.totalLength)
  }

  /// Reads `count` bytes at `position` from `span` of `entry`; nil when the span's file
  /// is gone or short (the caller then drops the span with `discard`).
  func read(_ entry: CacheEntry, span: CacheSpan, at position: Int64, count: Int) -> Data? {
    guard position >= span.offset, position + Int64(count) <= span.end else { return nil }
    return CacheFiles.read(entry.spanURL(span), offset: position - span.offset, count: count)
  }

  /// Drops `span` of `entry` (its file could not be read): from memory, from the index
  /// and from disk.
  func discard(_ span: CacheSpan, of entry: CacheEntry) {
    entry.commitLock.lock()
    defer { entry.commitLock.unlock() }
    lock.lock()
    guard let index = entry.spans.firstIndex(of: span) else {
      lock.unlock()
      return
    }
    entry.spans.remove(at: index)
    if !entry.isRemoved { storedTotalBytes -= span.length }
    let record = CacheEntryIndex(
      format: CacheEntryIndex.currentFormat, key: entry.key, totalLength: entry.totalLength,
      spans: entry.spans)
    let stamp = entry.accessStamp
    let writes = !isReadOnly && !entry.isRemoved && entry.hasDirectory
    lock.unlock()
    guard writes else { return }
    try? writeIndex(record, of: entry, stamp: stamp)
    CacheFiles.removeTree(entry.spanURL(span))
  }

  /// Stores `data`, the resource's bytes from `offset`, in `entry` (which the caller is
  /// using): only the parts not cached yet, each as a new span, made durable before the
  /// index lists them. `totalLength` records the resource's length when known; a length
  /// that differs from the recorded one means the resource changed, and the old spans go.
  /// Nothing is stored when the cache is read-only, or when the bytes do not fit within
  /// the capacity and free-disk floor even after evicting every unused entry.
  func store(_ data: Data, at offset: Int64, totalLength: Int64?, in entry: CacheEntry) {
    guard !isReadOnly else { return }
    entry.commitLock.lock()
    defer { entry.commitLock.unlock() }
    lock.lock()
    guard !closed, !entry.isRemoved else {
      lock.unlock()
      return
    }
    var current = entry.spans
    let known = entry.totalLength
    lock.unlock()
    if let known, let totalLength, known != totalLength {
      dropAllSpans(of: entry)
      current = []
    }
    let length = totalLength ?? known
    var end = offset + Int64(data.count)
    if let length { end = min(end, length) }
    let pieces = end > offset ? CacheSpans.uncovered(offset: offset, end: end, by: current) : []
    let bytes = pieces.reduce(0) { $0 + $1.length }
    guard bytes > 0 || length != known else { return }
    guard makeRoom(for: bytes, keeping: entry) else { return }
    var written: [CacheSpan] = []
    do throws(PlayheadError) {
      if !entry.hasDirectoryNow(in: self) {
        try CacheFiles.makeDirectory(entry.directory)
        try CacheFiles.syncDirectory(entriesDirectory)
        lock.lock()
        entry.hasDirectory = true
        lock.unlock()
      }
      for piece in pieces {
        let start = Int(piece.offset - offset)
        try CacheFiles.writeDurably(
          data.subdata(in: start..<(start + Int(piece.length))), to: entry.spanURL(piece))
        written.append(piece)
      }
      if !written.isEmpty { try CacheFiles.syncDirectory(entry.directory) }
      let spans = CacheSpans.inserting(pieces, into: current)
      lock.lock()
      let stamp = entry.accessStamp
      lock.unlock()
      try writeIndex(
        CacheEntryIndex(
          format: CacheEntryIndex.currentFormat, key: entry.key, totalLength: length,
          spans: spans), of: entry, stamp: stamp)
      lock.lock()
      entry.spans = spans
      entry.totalLength = length
      if !entry.isRemoved { storedTotalBytes += bytes }
      lock.unlock()
    } catch {
      // A failed write (a full disk, say) leaves the entry as it was; the new files,
      // which no index lists, go now or at the next open.
      for piece in written { CacheFiles.removeTree(entry.spanURL(piece)) }
    }
  }

  /// Forgets every span of `entry` and deletes their files (the resource changed).
  /// The caller holds the entry's commit lock.
  private func dropAllSpans(of entry: CacheEntry) {
    lock.lock()
    let old = entry.spans
    entry.spans = []
    entry.totalLength = nil
    if !entry.isRemoved { storedTotalBytes -= old.reduce(0) { $0 + $1.length } }
    let stamp = entry.accessStamp
    let writes = entry.hasDirectory
    lock.unlock()
    guard writes else { return }
    try? writeIndex(
      CacheEntryIndex(
        format: CacheEntryIndex.currentFormat, key: entry.key, totalLength: nil, spans: []),
      of: entry, stamp: stamp)
    for span in old { CacheFiles.removeTree(entry.spanURL(span)) }
  }

  /// Evicts least recently used unused entries (never `keeping`) until `bytes` more fit
  /// within the capacity and the free-disk floor; false when they cannot.
  func makeRoom(for bytes: Int64, keeping: CacheEntry?) -> Bool {
    while true {
      let settings = configuration
      if bytes > settings.effectiveMaximumBytes { return false }
      // Asked outside the lock: the provider may take its time or look at the files.
      let free =
        settings.effectiveMinimumFreeBytes > 0
        ? settings.freeSpaceProvider.availableBytes(at: directory) : nil
      lock.lock()
      let overCapacity = storedTotalBytes + bytes > settings.effectiveMaximumBytes
      let lowOnDisk = free.map { $0 - bytes < settings.effectiveMinimumFreeBytes } ?? false
      if !overCapacity && !lowOnDisk {
        lock.unlock()
        return true
      }
      let candidates = entriesByID.values.filter {
        $0.users == 0 && $0 !== keeping && !$0.spans.isEmpty
      }
      guard !isReadOnly, let victim = candidates.min(by: { $0.accessStamp < $1.accessStamp })
      else {
        lock.unlock()
        return false
      }
      let trash = detachLocked(victim)
      lock.unlock()
      if let trash { CacheFiles.removeTree(trash) }
    }
  }

  /// The cached bytes of `range` of `key`'s resource (to its end when the range has no
  /// length); nil unless every one of them is cached and readable.
  public func cachedData(forKey key: String, range: ByteRange = ByteRange(offset: 0, length: nil))
    -> Data?
  {
    guard let entry = acquire(key: key) else { return nil }
    defer { release(entry) }
    let now = state(of: entry)
    guard let end = range.end ?? now.totalLength, end >= range.offset else { return nil }
    var data = Data()
    var position = range.offset
    while position < end {
      guard let span = CacheSpans.span(containing: position, in: now.spans) else { return nil }
      let count = Int(min(span.end, end) - position)
      guard let bytes = read(entry, span: span, at: position, count: count) else { return nil }
      data.append(bytes)
      position += Int64(count)
    }
    return data
  }
}

/// Keeps one entry in use (safe from eviction) until released or deinitialised.
final class CacheLease: Sendable {
  private let cache: MediaCache
  private let entry: Locked<CacheEntry?>

  /// Starts using the entry of `key`; nil when the cache does not give it.
  init?(cache: MediaCache, key: String) {
    guard let entry = cache.acquire(key: key) else { return nil }
    self.cache = cache
    self.entry = Locked(entry)
  }

  deinit { release() }

  /// The byte ranges of the entry on disk now, in order; empty once released.
  var cachedRanges: [ByteRange] {
    guard let held = entry.value else { return [] }
    return cache.state(of: held).spans.map { ByteRange(offset: $0.offset, length: $0.length) }
  }

  /// Stops using the entry; later calls do nothing.
  func release() {
    let held = entry.withLock { entry in
      defer { entry = nil }
      return entry
    }
    if let held { cache.release(held) }
  }
}

extension CacheEntry {
  /// Whether the entry's directory exists, read under the cache's lock.
  fileprivate func hasDirectoryNow(in cache: MediaCache) -> Bool {
    cache.lock.lock()
    defer { cache.lock.unlock() }
    return hasDirectory
  }
}
