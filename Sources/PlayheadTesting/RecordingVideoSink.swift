import PlayheadCore
import PlayheadEngine
import PlayheadMedia

/// A video sink that records the item time and stream timestamp of every frame it is
/// given, for a test to compare with what it expects.
public final class RecordingVideoSink: VideoSink, Sendable {
  private struct Record {
    var itemTimes: [MediaTime] = []
    var streamTimestamps: [MediaTime] = []
  }
  private let record = Locked(Record())

  public init() {}

  /// The item time of each presented frame, in order.
  public var presentedTimes: [MediaTime] { record.withLock { $0.itemTimes } }

  /// The stream timestamp (PTS) of each presented frame, in order.
  public var streamTimestamps: [MediaTime] { record.withLock { $0.streamTimestamps } }

  public func present(_ frame: VideoFrame, itemTime: MediaTime) throws(PlayheadError) {
    record.withLock {
      $0.itemTimes.append(itemTime)
      $0.streamTimestamps.append(frame.pts)
    }
  }
}
