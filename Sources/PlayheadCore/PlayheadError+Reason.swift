import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension PlayheadError {
  /// Why `error` happened, in words, for a message: never a raw Foundation error number.
  ///
  /// A `PlayheadError` gives its message; a POSIX error (or a Cocoa file error that wraps
  /// one) the system's text ("No such file or directory"); the common Cocoa file errors a
  /// phrase of their own; any other error its description with a trailing "(Domain error
  /// N.)" removed, or "a <domain> error" when nothing else is left. URL loading errors
  /// have their own mapping in PlayheadNet (`PlayheadError.transport`).
  public static func reason(for error: any Error) -> String {
    if let playhead = error as? PlayheadError { return playhead.message }
    let nsError = error as NSError
    if nsError.domain == NSPOSIXErrorDomain { return posixText(nsError.code) }
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return posixText(underlying.code)
    }
    if nsError.domain == NSCocoaErrorDomain, let text = cocoaText(nsError.code) { return text }
    var text = nsError.localizedDescription
    if let number = text.range(
      of: #"\s*\([^()]*error -?\d+\.?\)\.?$"#, options: .regularExpression)
    {
      text.removeSubrange(number)
    }
    let generic = ["The operation could not be completed", "The operation couldn’t be completed"]
    if text.isEmpty || generic.contains(where: { text.hasPrefix($0) }) {
      return "a \(nsError.domain) error"
    }
    return text
  }

  private static func posixText(_ code: Int) -> String {
    String(cString: strerror(Int32(truncatingIfNeeded: code)))
  }

  /// Phrases for the Cocoa file errors Foundation reports without a POSIX cause.
  private static func cocoaText(_ code: Int) -> String? {
    switch CocoaError.Code(rawValue: code) {
    case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or folder"
    case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
    case .fileWriteOutOfSpace: return "no space left on the device"
    case .fileWriteVolumeReadOnly: return "the file system is read-only"
    case .fileWriteFileExists: return "a file of that name exists already"
    case .fileReadCorruptFile: return "the file is corrupt"
    case .fileReadTooLarge: return "the file is too large"
    case .fileReadInvalidFileName, .fileWriteInvalidFileName: return "the file name is invalid"
    case .fileLocking: return "the file is locked"
    case .fileReadUnknown, .fileWriteUnknown:
      return nil
    default: return nil
    }
  }
}
