import CFFmpeg
import Foundation
import PlayheadCore

/// Owns an opened `AVFormatContext` (closed with `avformat_close_input`) and keeps the
/// custom I/O it reads through alive until after the close.
final class FormatContext {
  private(set) var raw: UnsafeMutablePointer<AVFormatContext>
  let io: DataSourceIO

  init(raw: UnsafeMutablePointer<AVFormatContext>, io: DataSourceIO) {
    self.raw = raw
    self.io = io
  }

  deinit {
    var pointer: UnsafeMutablePointer<AVFormatContext>? = raw
    avformat_close_input(&pointer)
  }

  var streamCount: Int { Int(raw.pointee.nb_streams) }

  /// The stream at `index`, or nil when out of range.
  func stream(_ index: Int) -> UnsafeMutablePointer<AVStream>? {
    guard index >= 0, index < streamCount, let streams = raw.pointee.streams else { return nil }
    return streams[index]
  }
}
