import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadText

/// The active cues drawn for one picture size: a transparent image with the text on it.
public struct SubtitleOverlay: Sendable, Equatable {
  /// The picture-sized image, straight alpha, transparent where there is no text.
  public var image: RGBAImage
  /// The rectangle that holds every drawn pixel (x, y, width, height); nil when nothing
  /// is drawn.
  public var bounds: (x: Int, y: Int, width: Int, height: Int)? {
    guard let box = inkBox else { return nil }
    return (box.x, box.y, box.width, box.height)
  }
  var inkBox: InkBox?

  struct InkBox: Sendable, Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
  }

  /// Whether nothing is drawn.
  public var isEmpty: Bool { inkBox == nil }

  public static func == (lhs: SubtitleOverlay, rhs: SubtitleOverlay) -> Bool {
    lhs.image == rhs.image && lhs.inkBox == rhs.inkBox
  }
}

/// Draws text cues onto the picture with libass (the renderer mpv and VLC use), laid out
/// from their WebVTT settings, with fonts found through fontconfig (SPEC K8).
///
/// Right-to-left and complex scripts are shaped (HarfBuzz, FriBidi); characters the style's
/// font lacks come from any installed font that has them. Drawing the same cues at the
/// same size again returns the last overlay without drawing. Any thread may use it: calls
/// from several threads draw one at a time.
public final class SubtitleOverlayRenderer: @unchecked Sendable {
  // Unchecked Sendable: `libass` (whose objects must not be used by two threads at once)
  // and `last` are only touched in `overlay(for:width:height:)`, with `lock` held.
  public let style: SubtitleStyle
  private let lock = NSLock()
  private let libass: LibassRenderer
  private var last: (cues: [WebVTTCue], width: Int, height: Int, overlay: SubtitleOverlay)?

  /// Starts libass with `style`; throws `.decoderUnavailable` when libass cannot start.
  public init(style: SubtitleStyle = .standard) throws(PlayheadError) {
    self.style = style
    libass = try LibassRenderer(fontFamily: style.fontFamily)
  }

  /// The overlay of `cues` on a `width` x `height` picture (empty for no cues or a size
  /// below 1). Cues are drawn in order; ones that would overlap are stacked.
  public func overlay(for cues: [WebVTTCue], width: Int, height: Int) throws(PlayheadError)
    -> SubtitleOverlay
  {
    lock.lock()
    defer { lock.unlock() }
    if let last, last.cues == cues, last.width == width, last.height == height {
      return last.overlay
    }
    var image = RGBAImage(width: width, height: height, color: RGBAColor(r: 0, g: 0, b: 0, a: 0))
    var box: SubtitleOverlay.InkBox?
    if !cues.isEmpty && width > 0 && height > 0 {
      let script = ASSScript.make(cues: cues, width: width, height: height, style: style)
      for bitmap in try libass.draw(script: script, width: width, height: height) {
        if let drawn = SubtitleOverlay.paint(bitmap, onto: &image) {
          box = SubtitleOverlay.union(box, drawn)
        }
      }
    }
    let overlay = SubtitleOverlay(image: image, inkBox: box)
    last = (cues, width, height, overlay)
    return overlay
  }

  /// Draws `cues` onto `picture` (its own size), as `--burn-subtitles` does.
  public func draw(_ cues: [WebVTTCue], onto picture: inout RGBAImage) throws(PlayheadError) {
    guard !cues.isEmpty else { return }
    let overlay = try overlay(for: cues, width: picture.width, height: picture.height)
    picture.composite(overlay)
  }
}

extension RGBAImage {
  /// Composites `overlay` (of this image's size) over this image; an overlay of another
  /// size is ignored.
  public mutating func composite(_ overlay: SubtitleOverlay) {
    guard let box = overlay.inkBox, overlay.image.width == width, overlay.image.height == height
    else { return }
    let source = overlay.image.pixels
    pixels.withUnsafeMutableBufferPointer { pixels in
      for y in box.y..<(box.y + box.height) {
        for x in box.x..<(box.x + box.width) {
          let offset = (y * width + x) * 4
          let alpha = Int(source[offset + 3])
          guard alpha > 0 else { continue }
          let below = Int(pixels[offset + 3])
          let belowWeight = below * (255 - alpha) / 255
          let outAlpha = alpha + belowWeight
          for channel in 0..<3 {
            pixels[offset + channel] = UInt8(
              (Int(source[offset + channel]) * alpha + Int(pixels[offset + channel]) * belowWeight)
                / max(1, outAlpha))
          }
          pixels[offset + 3] = UInt8(min(255, outAlpha))
        }
      }
    }
  }
}
