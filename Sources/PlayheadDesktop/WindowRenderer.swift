import CSDL2
import PlayheadCore
import PlayheadMedia

/// One SDL window with its renderer and the texture of the picture it shows; lives on the
/// SDL video thread and is used only there (through `WindowHost`).
///
/// Each draw clears to the background colour and copies the texture into the rectangle
/// the gravity gives (`WindowLayout`); an RGBA texture (alpha-mask video) is blended over
/// the background.
final class WindowRenderer {
  let windowID: UInt32
  let window: OpaquePointer
  let renderer: OpaquePointer
  let options: WindowOptions
  let mailbox: FrameMailbox
  /// Hands an event to the sink's event queue.
  let deliver: @Sendable (WindowEvent) -> Void
  /// The texture of the picture shown, with its format and size.
  var texture: OpaquePointer?
  var textureFormat: UInt32 = 0
  var textureWidth = 0
  var textureHeight = 0
  /// The picture shown, nil when the window shows the background only.
  var shown: FrameMailbox.Picture?
  /// Whether the window was sized to the video (only once, and only without a size).
  var sizedToVideo: Bool
  /// The window's size before it last went fullscreen.
  var windowedSize: WindowSize?
  /// The overlay images drawn over the picture and the window.
  var overlays: [WindowOverlayLayer: OverlayTexture] = [:]
  /// The shutter over the picture, nil when open.
  var shutter: ShutterFade?

  /// The size the window opens at when no size was asked for, before the first frame.
  static let placeholderSize = WindowSize(width: 640, height: 360)

  /// Opens the window and its renderer (accelerated if SDL has one, else software).
  ///
  /// Throws `.invalidArgument` for a size below 1 and `.ioError` with SDL's message when
  /// the window or renderer cannot be made.
  init(
    options: WindowOptions, mailbox: FrameMailbox,
    deliver: @escaping @Sendable (WindowEvent) -> Void
  ) throws(PlayheadError) {
    let size = options.size ?? Self.placeholderSize
    guard size.width >= 1, size.height >= 1, size.width <= 16384, size.height <= 16384 else {
      throw PlayheadError(
        .invalidArgument, "Cannot open a \(size.width)x\(size.height) window (1...16384)")
    }
    var flags = SDL_WINDOW_SHOWN.rawValue
    if options.isResizable { flags |= SDL_WINDOW_RESIZABLE.rawValue }
    if options.isFullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
    let centred = CSDL2_WINDOWPOS_CENTERED()
    guard
      let window = SDL_CreateWindow(
        options.title, centred, centred, Int32(size.width), Int32(size.height), flags)
    else {
      throw PlayheadError(.ioError, "SDL could not open a window: \(SDLRuntime.lastError)")
    }
    guard
      let renderer = Self.makeRenderer(for: window, rendering: options.rendering)
    else {
      let message = SDLRuntime.lastError
      SDL_DestroyWindow(window)
      throw PlayheadError(.ioError, "SDL could not make a renderer for the window: \(message)")
    }
    self.window = window
    self.renderer = renderer
    self.windowID = SDL_GetWindowID(window)
    self.options = options
    self.mailbox = mailbox
    self.deliver = deliver
    self.sizedToVideo = options.size != nil
    drawAndPresent()
  }

  /// Frees the texture, the renderer and the window.
  func destroy() {
    destroyOverlays()
    if let texture { SDL_DestroyTexture(texture) }
    texture = nil
    SDL_DestroyRenderer(renderer)
    SDL_DestroyWindow(window)
  }

  /// Takes the mailbox's latest content, if any, and shows it.
  func drawPending() {
    guard let content = mailbox.take() else { return }
    switch content {
    case .clear:
      shown = nil
    case .picture(let picture):
      guard upload(picture) else { return }
      shown = picture
      sizeToVideoOnce()
      mailbox.noteDrawn()
    }
    drawAndPresent()
  }

  /// Draws the background and the picture, then shows the result.
  func drawAndPresent() {
    draw()
    SDL_RenderPresent(renderer)
  }

  /// Draws the background, the picture and the overlays into the renderer's current
  /// target.
  func draw() {
    let background = options.background
    SDL_SetRenderDrawColor(renderer, background.r, background.g, background.b, 255)
    SDL_RenderClear(renderer)
    guard shown != nil, let texture else {
      drawShutter(pictureRect: nil)
      drawOverlays(pictureRect: nil)
      return
    }
    let output = outputSize
    let layout = WindowLayout(
      textureWidth: textureWidth, textureHeight: textureHeight, pixelAspect: pixelAspect,
      outputWidth: output.width, outputHeight: output.height, gravity: options.gravity)
    var source = SDL_Rect(layout.source)
    var destination = SDL_Rect(layout.destination)
    SDL_RenderCopy(renderer, texture, &source, &destination)
    drawShutter(pictureRect: layout.destination)
    drawOverlays(pictureRect: layout.destination)
  }

  /// The renderer's output size in pixels.
  var outputSize: WindowSize {
    var width: Int32 = 0
    var height: Int32 = 0
    SDL_GetRendererOutputSize(renderer, &width, &height)
    return WindowSize(width: Int(width), height: Int(height))
  }

  /// SDL's name for the renderer drawing this window (`opengl`, `software`, …).
  var rendererName: String {
    var info = SDL_RendererInfo()
    guard SDL_GetRendererInfo(renderer, &info) == 0, let name = info.name else { return "" }
    return String(cString: name)
  }

  /// The width of a texture pixel relative to its height.
  var pixelAspect: Double {
    guard case .planar(let frame) = shown else { return 1 }
    return frame.pixelAspectRatio
  }

  /// The picture's display size: the texture widened for non-square pixels.
  var displaySize: WindowSize? {
    guard shown != nil, textureWidth > 0, textureHeight > 0 else { return nil }
    let width = max(1, Int((Double(textureWidth) * pixelAspect).rounded()))
    return WindowSize(width: width, height: textureHeight)
  }

  /// Enters (true) or leaves (false) fullscreen on the desktop's resolution.
  ///
  /// Leaving gives the window its windowed size back itself: without a window manager
  /// (a bare X server) nothing else would.
  func setFullscreen(_ fullscreen: Bool) {
    guard fullscreen != isFullscreen else { return }
    if fullscreen {
      var width: Int32 = 0
      var height: Int32 = 0
      SDL_GetWindowSize(window, &width, &height)
      windowedSize = WindowSize(width: Int(width), height: Int(height))
      SDL_SetWindowFullscreen(window, SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue)
    } else {
      SDL_SetWindowFullscreen(window, 0)
      if let windowedSize {
        SDL_SetWindowSize(window, Int32(windowedSize.width), Int32(windowedSize.height))
      }
    }
    drawAndPresent()
  }

  /// Whether the window is fullscreen now.
  var isFullscreen: Bool {
    SDL_GetWindowFlags(window) & SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue != 0
  }

  /// Gives a window opened without a size the video's display size, once.
  private func sizeToVideoOnce() {
    guard !sizedToVideo, let size = displaySize else { return }
    sizedToVideo = true
    guard !isFullscreen else { return }
    SDL_SetWindowSize(window, Int32(min(size.width, 16384)), Int32(min(size.height, 16384)))
  }
}

extension SDL_Rect {
  init(_ rect: PixelRect) {
    self.init(x: Int32(rect.x), y: Int32(rect.y), w: Int32(rect.width), h: Int32(rect.height))
  }
}
