/// Which SDL renderer draws a window: the GPU's, or SDL's own software renderer.
///
/// A GPU renderer (OpenGL or OpenGL ES) converts and scales the YUV picture in a shader,
/// which costs the CPU almost nothing on a real GPU. Without one (Xvfb, a virtual machine,
/// a remote X display) Mesa runs that shader on the CPU (llvmpipe), which takes several
/// times the CPU of SDL's software renderer: its YUV conversion is SIMD code and the window
/// is drawn through X shared memory. mpv decides the same way: it refuses a software
/// OpenGL unless asked (`--gpu-sw`).
///
/// `SDL_RENDER_DRIVER`, when set in the environment, names the renderer and overrides
/// this choice.
public enum WindowRendering: String, Sendable, Equatable, CaseIterable {
  /// The GPU's renderer, unless its OpenGL names a software rasteriser (Mesa's llvmpipe,
  /// softpipe or swrast); then SDL's software renderer. Without a GPU device node
  /// (`/dev/dri/renderD*`, `/dev/dri/card*`, `/dev/nvidia*`) or with
  /// `LIBGL_ALWAYS_SOFTWARE` set, OpenGL is not tried at all. If the software renderer
  /// cannot open, the GPU's renderer is kept.
  case automatic
  /// SDL's first accelerated renderer, even one that rasterises in software; SDL's
  /// software renderer only when there is none.
  case accelerated
  /// SDL's software renderer.
  case software
}
