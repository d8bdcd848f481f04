import Foundation
import PlayheadCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's open caches, one per directory, and the global switch.
final class CacheRegistry: Sendable {
  static let shared = CacheRegistry()

  private struct State: Sendable {
    var caches: [String: MediaCache] = [:]
    var enabled = true
  }

  private let state = Locked(State())

  var isEnabled: Bool {
    get { state.withLock { $0.enabled } }
    set { state.withLock { $0.enabled = newValue } }
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
    // An exception to "no call-outs inside `withLock`" (decision 0026), as before with the
    // bare lock: the directory is created and the cache opened under the lock, so that a
    // directory never gets two instances. Opening may ask the configuration's free-space
    // provider, which must not open a cache or touch `MediaCache.isEnabled`.
    try state.withLock { (state) throws(PlayheadError) -> (MediaCache, Bool) in
      do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      } catch {
        throw PlayheadError(
          .ioError,
          "cannot create the cache directory \(directory.path): \(PlayheadError.reason(for: error))",
          url: directory)
      }
      let canonical = directory.standardizedFileURL.resolvingSymlinksInPath()
      if let cache = state.caches[canonical.path] { return (cache, false) }
      let cache = try MediaCache(
        directory: canonical, configuration: configuration ?? MediaCache.Configuration())
      state.caches[canonical.path] = cache
      return (cache, true)
    }
  }

  /// Forgets `cache`, so that its directory opens afresh.
  func forget(_ cache: MediaCache) {
    state.withLock { state in
      if state.caches[cache.directory.path] === cache { state.caches[cache.directory.path] = nil }
    }
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
