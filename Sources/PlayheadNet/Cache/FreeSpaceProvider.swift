import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Tells the disk cache how much space is free on the filesystem of its directory, for
/// its free-disk floor (`MediaCache.Configuration.minimumFreeBytes`).
///
/// The cache asks again after each eviction, so a provider reports the current state.
/// It is called on loading threads, never while the cache holds its lock, and must not
/// block for long. Returning nil (unknown) disables the floor for that check.
public protocol FreeSpaceProvider: Sendable {
  /// The bytes an unprivileged process may still write on the filesystem holding
  /// `directory`, or nil when unknown.
  func availableBytes(at directory: URL) -> Int64?
}

/// The real free space of a filesystem, from `statvfs` (blocks available to unprivileged
/// users × fragment size).
public struct StatvfsFreeSpaceProvider: FreeSpaceProvider {
  public init() {}

  /// The free bytes of the filesystem holding `directory`; nil when `statvfs` fails.
  public func availableBytes(at directory: URL) -> Int64? {
    var info = statvfs()
    guard statvfs(directory.path, &info) == 0 else { return nil }
    let bytes = UInt64(info.f_bavail).multipliedReportingOverflow(by: UInt64(info.f_frsize))
    guard !bytes.overflow else { return Int64.max }
    return Int64(clamping: bytes.partialValue)
  }
}
