import Foundation
import PlayheadCore

/// A disk cache of media bytes under one directory, shared by every player of the process
/// that is given it.
///
/// Bytes are stored per cache key (by default the URL without its query, see
/// `Configuration.cacheKey`) as spans: byte ranges of the resource, each in its own file,
/// listed by the entry's index. A load through a `CacheDataSource` takes the cached spans
/// from disk and fetches only the missing ones. Playlists are stored only when they are
/// complete VOD playlists (`#EXT-X-ENDLIST`). The cache keeps at most
/// `Configuration.maximumBytes` and leaves `Configuration.minimumFreeBytes` free on its
/// filesystem, evicting the least recently used entries that no load is using.
///
/// Caching happens only while `MediaCache.isEnabled` (global) is true and the player was
/// given the cache (`PlayerConfiguration.cache`), as in the seed SDK where both the global
/// and the per-player switch must be on.
///
/// Crash safety: a span file and an index are each written under a temporary name,
/// flushed, renamed, and their directory flushed; a span becomes visible only once its
/// file and the index that lists it are on disk. Opening the cache deletes anything it
/// does not recognise or that is incomplete (docs/decisions/0010-disk-cache-layout.md).
///
/// Sharing: `open(directory:configuration:)` gives one instance per directory in a
/// process, safe to use from any thread. A second process that opens the same directory
/// gets a read-only instance (`isReadOnly`), because the first holds the directory's lock
/// file: it reads what is cached and stores nothing.
///
/// Example:
/// ```swift
/// let cache = try MediaCache.open(
///   directory: URL(fileURLWithPath: "/var/cache/app/media"),
///   configuration: .init(maximumBytes: 2 << 30))
/// var configuration = PlayerConfiguration()
/// configuration.cache = cache
/// ```
public final class MediaCache: Sendable {
  /// The cache's directory (absolute, symbolic links resolved).
  public let directory: URL
  /// True when another process holds the directory: the cache then only reads.
  public let isReadOnly: Bool

  /// The cache's mutable state. Each entry's `var`s are reached only inside `withLock` on
  /// this too (see `CacheEntry`).
  let state: Locked<State>

  /// The mutable state of a cache, guarded by its `state` lock.
  struct State: Sendable {
    var configuration: Configuration
    var entriesByID: [String: CacheEntry] = [:]
    var totalBytes: Int64 = 0
    var lastStamp: Int64 = 0
    var closed = false
    var directoryLock: CacheDirectoryLock?

    /// A new access stamp: the wall clock, made strictly greater than the last one.
    mutating func nextStamp() -> Int64 {
      lastStamp = max(CacheFiles.wallNanoseconds(), lastStamp + 1)
      return lastStamp
    }
  }

  static let markerName = ".playhead-cache"
  static let markerContents = "playhead-cache 1\n"
  static let lockName = ".lock"
  static let entriesName = "entries"
  static let trashPrefix = ".trash-"

  var entriesDirectory: URL { directory.appendingPathComponent(Self.entriesName) }

  /// The global switch: while false, every `CacheDataSource` passes its loads straight to
  /// its upstream and players open media without the cache. True by default (a player
  /// caches only when it is also given a cache).
  public static var isEnabled: Bool {
    get { CacheRegistry.shared.isEnabled }
    set { CacheRegistry.shared.isEnabled = newValue }
  }

  /// The cache of `directory`, opened (and created, with its parents) on first use.
  ///
  /// The same directory always gives the same instance until it is closed; a
  /// `configuration` given then replaces the instance's configuration. Opening cleans the
  /// directory: temporary files, unknown files, entries whose index is unreadable and
  /// spans whose file is missing or has the wrong size are deleted. Throws
  /// `.invalidArgument` for a URL that is not a file URL or for an existing directory
  /// that holds other files and no Playhead cache, `.unsupportedFormat` for a cache of
  /// another format, and `.ioError` when the directory cannot be created or written.
  public static func open(directory: URL, configuration: Configuration? = nil)
    throws(PlayheadError) -> MediaCache
  {
    try CacheRegistry.shared.open(directory: directory, configuration: configuration)
  }

  init(directory: URL, configuration: Configuration) throws(PlayheadError) {
    self.directory = directory
    try Self.checkMarker(in: directory)
    let directoryLock = CacheDirectoryLock(
      url: directory.appendingPathComponent(Self.lockName))
    isReadOnly = !directoryLock.isHeld
    state = Locked(State(configuration: configuration, directoryLock: directoryLock))
    let loaded = try recover()
    state.withLock { state in
      for entry in loaded {
        state.entriesByID[entry.id] = entry
        state.totalBytes += entry.cachedBytes
        state.lastStamp = max(state.lastStamp, entry.accessStamp)
      }
    }
    trim()
  }

  /// The limits and callbacks in force; setting them evicts at once to the new limits.
  public var configuration: Configuration {
    get { state.withLock { $0.configuration } }
    set {
      state.withLock { $0.configuration = newValue }
      trim()
    }
  }

  /// The bytes cached now (the sum of every entry's spans).
  public var totalBytes: Int64 {
    state.withLock { $0.totalBytes }
  }

  /// Whether `close()` was called.
  public var isClosed: Bool {
    state.withLock { $0.closed }
  }

  /// The cache key of `url`: the configuration's `cacheKey`, or `defaultKey(for:)`.
  public func key(for url: URL) -> String {
    let callback = configuration.cacheKey
    return callback?(url) ?? Self.defaultKey(for: url)
  }

  /// Every entry, most recently used first.
  public var entries: [EntryInfo] {
    state.withLock { state in
      state.entriesByID.values.filter { !$0.spans.isEmpty }
        .sorted { $0.accessStamp > $1.accessStamp }
        .map(Self.info)
    }
  }

  /// The entry of `key`, if anything of it is cached.
  public func entry(forKey key: String) -> EntryInfo? {
    state.withLock { state in
      guard let entry = state.entriesByID[CacheEntry.identifier(for: key)], entry.key == key,
        !entry.spans.isEmpty
      else { return nil }
      return Self.info(entry)
    }
  }

  /// Removes the entry of `key` and its files; false when there is none or a load is
  /// using it.
  @discardableResult
  public func removeEntry(forKey key: String) -> Bool {
    guard !isReadOnly else { return false }
    let removed: (found: Bool, trash: URL?) = state.withLock { state in
      guard let entry = state.entriesByID[CacheEntry.identifier(for: key)], entry.key == key,
        entry.users == 0
      else { return (false, nil) }
      return (true, detach(entry, from: &state))
    }
    guard removed.found else { return false }
    if let trash = removed.trash { CacheFiles.removeTree(trash) }
    return true
  }

  /// Removes every entry that no load is using.
  public func removeAll() {
    guard !isReadOnly else { return }
    let trash = state.withLock { state in
      let unused = state.entriesByID.values.filter { $0.users == 0 }
      return unused.compactMap { detach($0, from: &state) }
    }
    for url in trash { CacheFiles.removeTree(url) }
  }

  /// Evicts least recently used entries (none in use) until the cache is within its
  /// capacity and free-disk floor, or nothing more can go.
  public func trim() {
    _ = makeRoom(for: 0, keeping: nil)
  }

  /// Detaches the cache from its directory: releases the directory lock and lets a later
  /// `open` of the directory create a fresh instance. Loads through this instance then
  /// bypass it. Call it when no load is running through the cache.
  public func close() {
    CacheRegistry.shared.forget(self)
    let held = state.withLock { state in
      state.closed = true
      defer { state.directoryLock = nil }
      return state.directoryLock
    }
    held?.release()
  }

  static func info(_ entry: CacheEntry) -> EntryInfo {
    EntryInfo(
      key: entry.key, totalLength: entry.totalLength,
      cachedRanges: entry.spans.map { ByteRange(offset: $0.offset, length: $0.length) },
      cachedBytes: entry.cachedBytes, isComplete: entry.isComplete,
      lastAccess: Date(timeIntervalSince1970: Double(entry.accessStamp) / 1e9),
      isInUse: entry.users > 0)
  }

  /// Takes `entry` out of the cache and moves its directory out of `entries/` (a rename,
  /// so the entry disappears at once even across a crash); returns the moved directory
  /// for the caller to delete outside the lock. Called inside `state.withLock`, with the
  /// state it gives.
  func detach(_ entry: CacheEntry, from state: inout State) -> URL? {
    if state.entriesByID[entry.id] === entry { state.entriesByID[entry.id] = nil }
    guard !entry.isRemoved else { return nil }
    entry.isRemoved = true
    state.totalBytes -= entry.cachedBytes
    guard entry.hasDirectory, !isReadOnly else { return nil }
    let trash = directory.appendingPathComponent(Self.trashPrefix + UUID().uuidString)
    if rename(entry.directory.path, trash.path) == 0 { return trash }
    CacheFiles.removeTree(entry.directory)
    return nil
  }
}
