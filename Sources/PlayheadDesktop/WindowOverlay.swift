import CSDL2
import PlayheadCore
import PlayheadMedia

/// Where a window draws an overlay image (subtitles, a statistics page, controls).
public enum WindowOverlayLayer: Int, Sendable, CaseIterable {
  /// Over the picture: the image is scaled to the rectangle the picture covers (so cues
  /// drawn at that size stay sharp), and shows only while a picture does.
  case picture
  /// Over the whole window, at the window's size, above the picture layer.
  case window
  /// The player controls: over the whole window at its size, above everything else.
  case controls
}

/// One overlay's texture on the window thread.
struct OverlayTexture {
  var texture: OpaquePointer
  var width: Int
  var height: Int
  /// Where a window or controls overlay's top-left corner goes, in window pixels.
  var x = 0
  var y = 0
}

extension WindowRenderer {
  /// Replaces the overlay of `layer` with `image` (straight alpha; nil removes it) and
  /// redraws.
  func setOverlay(_ image: RGBAImage?, layer: WindowOverlayLayer, x: Int = 0, y: Int = 0) {
    if let old = overlays[layer] {
      SDL_DestroyTexture(old.texture)
      overlays[layer] = nil
    }
    if let image, image.isWellFormed,
      let texture = SDL_CreateTexture(
        renderer, SDL_PIXELFORMAT_ABGR8888.rawValue, Int32(SDL_TEXTUREACCESS_STATIC.rawValue),
        Int32(image.width), Int32(image.height))
    {
      SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
      image.pixels.withUnsafeBytes { raw in
        _ = SDL_UpdateTexture(texture, nil, raw.baseAddress, Int32(image.width * 4))
      }
      overlays[layer] = OverlayTexture(
        texture: texture, width: image.width, height: image.height, x: x, y: y)
    }
    drawAndPresent()
  }

  /// Draws the overlays over what `draw()` drew: the picture layer into `pictureRect`.
  func drawOverlays(pictureRect: PixelRect?) {
    if let overlay = overlays[.picture], let pictureRect {
      var destination = SDL_Rect(pictureRect)
      SDL_RenderCopy(renderer, overlay.texture, nil, &destination)
    }
    let output = outputSize
    for layer in [WindowOverlayLayer.window, .controls] {
      guard let overlay = overlays[layer], overlay.x < output.width, overlay.y < output.height
      else { continue }
      let width = min(overlay.width, output.width - overlay.x)
      let height = min(overlay.height, output.height - overlay.y)
      var source = SDL_Rect(x: 0, y: 0, w: Int32(width), h: Int32(height))
      var destination = SDL_Rect(
        x: Int32(overlay.x), y: Int32(overlay.y), w: Int32(width), h: Int32(height))
      SDL_RenderCopy(renderer, overlay.texture, &source, &destination)
    }
  }

  /// Frees every overlay texture.
  func destroyOverlays() {
    for overlay in overlays.values { SDL_DestroyTexture(overlay.texture) }
    overlays = [:]
  }

  /// The rectangle the picture covers in the window now (nil without a picture).
  var pictureRect: PixelRect? {
    guard shown != nil, texture != nil else { return nil }
    let output = outputSize
    return WindowLayout(
      textureWidth: textureWidth, textureHeight: textureHeight, pixelAspect: pixelAspect,
      outputWidth: output.width, outputHeight: output.height, gravity: options.gravity
    ).destination
  }
}
