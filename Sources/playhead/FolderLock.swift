import Foundation
import Playhead

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive `flock(2)` on `<directory>/.lock`, so that two `playhead download` runs
/// never write one folder at once; the kernel drops it when the process ends (even by
/// SIGKILL).
final class FolderLock {
  private var fd: Int32

  /// Takes the lock, creating the directory; throws `.invalidState` when another process
  /// holds it and `.ioError` when the lock file cannot be opened.
  init(directory: URL) throws(PlayheadError) {
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw PlayheadError(
        .ioError, "cannot create \(directory.path): \(PlayheadError.reason(for: error))")
    }
    let path = directory.appendingPathComponent(".lock").path
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw PlayheadError(.ioError, "cannot open \(path): \(String(cString: strerror(errno)))")
    }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      close(fd)
      fd = -1
      throw PlayheadError(
        .invalidState,
        "another playhead download is writing \(directory.deletingLastPathComponent().path)")
    }
  }

  /// Releases the lock (also done at exit).
  func release() {
    guard fd >= 0 else { return }
    flock(fd, LOCK_UN)
    close(fd)
    fd = -1
  }

  deinit {
    release()
  }
}
