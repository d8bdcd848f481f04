import CFFmpeg
import PlayheadCore

/// Facts about the FFmpeg libraries this build links against.
public enum MediaLibrary {
  /// The FFmpeg library versions, e.g. "libavformat 59.27.100, libavcodec 59.37.100, …".
  ///
  /// libavfilter is not linked (`isFilterLibraryLoaded`): reading this loads it to name its
  /// version, and leaves it out when it cannot be loaded.
  public static var versions: String {
    var libraries: [(String, UInt32)] = [
      ("libavformat", avformat_version()),
      ("libavcodec", avcodec_version()),
      ("libavutil", avutil_version()),
      ("libswscale", swscale_version()),
      ("libswresample", swresample_version()),
    ]
    // Loads libavfilter (not linked; FilterLibrary) to name its version.
    let filter = try? FilterLibrary.functions()
    if let version = filter?.version?() { libraries.append(("libavfilter", version)) }
    return libraries.map { name, packed in
      "\(name) \(packed >> 16).\((packed >> 8) & 0xFF).\(packed & 0xFF)"
    }.joined(separator: ", ")
  }

  /// Where FFmpeg's own messages go: `Logger(label: "playhead.ffmpeg")` unless set.
  ///
  /// Each line FFmpeg logs becomes one entry at the matching level (FFmpeg's info
  /// messages at `.debug`; see `docs/logging.md`), with source `FFmpeg`. The logger's
  /// level is also FFmpeg's own threshold: messages below it are never formatted. The
  /// setting is process-wide and takes effect at once, also for players already playing.
  /// The default logger is made on first use, from the factory `LoggingSystem.bootstrap`
  /// set by then.
  public static var logger: Logger {
    get { FFmpegLog.logger }
    set {
      _ = configured
      FFmpegLog.setLogger(newValue)
    }
  }

  /// Runs once per process: FFmpeg's messages go to `logger`.
  static let configured: Bool = {
    FFmpegLog.install()
    return true
  }()
}
