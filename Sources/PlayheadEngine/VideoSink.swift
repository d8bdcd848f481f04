import Foundation
import PlayheadCore
import PlayheadMedia

/// Receives decoded video frames at their presentation times.
///
/// Calls come from the player's playback thread, in presentation order. A sink that
/// throws stops the item with `failedToPlayToEnd`.
public protocol VideoSink: AnyObject, Sendable {
  /// Presents `frame`; `itemTime` is its time on the item's timeline.
  func present(_ frame: VideoFrame, itemTime: MediaTime) throws(PlayheadError)
  /// Clears the output (the "clear screen" call); the default does nothing.
  func clear()
}

extension VideoSink {
  public func clear() {}
}

/// A video sink that drops every frame (headless playback); it counts them.
public final class DiscardVideoSink: VideoSink, Sendable {
  private let count = Locked(0)

  public init() {}

  /// How many frames were presented.
  public var presentedFrameCount: Int { count.value }

  public func present(_ frame: VideoFrame, itemTime: MediaTime) throws(PlayheadError) {
    count.withLock { $0 += 1 }
  }
}

/// A video sink that writes every N-th presented frame as a PNG file into a directory.
///
/// Files are named `frame-000001.png` … by presentation order (1-based), counting every
/// presented frame, so `everyNthFrame: 25` writes frames 1, 26, 51, …
public final class ImageSequenceVideoSink: VideoSink, Sendable {
  public let directory: URL
  public let everyNthFrame: Int
  private let width: Int?
  private let height: Int?
  private let gravity: VideoGravity
  private let alphaMode: AlphaRenderMode
  private let converter = VideoConverter()
  /// Frames presented so far and the files written, in order.
  private let state = Locked(State())

  private struct State: Sendable {
    var presented = 0
    var written: [URL] = []
  }

  /// Creates the directory if needed; `width`/`height` nil keep the frame's size.
  public init(
    directory: URL, everyNthFrame: Int = 1, width: Int? = nil, height: Int? = nil,
    gravity: VideoGravity = .fit, alphaMode: AlphaRenderMode = .none
  ) throws(PlayheadError) {
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw PlayheadError(
        .ioError,
        "cannot create frame directory \(directory.path): \(PlayheadError.reason(for: error))",
        url: directory)
    }
    self.directory = directory
    self.everyNthFrame = max(1, everyNthFrame)
    self.width = width
    self.height = height
    self.gravity = gravity
    self.alphaMode = alphaMode
  }

  /// The files written so far, in order.
  public var writtenFiles: [URL] { state.value.written }

  public func present(_ frame: VideoFrame, itemTime: MediaTime) throws(PlayheadError) {
    let index = state.withLock { state in
      state.presented += 1
      return state.presented
    }
    guard (index - 1) % everyNthFrame == 0 else { return }
    let image = try converter.convert(
      frame, width: width, height: height, gravity: gravity, alphaMode: alphaMode)
    let png = try PNGCodec.encode(image)
    let file = directory.appendingPathComponent(String(format: "frame-%06d.png", index))
    do {
      try png.write(to: file, options: .atomic)
    } catch {
      throw PlayheadError(
        .ioError, "cannot write \(file.path): \(PlayheadError.reason(for: error))", url: file)
    }
    state.withLock { $0.written.append(file) }
  }
}
