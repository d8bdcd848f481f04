import Dispatch
import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadSDK

/// Shows a player's video in an SDL window and reports what the user does to it.
///
/// The window lives on Playhead's SDL video thread, which owns every window, runs SDL's
/// event loop and draws (SDL wants all of that on one thread). `present` only hands the
/// frame over: the latest frame waits in a mailbox, an older one not yet drawn is replaced,
/// and the window thread is woken to upload it. `yuv420p` and `nv12` frames are uploaded
/// as YUV textures as they are; other pixel formats are converted once to `yuv420p` on the
/// presenting thread. With an alpha mode, the frame's colour and mask halves are merged to
/// RGBA on the presenting thread (swscale, once per frame) and the renderer blends that
/// over the background.
///
/// The sink keeps no playback state: it shows frames and reports events. Events arrive on
/// a serial queue of the sink's own (never on the window thread), so `onEvent` may call
/// anything, `snapshot()` and `close()` included. After `close()`, presenting does nothing.
///
/// ```swift
/// let window = try WindowVideoSink(options: WindowOptions(title: "Movie")) { event in
///   if event == .key(.space) { togglePause() }
/// }
/// let player = Player(url: url, configuration: PlayerConfiguration(videoSink: window))
/// ```
public final class WindowVideoSink: VideoSink, Sendable {
  /// The options the window was opened with.
  public let options: WindowOptions
  private let thread: SDLVideoThread
  private let windowID: UInt32
  private let mailbox: FrameMailbox
  private let planarConverter = PlanarFrameConverter()
  private let alphaConverter = VideoConverter()
  private let isClosedState = Locked(false)

  /// Opens the window (showing the background colour) and starts reporting its events to
  /// `onEvent`.
  ///
  /// SDL's video starts with the first window of the process: it reads `SDL_VIDEODRIVER`
  /// and, for X11, `DISPLAY` then. Throws `.ioError` with SDL's message when there is no
  /// display or the window cannot be made, `.invalidArgument` for a size out of range.
  public init(
    options: WindowOptions = WindowOptions(),
    onEvent: (@Sendable (WindowEvent) -> Void)? = nil
  ) throws(PlayheadError) {
    let thread = try SDLVideoThread.acquire()
    let mailbox = FrameMailbox()
    let events = DispatchQueue(label: "playhead.window.events")
    let deliver: @Sendable (WindowEvent) -> Void = { event in
      guard let onEvent else { return }
      events.async { onEvent(event) }
    }
    let opened = thread.perform { host -> Result<UInt32, PlayheadError> in
      do throws(PlayheadError) {
        let window = try WindowRenderer(options: options, mailbox: mailbox, deliver: deliver)
        host.add(window)
        return .success(window.windowID)
      } catch {
        return .failure(error)
      }
    }
    switch opened {
    case .success(let id)?:
      windowID = id
    case .failure(let error)?:
      SDLVideoThread.release(thread)
      throw error
    case nil:
      SDLVideoThread.release(thread)
      throw PlayheadError(.invalidState, "The SDL video thread stopped before the window opened")
    }
    self.options = options
    self.thread = thread
    self.mailbox = mailbox
  }

  deinit {
    close()
  }

  /// Hands `frame` to the window, which shows it as soon as its thread draws.
  ///
  /// Throws `.decodeFailed` when a frame in another pixel format than `yuv420p` or `nv12`
  /// (or, with an alpha mode, any frame) cannot be converted. Does nothing after `close()`.
  public func present(_ frame: VideoFrame, itemTime: MediaTime) throws(PlayheadError) {
    guard !isClosed else { return }
    let picture: FrameMailbox.Picture
    if options.alphaMode != .none {
      picture = .rgba(
        try alphaConverter.convert(
          frame, width: nil, height: nil, gravity: .stretch, alphaMode: options.alphaMode,
          background: .clear))
    } else if frame.planeLayout == .other {
      picture = .planar(try planarConverter.convert(frame, to: .yuv420p))
    } else {
      picture = .planar(frame)
    }
    post(.picture(picture))
  }

  /// Shows the background colour only (the frame shown is forgotten).
  public func clear() {
    guard !isClosed else { return }
    post(.clear)
  }

  /// What the window shows now, at the window's size: the latest frame presented (drawn
  /// first if it was not yet) over the background, or the background alone.
  ///
  /// Waits for the window thread. Nil after `close()` or when the renderer cannot read its
  /// pixels back.
  public func snapshot() -> RGBAImage? {
    guard !isClosed else { return nil }
    let id = windowID
    return thread.perform { host in host.window(id)?.snapshot() } ?? nil
  }

  /// The latest frame presented as the window draws it, at the video's display size (for
  /// an alpha mode, composited over the background).
  ///
  /// Waits for the window thread. Nil with no frame shown (before the first, after
  /// `clear()`), after `close()`, or when the renderer cannot draw off screen.
  public func videoSnapshot() -> RGBAImage? {
    guard !isClosed else { return nil }
    let id = windowID
    return thread.perform { host in host.window(id)?.videoSnapshot() } ?? nil
  }

  /// Shows `image` over the picture or the window (see `WindowOverlayLayer`), replacing
  /// that layer's last image; nil removes it. The image has straight alpha; a picture
  /// overlay is scaled to `pictureRect`, a window overlay is drawn at its own size from
  /// the top left. `snapshot()` includes the overlays, `videoSnapshot()` does not.
  public func setOverlay(_ image: RGBAImage?, layer: WindowOverlayLayer) {
    setOverlay(image, layer: layer, x: 0, y: 0)
  }

  /// Shows `image` on the window or controls layer with its top-left corner at (`x`, `y`)
  /// in window pixels (the part of a larger overlay that has anything drawn, so the
  /// window keeps a small texture); on the picture layer the position is ignored.
  public func setOverlay(_ image: RGBAImage?, layer: WindowOverlayLayer, x: Int, y: Int) {
    guard !isClosed else { return }
    let id = windowID
    thread.submit { host in host.window(id)?.setOverlay(image, layer: layer, x: x, y: y) }
  }

  /// The rectangle the picture covers in the window now (x, y, width, height in window
  /// pixels), for drawing a picture overlay at that size; nil with no picture shown or
  /// after `close()`.
  public var pictureRect: (x: Int, y: Int, width: Int, height: Int)? {
    guard !isClosed else { return nil }
    let id = windowID
    let rect = thread.perform { host in host.window(id)?.pictureRect } ?? nil
    return rect.map { ($0.x, $0.y, $0.width, $0.height) }
  }

  /// Closes the shutter over the picture (it fades to opaque black over `fadeSeconds`) or
  /// opens it (the picture fades back in); a fade already under way turns around from
  /// where it is. Frames presented meanwhile are drawn under the shutter; overlays (such
  /// as controls) stay above it.
  public func setShutter(closed: Bool, fadeSeconds: Double) {
    guard !isClosed else { return }
    let id = windowID
    thread.submit { host in host.window(id)?.setShutter(closed: closed, fadeSeconds: fadeSeconds) }
  }

  /// The shutter's opacity now: 0 open, 1 closed, between while fading (0 after `close()`).
  public var shutterOpacity: Double {
    guard !isClosed else { return 0 }
    let id = windowID
    return thread.perform { host in host.window(id)?.shutterOpacity ?? 0 } ?? 0
  }

  /// Enters (true) or leaves (false) fullscreen on the desktop's resolution; a `resized`
  /// event follows when the size changes.
  public func setFullscreen(_ fullscreen: Bool) {
    guard !isClosed else { return }
    let id = windowID
    thread.submit { host in host.window(id)?.setFullscreen(fullscreen) }
  }

  /// Whether the window is fullscreen now (false after `close()`).
  public var isFullscreen: Bool {
    guard !isClosed else { return false }
    let id = windowID
    return thread.perform { host in host.window(id)?.isFullscreen ?? false } ?? false
  }

  /// The window's drawable size now; nil after `close()`.
  public var windowSize: WindowSize? {
    guard !isClosed else { return nil }
    let id = windowID
    return thread.perform { host in host.window(id)?.outputSize } ?? nil
  }

  /// SDL's name for the renderer drawing the window: `opengl` or `opengles2` for a GPU
  /// renderer, `software` for SDL's own (`WindowOptions.rendering`); nil after `close()`.
  ///
  /// `SDL_RENDER_DRIVER` chooses one by name before the window opens.
  public var rendererName: String? {
    guard !isClosed else { return nil }
    let id = windowID
    return thread.perform { host in host.window(id)?.rendererName } ?? nil
  }

  /// SDL's name for the windowing system the window is on: `x11` or `wayland` (SDL picks
  /// Wayland when `WAYLAND_DISPLAY` is set, unless `SDL_VIDEODRIVER` names another); nil
  /// after `close()`.
  public var videoDriverName: String? {
    guard !isClosed else { return nil }
    return thread.perform { host in host.videoDriverName } ?? nil
  }

  /// Closes the window and waits until it is gone (and, after the last window of the
  /// process, until SDL's video has quit). Calling it again does nothing; events already
  /// reported may still reach `onEvent` afterwards.
  public func close() {
    let wasOpen = isClosedState.withLock { closed in
      defer { closed = true }
      return !closed
    }
    guard wasOpen else { return }
    let id = windowID
    _ = thread.perform { host in host.close(id) }
    SDLVideoThread.release(thread)
  }

  /// Whether `close()` was called.
  public var isClosed: Bool { isClosedState.value }

  /// How many frames were presented (every `present` call before `close()`).
  public var presentedFrameCount: Int { mailbox.presentedCount }

  /// How many frames the window drew; fewer than presented when the window thread fell
  /// behind and a newer frame replaced one not yet drawn.
  public var drawnFrameCount: Int { mailbox.drawnCount }

  /// Leaves `content` in the mailbox and wakes the window thread unless a draw is pending.
  private func post(_ content: FrameMailbox.Content) {
    guard mailbox.post(content) else { return }
    let id = windowID
    thread.submit { host in host.window(id)?.drawPending() }
  }
}

extension WindowVideoSink: ShutterOutput {}
