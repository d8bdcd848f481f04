import CSDL2
import PlayheadMedia

extension WindowRenderer {
  /// What the window shows, drawn afresh and read back at the window's size (opaque).
  func snapshot() -> RGBAImage? {
    drawPending()
    draw()
    let size = outputSize
    let image = readPixels(width: size.width, height: size.height)
    SDL_RenderPresent(renderer)
    return image
  }

  /// The picture alone at its display size, over the background colour (which shows only
  /// through an alpha mask); nil with no picture shown or when the renderer cannot draw
  /// off screen.
  func videoSnapshot() -> RGBAImage? {
    drawPending()
    guard let size = displaySize, let texture,
      SDL_RenderTargetSupported(renderer) == SDL_TRUE,
      let target = SDL_CreateTexture(
        renderer, SDL_PIXELFORMAT_ABGR8888.rawValue, Int32(SDL_TEXTUREACCESS_TARGET.rawValue),
        Int32(size.width), Int32(size.height))
    else { return nil }
    defer {
      SDL_SetRenderTarget(renderer, nil)
      SDL_DestroyTexture(target)
      drawAndPresent()
    }
    guard SDL_SetRenderTarget(renderer, target) == 0 else { return nil }
    let background = options.background
    SDL_SetRenderDrawColor(renderer, background.r, background.g, background.b, 255)
    SDL_RenderClear(renderer)
    SDL_RenderCopy(renderer, texture, nil, nil)
    return readPixels(width: size.width, height: size.height)
  }

  /// Reads the current target's `width` x `height` pixels as an opaque RGBA image.
  private func readPixels(width: Int, height: Int) -> RGBAImage? {
    guard width > 0, height > 0 else { return nil }
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    let read = pixels.withUnsafeMutableBytes { raw in
      SDL_RenderReadPixels(
        renderer, nil, SDL_PIXELFORMAT_ABGR8888.rawValue, raw.baseAddress, Int32(width * 4))
    }
    guard read == 0 else { return nil }
    for alpha in stride(from: 3, to: pixels.count, by: 4) { pixels[alpha] = 255 }
    return RGBAImage(width: width, height: height, pixels: pixels)
  }
}
