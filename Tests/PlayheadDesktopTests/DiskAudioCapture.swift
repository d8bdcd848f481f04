import Foundation
import PlayheadTestSupport
import XCTest

/// SDL's disk audio driver pointed at a fresh temporary file: every audio device opened
/// after `init` writes its raw samples there, at the pace of real time, silence included.
///
/// The driver reads `SDL_AUDIODRIVER` when SDL's audio subsystem starts and
/// `SDL_DISKAUDIOFILE` / `SDL_DISKAUDIODELAY` when a device opens, so make the capture
/// before the `SDLAudioOutput`. `delayMs` sets how long the driver waits per device buffer
/// (nil: one buffer's duration, so it plays in real time; twice that plays at half speed).
final class DiskAudioCapture {
  let url: URL

  init(delayMs: Int? = nil) {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "playhead-disk-audio-\(UUID().uuidString).raw")
    setenv("SDL_AUDIODRIVER", "disk", 1)
    setenv("SDL_DISKAUDIOFILE", url.path, 1)
    if let delayMs {
      setenv("SDL_DISKAUDIODELAY", String(delayMs), 1)
    } else {
      unsetenv("SDL_DISKAUDIODELAY")
    }
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  /// The file's length in bytes now (0 before the device made it).
  var byteCount: Int {
    let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes?[.size] as? NSNumber)?.intValue ?? 0
  }

  /// The file's bytes now.
  func contents() -> Data {
    (try? Data(contentsOf: url)) ?? Data()
  }

  /// The frames of `bytesPerFrame` bytes in the file that are not all zero (silence), in
  /// order, concatenated.
  func audibleBytes(bytesPerFrame: Int) -> Data {
    let data = contents()
    var audible = Data(capacity: data.count)
    data.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      var offset = 0
      while offset + bytesPerFrame <= bytes.count {
        let frame = bytes[offset..<offset + bytesPerFrame]
        if frame.contains(where: { $0 != 0 }) { audible.append(contentsOf: frame) }
        offset += bytesPerFrame
      }
    }
    return audible
  }

  /// The number of frames from the first audible frame to the last one, both included
  /// (silent frames between them count); 0 when nothing is audible.
  func audibleSpanFrames(bytesPerFrame: Int) -> Int {
    let data = contents()
    return data.withUnsafeBytes { raw -> Int in
      let bytes = raw.bindMemory(to: UInt8.self)
      let frames = bytes.count / bytesPerFrame
      func audible(_ index: Int) -> Bool {
        bytes[index * bytesPerFrame..<(index + 1) * bytesPerFrame].contains { $0 != 0 }
      }
      guard let first = (0..<frames).first(where: audible),
        let last = (0..<frames).reversed().first(where: audible)
      else { return 0 }
      return last - first + 1
    }
  }

  /// Polls (every 5 ms) until `condition` holds or `timeoutMs` of real time passed;
  /// the device writes the file on its own thread, so there is no event to wait for.
  @discardableResult
  static func poll(
    timeoutMs: Int = 10_000, _ description: String, file: StaticString = #filePath,
    line: UInt = #line, _ condition: () -> Bool
  ) -> Bool {
    let deadline = Date(timeIntervalSinceNow: Double(timeoutMs) / 1000)
    while !condition() {
      if Date() > deadline {
        XCTFail(
          "timed out after \(timeoutMs) ms waiting for \(description)", file: file,
          line: line)
        return false
      }
      usleep(5_000)
    }
    return true
  }
}

/// Test tones: interleaved stereo 16-bit frames in which no frame is all zero, so that the
/// disk driver's silence never looks like tone.
enum TestTone {
  /// `frames` stereo int16 frames of a sawtooth; `seed` makes different tones differ.
  static func stereoInt16(frames: Int, seed: Int = 0) -> Data {
    var samples = [Int16](repeating: 0, count: frames * 2)
    for index in 0..<frames {
      samples[index * 2] = Int16(1 + (index + seed * 37) % 997 * 31)
      samples[index * 2 + 1] = -Int16(1 + (index * 3 + seed * 11) % 991 * 29)
    }
    return samples.withUnsafeBytes { Data($0) }
  }
}
