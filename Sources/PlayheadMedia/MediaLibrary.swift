import CFFmpeg

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

  /// How much FFmpeg itself prints to standard error.
  public enum LogLevel: Sendable {
    /// Nothing at all.
    case quiet
    /// Only errors (the default Playhead sets on first use).
    case error
    /// Errors and warnings.
    case warning
    /// Everything FFmpeg's command-line tools print by default.
    case info

    var rawValue: Int32 {
      switch self {
      case .quiet: return AV_LOG_QUIET
      case .error: return AV_LOG_ERROR
      case .warning: return AV_LOG_WARNING
      case .info: return AV_LOG_INFO
      }
    }
  }

  /// Sets FFmpeg's process-wide log level.
  ///
  /// Playhead lowers it to `.error` the first time a demuxer opens, unless this was
  /// called before.
  public static func setLogLevel(_ level: LogLevel) {
    _ = configured
    av_log_set_level(level.rawValue)
  }

  /// Runs once per process: the default log level.
  static let configured: Bool = {
    av_log_set_level(AV_LOG_ERROR)
    return true
  }()
}
