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
      // Without a GPU device Mesa can only rasterise in software: skip making (and
      // loading) OpenGL at all, which would keep its libraries resident (about 65 MB).
      guard mayHaveGPU(environment: ProcessInfo.processInfo.environment) else {
        return makeSoftwareRenderer(for: window)
          ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue)
      }
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

  /// Whether an accelerated OpenGL may exist: a GPU device node under `devDirectory`
  /// (`dri/renderD*`, `dri/card*`, `nvidia*`) and no `LIBGL_ALWAYS_SOFTWARE` asking Mesa
  /// for software. Without one, Mesa can only offer a software rasteriser.
  static func mayHaveGPU(environment: [String: String], devDirectory: String = "/dev") -> Bool {
    if let forced = environment["LIBGL_ALWAYS_SOFTWARE"], !forced.isEmpty, forced != "0",
      forced.lowercased() != "false"
    {
      return false
    }
    let files = FileManager.default
    let dri = (try? files.contentsOfDirectory(atPath: devDirectory + "/dri")) ?? []
    if dri.contains(where: { $0.hasPrefix("renderD") || $0.hasPrefix("card") }) { return true }
    let devices = (try? files.contentsOfDirectory(atPath: devDirectory)) ?? []
    return devices.contains { $0.hasPrefix("nvidia") }
  }

  /// Whether an OpenGL `GL_RENDERER` string names a software rasteriser.
  static func isSoftwareRasteriser(_ glRendererName: String) -> Bool {
    let name = glRendererName.lowercased()
    return ["llvmpipe", "softpipe", "swrast", "software rasterizer", "lavapipe"].contains {
      name.contains($0)
    }
  }
}
