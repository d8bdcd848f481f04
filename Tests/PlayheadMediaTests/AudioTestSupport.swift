import Foundation
import PlayheadCore
import PlayheadMedia
import XCTest

/// Every decoded audio frame of the demuxer's best audio stream, in order.
func decodeAudioFrames(_ demuxer: Demuxer) throws -> [AudioFrame] {
  let stream = try XCTUnwrap(demuxer.bestStream(of: .audio))
  let decoder = try demuxer.makeAudioDecoder(streamIndex: stream.index)
  var frames: [AudioFrame] = []
  while let packet = try demuxer.readPacket() {
    guard packet.streamIndex == stream.index else { continue }
    try decoder.send(packet)
    while let frame = try decoder.receiveFrame() { frames.append(frame) }
  }
  try decoder.send(nil)
  while let frame = try decoder.receiveFrame() { frames.append(frame) }
  return frames
}

extension AudioBuffer {
  /// The samples of `channel` as doubles in -1...1.
  func channel(_ channel: Int) -> [Double] {
    let channels = format.channels
    return samples.withUnsafeBytes { raw -> [Double] in
      switch format.sampleFormat {
      case .int16:
        let values = raw.bindMemory(to: Int16.self)
        return stride(from: channel, to: values.count, by: channels).map {
          Double(values[$0]) / 32768
        }
      case .float32:
        let values = raw.bindMemory(to: Float.self)
        return stride(from: channel, to: values.count, by: channels).map { Double(values[$0]) }
      }
    }
  }

  /// Joins buffers of one format into one.
  static func joined(_ buffers: [AudioBuffer], format: AudioOutputFormat) -> AudioBuffer {
    AudioBuffer(
      format: format, samples: buffers.reduce(into: Data()) { $0 += $1.samples },
      frameCount: buffers.reduce(0) { $0 + $1.frameCount }, pts: buffers.first?.pts ?? .invalid)
  }

  /// An interleaved sine of `frequency` Hz on every channel, `seconds` long.
  static func sine(
    frequency: Double, seconds: Double, format: AudioOutputFormat, amplitude: Double = 0.5
  ) -> AudioBuffer {
    let frames = Int(seconds * Double(format.sampleRate))
    var data = Data(capacity: frames * format.bytesPerFrame)
    for index in 0..<frames {
      let value =
        amplitude * sin(2 * Double.pi * frequency * Double(index) / Double(format.sampleRate))
      for _ in 0..<format.channels {
        switch format.sampleFormat {
        case .int16:
          withUnsafeBytes(of: Int16(value * 32767).littleEndian) { data.append(contentsOf: $0) }
        case .float32:
          withUnsafeBytes(of: Float(value)) { data.append(contentsOf: $0) }
        }
      }
    }
    return AudioBuffer(format: format, samples: data, frameCount: frames, pts: .zero)
  }
}

/// The dominant frequency of a sine, from its rising zero crossings per second.
func estimatedFrequency(_ signal: [Double], sampleRate: Int) -> Double {
  // Skip the edges, where filters ramp in and out.
  let margin = min(signal.count / 10, sampleRate / 10)
  let body = signal[margin..<(signal.count - margin)]
  var crossings = 0
  var previous = body.first ?? 0
  for value in body.dropFirst() {
    if previous < 0 && value >= 0 { crossings += 1 }
    previous = value
  }
  return Double(crossings) * Double(sampleRate) / Double(body.count)
}
