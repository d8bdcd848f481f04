import CSDL2
import Foundation
import PlayheadCore

extension WindowRenderer {
  /// Makes the SDL renderer `rendering` asks for on `window` (see `WindowRendering`);
  /// nil when SDL can make none. Runs on the SDL video thread.
  static func makeRenderer(for window: OpaquePointer, rendering: WindowRendering)
    -> OpaquePointer?
  {
    if let named = SDL_GetHint(SDL_HINT_RENDER_DRIVER), named.pointee != 0 {
      // The user named a renderer: SDL_CreateRenderer reads the hint itself.
      return SDL_CreateRenderer(window, -1, 0)
    }
    switch rendering {
    case .software:
      return makeSoftwareRenderer(for: window) ?? SDL_CreateRenderer(window, -1, 0)
    case .accelerated:
      return SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue)
        ?? makeSoftwareRenderer(for: window)
    case .automatic:
      guard let accelerated = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue)
      else { return makeSoftwareRenderer(for: window) }
      guard rasterisesInSoftware(accelerated) else { return accelerated }
      SDL_DestroyRenderer(accelerated)
      return makeSoftwareRenderer(for: window)
        ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue)
    }
  }

  /// SDL's software renderer; on X11 the window is drawn through X shared memory rather
  /// than through another (GPU) renderer's texture, SDL's default.
  private static func makeSoftwareRenderer(for window: OpaquePointer) -> OpaquePointer? {
    if let driver = SDL_GetCurrentVideoDriver(), String(cString: driver) == "x11" {
      SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
    }
    return SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue)
  }

  /// Whether `renderer` is an OpenGL (ES) renderer whose context names a software
  /// rasteriser.
  private static func rasterisesInSoftware(_ renderer: OpaquePointer) -> Bool {
    var info = SDL_RendererInfo()
    guard SDL_GetRendererInfo(renderer, &info) == 0, let name = info.name,
      String(cString: name).hasPrefix("opengl"),
      let glName = CSDL2_CurrentGLRendererName()
    else { return false }
    return isSoftwareRasteriser(String(cString: glName))
  }

  /// Whether an OpenGL `GL_RENDERER` string names a software rasteriser.
  static func isSoftwareRasteriser(_ glRendererName: String) -> Bool {
    let name = glRendererName.lowercased()
    return ["llvmpipe", "softpipe", "swrast", "software rasterizer", "lavapipe"].contains {
      name.contains($0)
    }
  }
}
