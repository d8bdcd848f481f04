import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia

/// The controller's video output on Linux: where a session's frames go.
///
/// A view forwards every frame it is given to its outputs (any `VideoSink`: a PNG writer,
/// a window, another view), so outputs compose the way views nest on other platforms.
/// The controller's video view is reused across sessions. With `shutter` on, frames are
/// not forwarded and the outputs hide the picture (the seed's opaque black shutter):
/// outputs that draw a shutter themselves (`ShutterOutput`, a window) fade it over
/// `shutterFadeTime`, others are cleared at once.
public final class PlaybackView: VideoSink, Sendable {
  private let state: Locked<State>

  private struct State: Sendable {
    var sinks: [any VideoSink]
    var shutterClosed = false
    var fadeSeconds: Double = 0
    var frames = 0
  }

  /// A view forwarding to `outputs`.
  public init(outputs: [any VideoSink] = []) {
    state = Locked(State(sinks: outputs))
  }

  /// The outputs frames are forwarded to, in order.
  public var outputs: [any VideoSink] { state.withLock { $0.sinks } }

  /// Adds an output.
  public func addOutput(_ output: any VideoSink) {
    state.withLock { $0.sinks.append(output) }
  }

  /// Removes an output (compared by identity).
  public func removeOutput(_ output: any VideoSink) {
    state.withLock { $0.sinks.removeAll { $0 === output } }
  }

  /// Frames this view was given (while the shutter was open or not).
  public var presentedFrameCount: Int { state.withLock { $0.frames } }

  /// Whether the shutter hides the video: setting it on fades `ShutterOutput`s to black
  /// over `shutterFadeTime` and clears the other outputs; setting it off fades them back.
  public var shutter: Bool {
    get { state.withLock { $0.shutterClosed } }
    set {
      let (outputs, fade) = state.withLock { state in
        state.shutterClosed = newValue
        return (state.sinks, state.fadeSeconds)
      }
      for output in outputs {
        if let animated = output as? any ShutterOutput {
          animated.setShutter(closed: newValue, fadeSeconds: fade)
        } else if newValue {
          output.clear()
        }
      }
    }
  }

  /// The shutter transition time in seconds (≥ 0; default 0).
  public var shutterFadeTime: Double {
    get { state.withLock { $0.fadeSeconds } }
    set {
      let seconds = newValue.isFinite ? max(0, newValue) : 0
      state.withLock { $0.fadeSeconds = seconds }
    }
  }

  public func present(_ frame: VideoFrame, itemTime: MediaTime) throws(PlayheadError) {
    let outputs = state.withLock { state in
      state.frames += 1
      return state.shutterClosed ? [] : state.sinks
    }
    for output in outputs {
      try output.present(frame, itemTime: itemTime)
    }
  }

  public func clear() {
    for output in outputs { output.clear() }
  }
}

/// A video output that draws the shutter itself, fading it (a window): `PlaybackView`
/// tells it instead of clearing it.
public protocol ShutterOutput: VideoSink {
  /// Closes (fades the picture to opaque black over `fadeSeconds`) or opens the shutter.
  func setShutter(closed: Bool, fadeSeconds: Double)
}

/// Builds the controller's `view` from its video view, as the seed's view strategy wraps
/// the video view in other views: return the video view itself, or a container view after
/// adding it as one of the video view's outputs (`videoView.addOutput(container)`), so
/// frames flow from the video view into the container and on to the container's outputs.
public typealias ViewStrategy = @Sendable (PlaybackView, PlaybackController) -> PlaybackView

/// The virtual camera for 360° video: pan, tilt and roll in degrees, zoom as a factor.
///
/// A value: copy `controller.viewProjection`, change it, assign it back.
public struct ViewProjection: Sendable, Equatable {
  /// Horizontal angle in degrees (default 0).
  public var pan: Double
  /// Vertical angle in degrees (default 0).
  public var tilt: Double
  /// Zoom factor (default 1).
  public var zoom: Double
  /// Rotation about the view axis in degrees (default 0).
  public var roll: Double

  public init(pan: Double = 0, tilt: Double = 0, zoom: Double = 1, roll: Double = 0) {
    self.pan = pan
    self.tilt = tilt
    self.zoom = zoom
    self.roll = roll
  }
}
