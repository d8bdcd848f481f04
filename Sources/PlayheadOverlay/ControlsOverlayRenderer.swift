import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadUI

/// Draws the player UI's controls (a `ControlsScene`) into an overlay image with libass:
/// anti-aliased vector icons and text at the view's size and scale, as mpv's on-screen
/// controller draws with libass (decision 0036).
///
/// The overlay has the view's size with straight alpha and is composited over the video
/// like subtitles. A thumbnail preview in the scene is drawn from the image passed in, as
/// the controls' host loads thumbnails (`ThumbnailLoader`). Any thread may use it: calls
/// from several threads draw one at a time.
public final class ControlsOverlayRenderer: Sendable {
  /// The font labels and menus use (found through fontconfig).
  public let fontFamily: String
  private let libass: Locked<LibassBox>

  /// Starts libass; throws `.decoderUnavailable` when it cannot start.
  public init(fontFamily: String = "DejaVu Sans") throws(PlayheadError) {
    self.fontFamily = fontFamily
    libass = Locked(LibassBox(renderer: try LibassRenderer(fontFamily: fontFamily)))
  }

  /// The overlay of `scene`, with `thumbnail` (any size; scaled to the preview) drawn at
  /// the scene's thumbnail preview when both are given, `poster` fitted to the view behind
  /// the controls when the scene shows one, and `viewImages` (by layout view id) fitted
  /// into their views. Empty when nothing shows or the view has no size.
  public func overlay(
    for scene: ControlsScene, thumbnail: RGBAImage? = nil, poster: RGBAImage? = nil,
    viewImages: [String: RGBAImage] = [:]
  ) throws(PlayheadError) -> SubtitleOverlay {
    let width = max(0, Int(scene.viewWidth.rounded()))
    let height = max(0, Int(scene.viewHeight.rounded()))
    var image = RGBAImage(width: width, height: height, color: RGBAColor(r: 0, g: 0, b: 0, a: 0))
    guard
      let band = try self.band(
        for: scene, thumbnail: thumbnail, poster: poster, viewImages: viewImages)
    else { return SubtitleOverlay(image: image, inkBox: nil) }
    image.paste(band.image, x: 0, y: band.y)
    let ink = band.ink.map {
      SubtitleOverlay.InkBox(x: $0.x, y: $0.y + band.y, width: $0.width, height: $0.height)
    }
    return SubtitleOverlay(image: image, inkBox: ink)
  }

  /// The same drawing as `overlay(for:…)`, as the band of the view from the highest thing
  /// drawn (the bar, an open menu, the thumbnail, an ad control, or the top for a poster) down to the
  /// bottom: the image, its top's y in the view, and its ink box in the band. Nil when
  /// nothing shows; this is what a window keeps, much smaller than the view.
  public func band(
    for scene: ControlsScene, thumbnail: RGBAImage? = nil, poster: RGBAImage? = nil,
    viewImages: [String: RGBAImage] = [:]
  ) throws(PlayheadError) -> ControlsOverlayBand? {
    let width = Int(scene.viewWidth.rounded())
    let height = Int(scene.viewHeight.rounded())
    let showsPoster = scene.showsPoster && poster != nil
    guard width > 0, height > 0, scene.isVisible || showsPoster else { return nil }
    var top = Int(scene.areaY.rounded(.down))
    if let menu = scene.menu { top = min(top, Int(menu.y.rounded(.down))) }
    if let preview = scene.thumbnail, thumbnail != nil {
      top = min(top, Int((preview.bottomY - ThumbnailGeometry.height * scene.scale).rounded(.down)))
    }
    if let ad = scene.ad {
      let boxes = [ad.badge] + ad.buttons.map(\.box)
      // A focus ring reaches a little outside its button.
      let ring = 2 * max(1, scene.scale)
      for box in boxes { top = min(top, Int((box.y - ring).rounded(.down))) }
    }
    if showsPoster { top = 0 }
    top = max(0, min(height - 1, top))
    var image = RGBAImage(
      width: width, height: height - top, color: RGBAColor(r: 0, g: 0, b: 0, a: 0))
    var ink: SubtitleOverlay.InkBox?
    func add(_ drawn: SubtitleOverlay.InkBox?) {
      if let drawn { ink = SubtitleOverlay.union(ink, drawn) }
    }
    if showsPoster, let poster {
      add(try Self.paste(poster, fittedInto: &image))
    }
    guard scene.isVisible else { return ControlsOverlayBand(image: image, y: top, ink: ink) }
    let script = ControlsScript.make(scene: scene, fontFamily: fontFamily)
    let bitmaps = try libass.withLock { box throws(PlayheadError) in
      try box.renderer.draw(script: script, width: width, height: height)
    }
    for var bitmap in bitmaps {
      bitmap.y -= top
      add(SubtitleOverlay.paint(bitmap, onto: &image))
    }
    for control in scene.controls {
      guard let picture = viewImages[control.frame.id] else { continue }
      var frame = control.frame
      frame.y -= Double(top)
      add(try Self.paste(picture, fittedInto: frame, opacity: scene.opacity, onto: &image))
    }
    if var preview = scene.thumbnail, let thumbnail {
      preview.bottomY -= Double(top)
      add(
        try Self.paste(
          thumbnail, at: preview, scale: scene.scale, opacity: scene.opacity, onto: &image))
    }
    return ControlsOverlayBand(image: image, y: top, ink: ink)
  }

  /// Pastes `poster` scaled to fit `image` (its aspect kept), centred; returns where.
  private static func paste(_ poster: RGBAImage, fittedInto image: inout RGBAImage)
    throws(PlayheadError) -> SubtitleOverlay.InkBox?
  {
    guard poster.isWellFormed, poster.width > 0, poster.height > 0 else { return nil }
    let fit = min(
      Double(image.width) / Double(poster.width), Double(image.height) / Double(poster.height))
    let width = max(1, Int((Double(poster.width) * fit).rounded()))
    let height = max(1, Int((Double(poster.height) * fit).rounded()))
    let scaled = try poster.scaled(width: width, height: height)
    let x = (image.width - width) / 2
    let y = (image.height - height) / 2
    image.paste(scaled, x: x, y: y)
    return SubtitleOverlay.InkBox(x: x, y: y, width: width, height: height)
  }

  /// Blends `picture` fitted into `frame` (aspect kept, centred) over `image` at
  /// `opacity`: an application's logo in an empty layout view, as the seed adds an image
  /// view to one.
  private static func paste(
    _ picture: RGBAImage, fittedInto frame: ControlFrame, opacity: Double,
    onto image: inout RGBAImage
  ) throws(PlayheadError) -> SubtitleOverlay.InkBox? {
    guard picture.isWellFormed, picture.width > 0, picture.height > 0, frame.width >= 1,
      frame.height >= 1
    else { return nil }
    let fit = min(frame.width / Double(picture.width), frame.height / Double(picture.height))
    let width = max(1, Int((Double(picture.width) * fit).rounded(.down)))
    let height = max(1, Int((Double(picture.height) * fit).rounded(.down)))
    let scaled = try picture.scaled(width: width, height: height)
    var layer = RGBAImage(
      width: image.width, height: image.height, color: RGBAColor(r: 0, g: 0, b: 0, a: 0))
    let x = Int((frame.x + (frame.width - Double(width)) / 2).rounded())
    let y = Int((frame.y + (frame.height - Double(height)) / 2).rounded())
    layer.paste(scaled, x: x, y: y)
    let factor = max(0, min(1, opacity))
    if factor < 1 {
      for index in stride(from: 3, to: layer.pixels.count, by: 4) {
        layer.pixels[index] = UInt8((Double(layer.pixels[index]) * factor).rounded())
      }
    }
    let box = SubtitleOverlay.InkBox(
      x: max(0, x), y: max(0, y), width: min(image.width, x + width) - max(0, x),
      height: min(image.height, y + height) - max(0, y))
    guard box.width > 0, box.height > 0 else { return nil }
    image.composite(SubtitleOverlay(image: layer, inkBox: box))
    return box
  }

  /// Pastes the thumbnail scaled into the preview's box with a 1-pixel white border.
  private static func paste(
    _ thumbnail: RGBAImage, at preview: ControlsScene.ThumbnailPreview, scale: Double,
    opacity: Double,
    onto image: inout RGBAImage
  ) throws(PlayheadError) -> SubtitleOverlay.InkBox? {
    let width = Int((ThumbnailGeometry.width * scale).rounded())
    let height = Int((ThumbnailGeometry.height * scale).rounded())
    guard thumbnail.isWellFormed, thumbnail.width > 0, thumbnail.height > 0, width > 2, height > 2
    else {
      return nil
    }
    var framed = RGBAImage(
      width: width, height: height,
      color: RGBAColor(r: 255, g: 255, b: 255, a: UInt8((255 * max(0, min(1, opacity))).rounded())))
    var inner = try thumbnail.scaled(width: width - 2, height: height - 2)
    if opacity < 1 {
      for index in stride(from: 3, to: inner.pixels.count, by: 4) {
        inner.pixels[index] = UInt8((Double(inner.pixels[index]) * max(0, opacity)).rounded())
      }
    }
    framed.paste(inner, x: 1, y: 1)
    let x = Int((preview.centreX - Double(width) / 2).rounded())
    let y = Int((preview.bottomY - Double(height)).rounded())
    image.paste(framed, x: x, y: y)
    let x0 = max(0, x)
    let y0 = max(0, y)
    let x1 = min(image.width, x + width)
    let y1 = min(image.height, y + height)
    guard x0 < x1, y0 < y1 else { return nil }
    return SubtitleOverlay.InkBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}

/// The part of a controls overlay with anything drawn in it: a band of the view's width
/// from `y` down to the view's bottom.
public struct ControlsOverlayBand: Sendable {
  /// The band, straight alpha, transparent where nothing is drawn.
  public var image: RGBAImage
  /// Where the band's top row is in the view.
  public var y: Int
  var ink: SubtitleOverlay.InkBox?

  /// The rectangle in the band that holds every drawn pixel; nil when none is drawn.
  public var bounds: (x: Int, y: Int, width: Int, height: Int)? {
    ink.map { ($0.x, $0.y, $0.width, $0.height) }
  }
}

/// The one libass renderer of a `ControlsOverlayRenderer`, used with its lock held.
private struct LibassBox: @unchecked Sendable {
  // Unchecked Sendable: libass objects must not be used by two threads at once; the box
  // is only reached through `Locked.withLock`.
  let renderer: LibassRenderer
}
