import PlayheadMedia

/// How a `WindowVideoSink` opens its window and lays pictures out in it.
///
/// The defaults: a resizable window titled "Playhead", sized to the first frame, the
/// picture fitted with black bars, no alpha mask, drawn by the GPU unless the GPU's
/// renderer rasterises in software (`WindowRendering.automatic`).
public struct WindowOptions: Sendable, Equatable {
  /// The window's title (what `xdotool search --name` finds).
  public var title: String
  /// The window's size in pixels; nil opens it at 640x360 and resizes it to the video's
  /// display size when the first frame arrives (a `resized` event follows).
  public var size: WindowSize?
  /// Whether the window starts fullscreen (on the desktop's resolution).
  public var isFullscreen: Bool
  /// Whether the user may resize the window.
  public var isResizable: Bool
  /// How the picture fills a window of another shape: `fit` letterboxes or pillarboxes
  /// with `background`, `fill` covers the window and crops the centre, `stretch` fills it
  /// ignoring the aspect ratio.
  public var gravity: VideoGravity
  /// The colour of the bars, of the window before the first frame and after `clear()`,
  /// and under a picture with an alpha mask. Its alpha is ignored: the window is opaque.
  public var background: RGBAColor
  /// Where frames keep an alpha mask (seed 003): with one, the colour half is drawn over
  /// `background` through the mask.
  public var alphaMode: AlphaRenderMode
  /// Which SDL renderer draws the window (`SDL_RENDER_DRIVER`, when set, overrides it).
  public var rendering: WindowRendering

  public init(
    title: String = "Playhead", size: WindowSize? = nil, isFullscreen: Bool = false,
    isResizable: Bool = true, gravity: VideoGravity = .fit, background: RGBAColor = .black,
    alphaMode: AlphaRenderMode = .none, rendering: WindowRendering = .automatic
  ) {
    self.title = title
    self.size = size
    self.isFullscreen = isFullscreen
    self.isResizable = isResizable
    self.gravity = gravity
    self.background = background
    self.alphaMode = alphaMode
    self.rendering = rendering
  }
}

/// A size in pixels.
public struct WindowSize: Sendable, Equatable {
  /// Pixels across.
  public var width: Int
  /// Pixels down.
  public var height: Int

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }
}
