import Foundation
import PlayheadCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's open caches, one per directory, and the global switch.
final class CacheRegistry: @unchecked Sendable {
  // Unchecked Sendable, and a bare lock rather than a `Locked`: `instance` holds the lock
  // while it creates a cache, whose recovery and first trim may ask the configuration's
  // free-space provider, so that a directory never gets two instances; both `var`s are
  // guarded by `lock`.
  static let shared = CacheRegistry()

  private let lock = NSLock()
  private var caches: [String: MediaCache] = [:]
  private var enabled = true

  var isEnabled: Bool {
    get {
      lock.lock()
      defer { lock.unlock() }
      return enabled
    }
    set {
      lock.lock()
      enabled = newValue
      lock.unlock()
    }
  }

  /// The instance for `directory`, created (with the directory) when there is none.
  func open(directory: URL, configuration: MediaCache.Configuration?) throws(PlayheadError)
    -> MediaCache
  {
    guard directory.isFileURL else {
      throw PlayheadError(
        .invalidArgument, "a cache directory must be a file URL, not \(directory.absoluteString)",
        url: directory)
    }
    let (cache, isNew) = try instance(for: directory, configuration: configuration)
    if !isNew, let configuration { cache.configuration = configuration }
    return cache
  }

  /// The registered instance for `directory` or a new one; true when new.
  private func instance(for directory: URL, configuration: MediaCache.Configuration?)
    throws(PlayheadError) -> (MediaCache, Bool)
  {
    lock.lock()
    defer { lock.unlock() }
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw PlayheadError(
        .ioError,
        "cannot create the cache directory \(directory.path): \(PlayheadError.reason(for: error))",
        url: directory)
    }
    let canonical = directory.standardizedFileURL.resolvingSymlinksInPath()
    if let cache = caches[canonical.path] { return (cache, false) }
    let cache = try MediaCache(
      directory: canonical, configuration: configuration ?? MediaCache.Configuration())
    caches[canonical.path] = cache
    return (cache, true)
  }

  /// Forgets `cache`, so that its directory opens afresh.
  func forget(_ cache: MediaCache) {
    lock.lock()
    if caches[cache.directory.path] === cache { caches[cache.directory.path] = nil }
    lock.unlock()
  }
}

/// An exclusive `flock` on the cache directory's lock file, held while the instance is
/// open, so that a second process sees the directory as taken.
final class CacheDirectoryLock: Sendable {
  /// The locked file's descriptor; -1 when not held.
  private let fd: Locked<Int32>

  /// Opens (creating) `url` and tries to lock it without waiting.
  init(url: URL) {
    let opened = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    if opened >= 0 && flock(opened, LOCK_EX | LOCK_NB) != 0 {
      close(opened)
      fd = Locked(-1)
    } else {
      fd = Locked(opened)
    }
  }

  deinit { release() }

  /// Whether this process holds the lock.
  var isHeld: Bool { fd.value >= 0 }

  /// Releases the lock (closing the file releases it).
  func release() {
    let held = fd.withLock { fd in
      defer { fd = -1 }
      return fd
    }
    if held >= 0 { close(held) }
  }
}
