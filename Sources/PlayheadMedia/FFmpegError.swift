import CFFmpeg
import Foundation
import PlayheadCore

/// Helpers that turn FFmpeg's negative return codes into `PlayheadError`s.
enum FFmpegError {
  /// FFmpeg's own one-line message for `code` (from `av_strerror`).
  static func message(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    let text = buffer.withUnsafeMutableBufferPointer { pointer -> String in
      CFFmpeg_av_err2str(code, pointer.baseAddress, pointer.count)
      return String(cString: pointer.baseAddress!)
    }
    return text
  }

  /// An error with `context` followed by FFmpeg's message, carrying the raw code.
  static func make(
    _ playheadCode: PlayheadError.Code, _ context: String, code: Int32, url: URL? = nil
  ) -> PlayheadError {
    PlayheadError(
      playheadCode, "\(context): \(message(code))", url: url, ffmpegErrorCode: code)
  }

  static let eof = CFFmpeg_AVERROR_EOF()
  static let again = CFFmpeg_AVERROR_EAGAIN()
  static let exit = CFFmpeg_AVERROR_EXIT()
  static let invalidData = CFFmpeg_AVERROR_INVALIDDATA()
  static let noPTS = CFFmpeg_AV_NOPTS_VALUE()
}
