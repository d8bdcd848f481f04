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
    let id = CacheEntry.identifier(for: key)
    let directory = entriesDirectory.appendingPathComponent(id)
    let acquired: (entry: CacheEntry, trash: URL?, stamp: Int64, touch: Bool)? =
      state.withLock { state in
        guard !state.closed else { return nil }
        var trash: URL?
        let entry: CacheEntry
        if let existing = state.entriesByID[id], existing.key == key {
          entry = existing
        } else {
          if let other = state.entriesByID[id] {
            guard other.users == 0 else { return nil }
            trash = detach(other, from: &state)
          }
          entry = CacheEntry(id: id, key: key, directory: directory)
          state.entriesByID[id] = entry
        }
        entry.users += 1
        let stamp = state.nextStamp()
        entry.accessStamp = stamp
        return (entry, trash, stamp, entry.hasDirectory && !isReadOnly)
      }
    guard let acquired else { return nil }
    if let trash = acquired.trash { CacheFiles.removeTree(trash) }
    if acquired.touch {
      CacheFiles.setModificationNanoseconds(acquired.entry.indexURL, acquired.stamp)
    }
    return acquired.entry
  }

  /// Stops using `entry`; an entry left empty is forgotten, and the cache is trimmed
  /// (entries in use may have kept it over its limits).
  func release(_ entry: CacheEntry) {
    let (trash, needsTrim): (URL?, Bool) = state.withLock { state in
      entry.users = max(0, entry.users - 1)
      var trash: URL?
      if entry.users == 0 && entry.spans.isEmpty && !entry.isRemoved {
        trash = detach(entry, from: &state)
      }
      let needsTrim =
        state.totalBytes > state.configuration.effectiveMaximumBytes
        || state.configuration.effectiveMinimumFreeBytes > 0
      return (trash, needsTrim)
    }
    if let trash { CacheFiles.removeTree(trash) }
    if needsTrim { trim() }
  }

  /// The entry's spans and length now.
  func state(of entry: CacheEntry) -> CacheEntryState {
    state.withLock { _ in CacheEntryState(spans: entry.spans, totalLength: entry.totalLength) }
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
    entry.withCommitLock {
      let dropped: (record: CacheEntryIndex, stamp: Int64, writes: Bool)? = state.withLock {
        state in
        guard let index = entry.spans.firstIndex(of: span) else { return nil }
        entry.spans.remove(at: index)
        if !entry.isRemoved { state.totalBytes -= span.length }
        let record = CacheEntryIndex(
          format: CacheEntryIndex.currentFormat, key: entry.key, totalLength: entry.totalLength,
          spans: entry.spans)
        return (record, entry.accessStamp, !isReadOnly && !entry.isRemoved && entry.hasDirectory)
      }
      guard let dropped, dropped.writes else { return }
      try? writeIndex(dropped.record, of: entry, stamp: dropped.stamp)
      CacheFiles.removeTree(entry.spanURL(span))
    }
  }

  /// Stores `data`, the resource's bytes from `offset`, in `entry` (which the caller is
  /// using): only the parts not cached yet, each as a new span, made durable before the
  /// index lists them. `totalLength` records the resource's length when known; a length
  /// that differs from the recorded one means the resource changed, and the old spans go.
  /// Nothing is stored when the cache is read-only, or when the bytes do not fit within
  /// the capacity and free-disk floor even after evicting every unused entry.
  func store(_ data: Data, at offset: Int64, totalLength: Int64?, in entry: CacheEntry) {
    guard !isReadOnly else { return }
    // The commit lock exists to make the whole commit atomic: the file writes, and the
    // cache's lock taken inside it (decision 0026's exception for such work).
    entry.withCommitLock {
      storeCommitting(data, at: offset, totalLength: totalLength, in: entry)
    }
  }

  /// `store`, with the entry's commit lock held.
  private func storeCommitting(
    _ data: Data, at offset: Int64, totalLength: Int64?, in entry: CacheEntry
  ) {
    let now: CacheEntryState? = state.withLock { state in
      guard !state.closed, !entry.isRemoved else { return nil }
      return CacheEntryState(spans: entry.spans, totalLength: entry.totalLength)
    }
    guard let now else { return }
    var current = now.spans
    let known = now.totalLength
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
      if !state.withLock({ _ in entry.hasDirectory }) {
        try CacheFiles.makeDirectory(entry.directory)
        try CacheFiles.syncDirectory(entriesDirectory)
        state.withLock { _ in entry.hasDirectory = true }
      }
      for piece in pieces {
        let start = Int(piece.offset - offset)
        try CacheFiles.writeDurably(
          data.subdata(in: start..<(start + Int(piece.length))), to: entry.spanURL(piece))
        written.append(piece)
      }
      if !written.isEmpty { try CacheFiles.syncDirectory(entry.directory) }
      let spans = CacheSpans.inserting(pieces, into: current)
      let stamp = state.withLock { _ in entry.accessStamp }
      try writeIndex(
        CacheEntryIndex(
          format: CacheEntryIndex.currentFormat, key: entry.key, totalLength: length,
          spans: spans), of: entry, stamp: stamp)
      state.withLock { state in
        entry.spans = spans
        entry.totalLength = length
        if !entry.isRemoved { state.totalBytes += bytes }
      }
    } catch {
      // A failed write (a full disk, say) leaves the entry as it was; the new files,
      // which no index lists, go now or at the next open.
      for piece in written { CacheFiles.removeTree(entry.spanURL(piece)) }
    }
  }

  /// Forgets every span of `entry` and deletes their files (the resource changed).
  /// The caller holds the entry's commit lock.
  private func dropAllSpans(of entry: CacheEntry) {
    let (old, stamp, writes) = state.withLock { state in
      let old = entry.spans
      entry.spans = []
      entry.totalLength = nil
      if !entry.isRemoved { state.totalBytes -= old.reduce(0) { $0 + $1.length } }
      return (old, entry.accessStamp, entry.hasDirectory)
    }
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
      let step: RoomStep = state.withLock { state in
        let overCapacity = state.totalBytes + bytes > settings.effectiveMaximumBytes
        let lowOnDisk = free.map { $0 - bytes < settings.effectiveMinimumFreeBytes } ?? false
        if !overCapacity && !lowOnDisk { return .fits }
        let candidates = state.entriesByID.values.filter {
          $0.users == 0 && $0 !== keeping && !$0.spans.isEmpty
        }
        guard !isReadOnly, let victim = candidates.min(by: { $0.accessStamp < $1.accessStamp })
        else { return .cannot }
        return .evicted(trash: detach(victim, from: &state))
      }
      switch step {
      case .fits: return true
      case .cannot: return false
      case .evicted(let trash): if let trash { CacheFiles.removeTree(trash) }
      }
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
  private let held: Locked<CacheEntry?>

  /// Starts using the entry of `key`; nil when the cache does not give it.
  init?(cache: MediaCache, key: String) {
    guard let entry = cache.acquire(key: key) else { return nil }
    self.cache = cache
    self.held = Locked(entry)
  }

  deinit { release() }

  /// The entry while it is held; nil once released.
  var entry: CacheEntry? { held.value }

  /// The byte ranges of the entry on disk now, in order; empty once released.
  var cachedRanges: [ByteRange] {
    guard let entry = held.value else { return [] }
    return CacheSpans.mergedRanges(cache.state(of: entry).spans)
  }

  /// Stops using the entry; later calls do nothing.
  func release() {
    let released = held.withLock { entry in
      defer { entry = nil }
      return entry
    }
    if let released { cache.release(released) }
  }
}

/// What one pass of `makeRoom` found.
private enum RoomStep: Sendable {
  /// The bytes fit.
  case fits
  /// They do not, and no entry can go.
  case cannot
  /// An entry went; its moved directory, if any, is to be deleted.
  case evicted(trash: URL?)
}
