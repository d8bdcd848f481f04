import CSDL2
import PlayheadMedia

extension WindowRenderer {
  /// Copies `picture` into the texture (made anew when the format or size changes): planar
  /// frames as they are (IYUV or NV12, converted to RGB by the renderer), RGBA images
  /// for blending. False when SDL refused, the previous picture then stays.
  func upload(_ picture: FrameMailbox.Picture) -> Bool {
    switch picture {
    case .planar(let frame):
      let layout = frame.planeLayout
      let format =
        layout == .nv12 ? SDL_PIXELFORMAT_NV12.rawValue : SDL_PIXELFORMAT_IYUV.rawValue
      guard layout != .other,
        let texture = ensureTexture(
          format: format, width: frame.width, height: frame.height, blends: false)
      else { return false }
      return frame.withPlanes { planes -> Bool in
        if layout == .nv12, planes.count == 2 {
          return SDL_UpdateNVTexture(
            texture, nil, planes[0].baseAddress, Int32(planes[0].bytesPerRow),
            planes[1].baseAddress, Int32(planes[1].bytesPerRow)) == 0
        }
        guard planes.count == 3 else { return false }
        return SDL_UpdateYUVTexture(
          texture, nil, planes[0].baseAddress, Int32(planes[0].bytesPerRow),
          planes[1].baseAddress, Int32(planes[1].bytesPerRow), planes[2].baseAddress,
          Int32(planes[2].bytesPerRow)) == 0
      }
    case .rgba(let image):
      // ABGR8888 is the bytes R, G, B, A in memory on a little-endian machine.
      guard image.isWellFormed,
        let texture = ensureTexture(
          format: SDL_PIXELFORMAT_ABGR8888.rawValue, width: image.width, height: image.height,
          blends: true)
      else { return false }
      return image.pixels.withUnsafeBytes { raw in
        SDL_UpdateTexture(texture, nil, raw.baseAddress, Int32(image.width * 4)) == 0
      }
    }
  }

  /// Uploads the picture shown again, after the renderer lost its textures.
  func restoreAfterReset() {
    if let texture { SDL_DestroyTexture(texture) }
    texture = nil
    if let shown, !upload(shown) { self.shown = nil }
    drawAndPresent()
  }

  /// The streaming texture for `format` at `width` x `height`, reusing the current one
  /// when it matches; nil when SDL cannot make it.
  private func ensureTexture(format: UInt32, width: Int, height: Int, blends: Bool)
    -> OpaquePointer?
  {
    if let texture, textureFormat == format, textureWidth == width, textureHeight == height {
      return texture
    }
    if let texture { SDL_DestroyTexture(texture) }
    texture = nil
    guard
      let made = SDL_CreateTexture(
        renderer, format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(width),
        Int32(height))
    else { return nil }
    SDL_SetTextureBlendMode(made, blends ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE)
    texture = made
    textureFormat = format
    textureWidth = width
    textureHeight = height
    return made
  }
}
