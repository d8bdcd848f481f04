import Foundation

/// The test process's memory, for leak checks over long runs.
public enum ProcessMemory {
  /// Resident memory in bytes, from /proc/self/statm; nil where that file does not exist.
  public static func residentBytes() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return nil
    }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}
