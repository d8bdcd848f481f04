import Foundation
import PlayheadCore
import PlayheadNet
import XCTest

@testable import PlayheadEngine

/// A demuxer run can last as long as a live stream (hours without a discontinuity): the
/// bytes it keeps behind the read position, and the segment names it keeps for errors,
/// must stay bounded however many segments it reads.
final class HLSRunFeedMemoryTests: XCTestCase {
  private let segmentBytes = 256 * 1024

  private func segment(_ sequence: Int, initSection: Data? = nil) -> DownloadedSegment {
    DownloadedSegment(
      ordinal: 0, level: 0, mediaSequence: sequence, discontinuitySequence: 0,
      start: MediaTime(value: Int64(sequence) * 2, timescale: 1),
      duration: MediaTime(value: 2, timescale: 1),
      initSection: initSection, initIdentity: initSection == nil ? nil : "init.mp4",
      data: Data(repeating: UInt8(sequence & 0xFF), count: segmentBytes),
      uri: URL(string: "http://127.0.0.1/live\(sequence).ts"),
      playlistURL: URL(string: "http://127.0.0.1/live.m3u8"))
  }

  /// Reads `feed` from run offset `offset`, as a demuxer does: it opens the feed there (a
  /// step back within the kept window, or the next read in order) and reads.
  private func readFeed(
    _ feed: HLSRunFeed, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64
  )
    throws -> Int
  {
    _ = try feed.open(DataRequest(url: feed.url, range: ByteRange(offset: offset, length: nil)))
    return try feed.read(into: buffer)
  }

  /// Reads a run of `count` segments in order, appending each segment just before the
  /// reader needs it (as the downloader does), and returns the feed and the largest number
  /// of bytes it held at once.
  private func readRun(count: Int, initSection: Data? = nil) throws -> (HLSRunFeed, Int) {
    let queue = HLSSegmentQueue(clock: HostClock.shared)
    let generation = queue.generation
    queue.append(segment(0, initSection: initSection), generation: generation)
    let first = try XCTUnwrap(try queue.segment(ordinal: 0, generation: generation))
    let feed = try HLSRunFeed(
      queue: queue, first: first, generation: generation,
      url: URL(string: "http://127.0.0.1/live.m3u8")!)
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var offset: Int64 = 0
    var peak = 0
    let total = Int64((initSection?.count ?? 0) + count * segmentBytes)
    var appended = 1
    while offset < total {
      let needed = (Int(offset) - (initSection?.count ?? 0)) / segmentBytes + 1
      while appended < min(count, needed + 1) {
        queue.append(segment(appended, initSection: initSection), generation: generation)
        appended += 1
      }
      if appended == count { queue.finish(generation: generation) }
      let read = try buffer.withUnsafeMutableBytes { raw in
        try readFeed(feed, into: raw, at: offset)
      }
      XCTAssertGreaterThan(read, 0, "the run ended early at \(offset) of \(total) bytes")
      if read == 0 { break }
      offset += Int64(read)
      peak = max(peak, feed.retainedByteCount)
    }
    return (feed, peak)
  }

  func testALongRunKeepsABoundedHistory() throws {
    // 400 segments of 256 KiB: 100 MiB through one run, as an hour of a live stream.
    let (feed, peak) = try readRun(count: 400)
    let bound = Int(HLSRunFeed.retainedHistoryBytes) + 3 * segmentBytes
    XCTAssertLessThanOrEqual(peak, bound, "the run held \(peak) bytes at its peak")
    XCTAssertEqual(
      feed.segmentURIs.map(\.lastPathComponent), ["live0.ts", "live399.ts"],
      "errors name the first and the latest segment only")
  }

  func testTheInitialisationSectionStaysReadableAfterHundredsOfSegments() throws {
    let initSection = Data(repeating: 0xAB, count: 1000)
    let (feed, peak) = try readRun(count: 200, initSection: initSection)
    XCTAssertLessThanOrEqual(peak, Int(HLSRunFeed.retainedHistoryBytes) + 3 * segmentBytes + 1000)
    // The MP4 demuxer steps back to the initialisation section: it is always kept.
    var buffer = [UInt8](repeating: 0, count: 1000)
    let read = try buffer.withUnsafeMutableBytes { try readFeed(feed, into: $0, at: 0) }
    XCTAssertEqual(read, 1000)
    XCTAssertEqual(Data(buffer), initSection)
    // Bytes well behind the window are gone, and saying so is an error, not a hang.
    XCTAssertThrowsError(
      try buffer.withUnsafeMutableBytes { try readFeed(feed, into: $0, at: 1000 + 10) }
    ) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .ioError)
    }
  }
}
