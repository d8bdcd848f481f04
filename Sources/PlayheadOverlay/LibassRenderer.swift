import CLibass
import Foundation
import PlayheadCore

/// One libass library and renderer, owned here and freed in deinit; draws ASS scripts.
///
/// Not `Sendable`: libass objects are used from one thread.
final class LibassRenderer {
  /// One bitmap libass produced: an 8-bit coverage mask to paint in one colour.
  struct Bitmap {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    var stride: Int
    /// R, G, B and opacity (0 transparent … 255 opaque).
    var color: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)
    var mask: [UInt8]
  }

  private let library: OpaquePointer
  private let renderer: OpaquePointer
  private var size: (width: Int, height: Int) = (0, 0)

  init(fontFamily: String) throws(PlayheadError) {
    guard let library = ass_library_init() else {
      throw PlayheadError(.decoderUnavailable, "libass could not start")
    }
    ass_set_message_cb(library, { _, _, _, _ in }, nil)
    guard let renderer = ass_renderer_init(library) else {
      ass_library_done(library)
      throw PlayheadError(.decoderUnavailable, "libass could not make a renderer")
    }
    self.library = library
    self.renderer = renderer
    ass_set_shaper(renderer, ASS_SHAPING_COMPLEX)
    ass_set_fonts(renderer, nil, fontFamily, Int32(ASS_FONTPROVIDER_FONTCONFIG.rawValue), nil, 1)
  }

  deinit {
    ass_renderer_done(renderer)
    ass_library_done(library)
  }

  /// The bitmaps of `script` drawn at `width` x `height`, in painting order.
  func draw(script: String, width: Int, height: Int) throws(PlayheadError) -> [Bitmap] {
    guard width > 0, height > 0 else { return [] }
    if size != (width, height) {
      ass_set_frame_size(renderer, Int32(width), Int32(height))
      ass_set_storage_size(renderer, Int32(width), Int32(height))
      size = (width, height)
    }
    var bytes = Array(script.utf8CString)
    let track = bytes.withUnsafeMutableBufferPointer { buffer in
      ass_read_memory(library, buffer.baseAddress, buffer.count - 1, nil)
    }
    guard let track else {
      throw PlayheadError(.decodeFailed, "libass could not read the subtitle script")
    }
    defer { ass_free_track(track) }
    _ = ass_track_set_feature(track, ASS_FEATURE_WRAP_UNICODE, 1)
    var change: Int32 = 0
    var bitmaps: [Bitmap] = []
    var image = ass_render_frame(renderer, track, 1000, &change)
    while let current = image {
      let info = current.pointee
      if info.w > 0, info.h > 0, let mask = info.bitmap {
        let stride = Int(info.stride)
        let count = stride * (Int(info.h) - 1) + Int(info.w)
        let color = info.color
        bitmaps.append(
          Bitmap(
            x: Int(info.dst_x), y: Int(info.dst_y), width: Int(info.w), height: Int(info.h),
            stride: stride,
            color: (
              UInt8(truncatingIfNeeded: color >> 24), UInt8(truncatingIfNeeded: color >> 16),
              UInt8(truncatingIfNeeded: color >> 8), 255 - UInt8(truncatingIfNeeded: color)
            ),
            mask: Array(UnsafeBufferPointer(start: mask, count: count))))
      }
      image = info.next
    }
    return bitmaps
  }
}
