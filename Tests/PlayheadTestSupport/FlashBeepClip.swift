import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia

/// The A/V sync clip (issue 13): black video with a white flash on the first frame of each
/// second, and silence with a 1 kHz beep for the first 50 ms of each second, made with
/// ffmpeg; and the detector that finds each beep's first loud sample in what a device
/// played.
public enum FlashBeepClip {
  /// Makes a `seconds` long clip of `width`x`height` at 25 fps with 48 kHz AAC audio in a
  /// temporary file; the caller removes it.
  public static func make(seconds: Int, width: Int = 160, height: Int = 120) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "playhead-flash-beep-\(UUID().uuidString).mp4")
    let process = Process()
    process.executableURL = try XvfbDisplay.executable(named: "ffmpeg")
    process.arguments = [
      "-v", "error", "-y", "-f", "lavfi", "-i",
      "color=c=black:s=\(width)x\(height):r=25:d=\(seconds),drawbox=x=0:y=0:w=\(width):"
        + "h=\(height):color=white:t=fill:enable='lt(mod(t\\,1)\\,0.04)'",
      "-f", "lavfi", "-i",
      "aevalsrc='if(lt(mod(t\\,1)\\,0.05)\\,0.5*sin(2*PI*1000*t)\\,0)':s=48000:d=\(seconds)",
      "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p",
      "-c:a", "aac", "-b:a", "96k", "-shortest", url.path,
    ]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw XvfbError("ffmpeg could not make the flash and beep clip")
    }
    return url
  }
}

/// Finds the first loud sample of each beep in interleaved 16-bit audio fed in order: a
/// sample of channel 0 louder than 3000 after at least half a second (at 48 kHz) of quiet.
public struct BeepOnsetDetector: Sendable {
  /// The frame index of each beep's first loud sample, counted from the first frame fed.
  public private(set) var onsets: [Int] = []
  private let channels: Int
  private var frameIndex = 0
  private var quietFrames = Int.max

  public init(channels: Int = 2) {
    self.channels = max(1, channels)
  }

  /// Feeds the next `samples` (whole frames of `channels` samples each).
  public mutating func feed<Samples: Collection>(_ samples: Samples)
  where Samples.Element == Int16, Samples.Index == Int {
    var index = samples.startIndex
    while index < samples.endIndex {
      if abs(Int(samples[index])) > 3_000 {
        if quietFrames > 24_000 { onsets.append(frameIndex) }
        quietFrames = 0
      } else if quietFrames < Int.max {
        quietFrames += 1
      }
      frameIndex += 1
      index += channels
    }
  }
}

/// Forwards frames to another sink and notes, for each frame at a whole second of item
/// time (the flashes of a `FlashBeepClip`), which sample frame the device was playing
/// then: its played count less its latency.
public final class DeviceTimeStampingSink: VideoSink, Sendable {
  private let target: any VideoSink
  private let device: any ClockedAudioSink
  private let stamps = Locked<[Int: Int]>([:])

  public init(forwardingTo target: any VideoSink, device: any ClockedAudioSink) {
    self.target = target
    self.device = device
  }

  /// The sample frame heard when the flash of each second (by its index) was presented.
  public var flashDeviceFrames: [Int: Int] { stamps.value }

  public func present(_ frame: VideoFrame, itemTime: MediaTime) throws(PlayheadError) {
    try target.present(frame, itemTime: itemTime)
    let ticks = itemTime.convertScale(1000, rounding: .roundHalfAwayFromZero).value
    guard ticks % 1000 == 0 else { return }
    let progress = device.progress()
    let latency = Int((progress.latency.seconds * Double(device.format.sampleRate)).rounded())
    stamps.withLock { $0[Int(ticks / 1000)] = progress.playedFrameCount - latency }
  }

  /// The offset in milliseconds of each flash against its beep: the sample frame heard
  /// when the flash was presented less the beep's first loud sample, both counted from
  /// the first beep (`beepOnsets[0]`, the start of the clip's sound), at `sampleRate`.
  public func offsetsMs(beepOnsets: [Int], sampleRate: Int = 48_000) -> [Double] {
    let flashes = flashDeviceFrames
    guard let first = beepOnsets.first else { return [] }
    return flashes.keys.sorted().filter { $0 < beepOnsets.count }.map {
      Double(flashes[$0]! - (beepOnsets[$0] - first)) * 1000 / Double(sampleRate)
    }
  }
}
