import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia

/// The controller's video output on Linux: where a session's frames go.
///
/// A view forwards every frame it is given to its outputs (any `VideoSink`: a PNG writer,
/// a window, another view), so outputs compose the way views nest on other platforms.
/// The controller's video view is reused across sessions. With `shutter` on, frames are
/// not forwarded and the outputs are cleared (the seed's opaque black shutter);
/// `shutterFadeTime` is kept for the application, as there is no animation here.
public final class PlaybackView: VideoSink, @unchecked Sendable {
  private let lock = NSLock()
  private var sinks: [any VideoSink]
  private var shutterClosed = false
  private var fadeSeconds: Double = 0
  private var frames = 0

  /// A view forwarding to `outputs`.
  public init(outputs: [any VideoSink] = []) {
    sinks = outputs
  }

  /// The outputs frames are forwarded to, in order.
  public var outputs: [any VideoSink] {
    lock.lock()
    defer { lock.unlock() }
    return sinks
  }

  /// Adds an output.
  public func addOutput(_ output: any VideoSink) {
    lock.lock()
    sinks.append(output)
    lock.unlock()
  }

  /// Removes an output (compared by identity).
  public func removeOutput(_ output: any VideoSink) {
    lock.lock()
    sinks.removeAll { $0 === output }
    lock.unlock()
  }

  /// Frames this view was given (while the shutter was open or not).
  public var presentedFrameCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return frames
  }

  /// Whether the shutter hides the video; setting it on clears the outputs.
  public var shutter: Bool {
    get {
      lock.lock()
      defer { lock.unlock() }
      return shutterClosed
    }
    set {
      lock.lock()
      shutterClosed = newValue
      let outputs = sinks
      lock.unlock()
      guard newValue else { return }
      for output in outputs { output.clear() }
    }
  }

  /// The shutter transition time in seconds (≥ 0; default 0).
  public var shutterFadeTime: Double {
    get {
      lock.lock()
      defer { lock.unlock() }
      return fadeSeconds
    }
    set {
      lock.lock()
      fadeSeconds = newValue.isFinite ? max(0, newValue) : 0
      lock.unlock()
    }
  }

  public func present(_ frame: VideoFrame, itemTime: MediaTime) throws(PlayheadError) {
    lock.lock()
    frames += 1
    let outputs = shutterClosed ? [] : sinks
    lock.unlock()
    for output in outputs {
      try output.present(frame, itemTime: itemTime)
    }
  }

  public func clear() {
    for output in outputs { output.clear() }
  }
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
