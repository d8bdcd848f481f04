import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import XCTest

/// Locates fixtures at `<package root>/Fixtures/<name>`; a missing fixture fails the test.
enum MediaFixtures {
  static var directory: URL {
    var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while url.path != "/" {
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
        return url.appendingPathComponent("Fixtures")
      }
      url.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: "/nonexistent/Fixtures")
  }

  static func url(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws
    -> URL
  {
    let url = directory.appendingPathComponent(name)
    guard FileManager.default.fileExists(atPath: url.path) else {
      XCTFail("Missing fixture \(url.path)", file: file, line: line)
      throw PlayheadError(.fileNotFound, "missing fixture \(name)")
    }
    return url
  }

  static func data(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws
    -> Data
  {
    try Data(contentsOf: url(name, file: file, line: line))
  }

  /// A demuxer over the fixture's bytes read into memory, named by its file URL.
  static func memoryDemuxer(
    _ name: String, formatHint: String? = nil, file: StaticString = #filePath, line: UInt = #line
  ) throws -> Demuxer {
    let url = try url(name, file: file, line: line)
    return try Demuxer(bytes: try Data(contentsOf: url), url: url, formatHint: formatHint)
  }

  /// A demuxer over the fixture file.
  static func demuxer(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws
    -> Demuxer
  {
    try Demuxer(source: FileDataSource(), url: url(name, file: file, line: line))
  }
}

/// What ffprobe reported for one fixture (from `Fixtures/manifest.json`).
struct FixtureFacts {
  var container: String?
  var durationSeconds: Double?
  var videoFrameCount: Int?
  var videoPTS: [Int64]?
  var videoKeyframeSeconds: [Double]?
  var audioSampleCount: Int?

  static func load(_ name: String) throws -> FixtureFacts {
    let data = try MediaFixtures.data("manifest.json")
    guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let files = root["files"] as? [[String: Any]],
      let entry = files.first(where: { $0["name"] as? String == name })
    else {
      throw PlayheadError(.invalidArgument, "manifest.json has no entry for \(name)")
    }
    var facts = FixtureFacts()
    facts.container = entry["container"] as? String
    facts.durationSeconds = (entry["durationSeconds"] as? NSNumber)?.doubleValue
    let streams = entry["streams"] as? [[String: Any]] ?? []
    if let video = streams.first(where: { $0["codecType"] as? String == "video" }) {
      facts.videoFrameCount = (video["nbReadFrames"] as? NSNumber)?.intValue
      facts.videoPTS = (video["framePTS"] as? [NSNumber])?.map(\.int64Value)
      facts.videoKeyframeSeconds = (video["keyFramePTSSeconds"] as? [NSNumber])?.map(\.doubleValue)
    }
    if let audio = streams.first(where: { $0["codecType"] as? String == "audio" }) {
      facts.audioSampleCount = (audio["decodedSampleCount"] as? NSNumber)?.intValue
    }
    return facts
  }
}

extension Demuxer {
  /// Opens `bytes` held in memory, named `url` in errors: `Demuxer(source:url:…)` over a
  /// `MemoryDataSource`.
  convenience init(
    bytes: Data, url: URL = URL(string: "memory:")!, formatHint: String? = nil,
    formats: ContainerFormats = .media
  ) throws(PlayheadError) {
    try self.init(
      source: MemoryDataSource(data: bytes), url: url, formatHint: formatHint, formats: formats)
  }
}

/// A source that opens (1,000,000 bytes long) and whose every read fails with the given
/// error.
final class FailingDataSource: DataSource, Sendable {
  static let url = URL(string: "http://127.0.0.1:9/missing.mp4")!
  let error: PlayheadError

  init(error: PlayheadError) { self.error = error }

  func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    let length: Int64 = 1_000_000
    let offset = request.range?.offset ?? 0
    return DataResponseHead(url: request.url, length: length - offset, totalLength: length)
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    throw error
  }

  func close() {}
  func cancel() {}
}

/// Serves `bytes` until `startStalling()` (or past `availableBytes`), then blocks every
/// read until cancelled.
final class StallingDataSource: DataSource, @unchecked Sendable {
  // Unchecked Sendable: every `var` is guarded by `condition`.
  static let url = URL(string: "http://127.0.0.1:9/stalling.mp4")!
  private let bytes: Data
  private let availableBytes: Int
  private let condition = NSCondition()
  private var cancelled = false
  private var stalling = false
  private var blockedReaders = 0
  /// The offset of the next byte a read hands out.
  private var position = 0

  init(bytes: Data, availableBytes: Int? = nil) {
    self.bytes = bytes
    self.availableBytes = availableBytes ?? bytes.count
  }

  func startStalling() {
    condition.lock()
    stalling = true
    condition.unlock()
  }

  func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    condition.lock()
    defer { condition.unlock() }
    if cancelled { throw PlayheadError(.cancelled, "open cancelled", url: request.url) }
    position = Int(request.range?.offset ?? 0)
    return DataResponseHead(
      url: request.url, length: Int64(max(0, bytes.count - position)),
      totalLength: Int64(bytes.count))
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    condition.lock()
    defer { condition.unlock() }
    if cancelled { throw PlayheadError(.cancelled, "read cancelled", url: Self.url) }
    if !stalling && position < availableBytes {
      let start = position
      let count = min(buffer.count, availableBytes - start)
      bytes.withUnsafeBytes { raw in
        buffer.baseAddress!.copyMemory(from: raw.baseAddress! + start, byteCount: count)
      }
      position += count
      return count
    }
    if !stalling && position >= bytes.count { return 0 }
    blockedReaders += 1
    condition.broadcast()
    while !cancelled { condition.wait() }
    throw PlayheadError(.cancelled, "read cancelled", url: Self.url)
  }

  func close() {}

  /// Blocks until some reader is waiting for bytes it will not get.
  func waitUntilBlocked() {
    condition.lock()
    while blockedReaders == 0 { condition.wait() }
    condition.unlock()
  }

  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }
}

/// Decodes every frame of one stream, returning presentation times and sample counts.
struct DecodeSummary {
  var videoPTS: [MediaTime] = []
  var videoKeyframes: [Bool] = []
  var audioSamples = 0
  var audioFrames = 0
}

func decodeAll(_ demuxer: Demuxer, video: Bool = true, audio: Bool = true) throws
  -> DecodeSummary
{
  var summary = DecodeSummary()
  let videoDecoder =
    try video
    ? demuxer.bestStream(of: .video).map { try demuxer.makeVideoDecoder(streamIndex: $0.index) }
    : nil
  let audioDecoder =
    try audio
    ? demuxer.bestStream(of: .audio).map { try demuxer.makeAudioDecoder(streamIndex: $0.index) }
    : nil
  func drainVideo() throws {
    while let frame = try videoDecoder?.receiveFrame() {
      summary.videoPTS.append(frame.pts)
      summary.videoKeyframes.append(frame.isKeyframe)
    }
  }
  func drainAudio() throws {
    while let frame = try audioDecoder?.receiveFrame() {
      summary.audioSamples += frame.sampleCount
      summary.audioFrames += 1
    }
  }
  while let packet = try demuxer.readPacket() {
    if let videoDecoder, packet.streamIndex == videoDecoder.stream.index {
      try videoDecoder.send(packet)
      try drainVideo()
    } else if let audioDecoder, packet.streamIndex == audioDecoder.stream.index {
      try audioDecoder.send(packet)
      try drainAudio()
    }
  }
  try videoDecoder?.send(nil)
  try drainVideo()
  try audioDecoder?.send(nil)
  try drainAudio()
  if let videoDecoder { XCTAssertTrue(videoDecoder.isDrained) }
  if let audioDecoder { XCTAssertTrue(audioDecoder.isDrained) }
  return summary
}

/// Asserts that `body` throws a `PlayheadError` with `code`, returning it.
@discardableResult
func assertThrows<T>(
  _ code: PlayheadError.Code, file: StaticString = #filePath, line: UInt = #line,
  _ body: () throws -> T
) -> PlayheadError? {
  do {
    _ = try body()
    XCTFail("Expected .\(code), nothing was thrown", file: file, line: line)
  } catch let error as PlayheadError {
    XCTAssertEqual(error.code, code, "\(error.message)", file: file, line: line)
    return error
  } catch {
    XCTFail("Expected PlayheadError .\(code), got \(error)", file: file, line: line)
  }
  return nil
}

/// The first decoded frame of the demuxer's best video stream.
func firstVideoFrame(_ demuxer: Demuxer) throws -> VideoFrame {
  let stream = try XCTUnwrap(demuxer.bestStream(of: .video))
  let decoder = try demuxer.makeVideoDecoder(streamIndex: stream.index)
  while let packet = try demuxer.readPacket() {
    guard packet.streamIndex == stream.index else { continue }
    try decoder.send(packet)
    if let frame = try decoder.receiveFrame() { return frame }
  }
  try decoder.send(nil)
  return try XCTUnwrap(try decoder.receiveFrame())
}

extension RGBAImage {
  /// Whether every pixel of row `y` equals `color`.
  func rowIsUniform(_ y: Int, _ color: RGBAColor) -> Bool {
    (0..<width).allSatisfy { x in
      let p = pixel(x: x, y: y)
      return p.r == color.r && p.g == color.g && p.b == color.b && p.a == color.a
    }
  }

  /// Whether every pixel of column `x` equals `color`.
  func columnIsUniform(_ x: Int, _ color: RGBAColor) -> Bool {
    (0..<height).allSatisfy { y in
      let p = pixel(x: x, y: y)
      return p.r == color.r && p.g == color.g && p.b == color.b && p.a == color.a
    }
  }

  /// The largest per-channel difference to `other` over the pixels where `include` holds.
  func maximumDifference(
    to other: RGBAImage, offsetX: Int = 0, offsetY: Int = 0, width: Int, height: Int
  ) -> Int {
    var worst = 0
    for y in 0..<height {
      for x in 0..<width {
        let a = pixel(x: x, y: y)
        let b = other.pixel(x: x + offsetX, y: y + offsetY)
        worst = max(
          worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)),
          abs(Int(a.a) - Int(b.a)))
      }
    }
    return worst
  }
}

/// Asserts two lists of seconds are equal element by element within `accuracy`.
func XCTAssertEqual(
  _ actual: [Double], _ expected: [Double], accuracy: Double, file: StaticString = #filePath,
  line: UInt = #line
) {
  XCTAssertEqual(actual.count, expected.count, "counts differ", file: file, line: line)
  for (index, (a, e)) in zip(actual, expected).enumerated() where abs(a - e) > accuracy {
    XCTFail("element \(index): \(a) is not \(e)", file: file, line: line)
    return
  }
}
