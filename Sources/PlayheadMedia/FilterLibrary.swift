import CFFmpeg
import PlayheadCore

/// libavfilter, loaded into the process when the first filter graph is built.
///
/// Playhead does not link libavfilter: with the libraries it brings (the flite voices,
/// libplacebo, Vulkan and some thirty more) it is about 11 MB of resident memory that
/// playback without filters never uses. Rate changes and audio enhancement build graphs and
/// load it then; it stays loaded for the process.
enum FilterLibrary {
  /// The library's functions, or why they could not be had (loaded once, thread-safely).
  private static let loaded: Result<CFFmpegFilterFunctions, PlayheadError> = {
    var functions = CFFmpegFilterFunctions()
    if let failure = CFFmpeg_loadFilterFunctions(&functions) {
      let name = String(cString: CFFmpeg_filterLibraryName())
      return .failure(
        PlayheadError(
          .decoderUnavailable,
          "Could not load \(name), which audio filters and rate changes need: "
            + String(cString: failure)))
    }
    return .success(functions)
  }()

  /// The functions, loading the library on first use; throws `.decoderUnavailable` with the
  /// loader's message when it cannot be loaded.
  static func functions() throws(PlayheadError) -> CFFmpegFilterFunctions {
    try loaded.get()
  }
}

extension MediaLibrary {
  /// Whether libavfilter is loaded into this process: only once a filter graph (a rate
  /// change, an audio filter) was built, or `versions` was read.
  public static var isFilterLibraryLoaded: Bool { CFFmpeg_isFilterLibraryLoaded() != 0 }
}
