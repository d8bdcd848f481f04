import Foundation
import PlayheadCore
import PlayheadDASH
import PlayheadTestSupport
import XCTest

/// The `sidx` reader: FFmpeg's global sidx against FFmpeg's own byte ranges, boxes skipped
/// before it, a guessed range, hierarchical indexes, and hostile boxes.
final class SIDXTests: XCTestCase {
  private func fixture() throws -> (MPD, MPD, Data) {
    let sidxURL = try Fixtures.url("dash/ffmpeg-single-file-sidx.mpd")
    let listURL = try Fixtures.url("dash/ffmpeg-single-file.mpd")
    return (
      try MPDParser.parse(Data(contentsOf: sidxURL), url: sidxURL),
      try MPDParser.parse(Data(contentsOf: listURL), url: listURL),
      try Data(contentsOf: try Fixtures.url("dash/ffmpeg-single-file.mp4"))
    )
  }

  private func index(_ parsed: MPDSegmentIndex.Parsed) throws -> MPDSegmentIndex {
    guard case .index(let index) = parsed else {
      throw FixtureError("expected an index, got \(parsed)")
    }
    return index
  }

  private func slice(_ data: Data, _ range: ByteRange) -> Data {
    let start = Int(range.offset)
    let end = min(data.count, Int(range.end ?? Int64(data.count)))
    return data.subdata(in: start..<end)
  }

  func testFFmpegGlobalSIDX_agreesWithFFmpegsOwnRanges() throws {
    let (mpd, list, file) = try fixture()
    let period = mpd.periods[0]
    let representation = period.adaptationSets[0].representations[0]
    guard case .base(let base) = representation.addressing else { return XCTFail("SegmentBase") }
    let range = base.indexFetchRange
    XCTAssertEqual(range, base.indexRange)
    XCTAssertEqual(base.initializationAndIndexRange?.offset, 0, "init and sidx are contiguous")
    let sidx = try index(MPDSegmentIndex.parse(slice(file, range), offset: range.offset))
    XCTAssertEqual(sidx.boxRange, range)
    let segments = base.segments(from: sidx, in: period)
    let expected = list.periods[0].adaptationSets[0].representations[0].segments(
      in: list.periods[0])
    XCTAssertEqual(segments.count, 4)
    XCTAssertEqual(segments.map(\.range), expected.map(\.range))
    XCTAssertEqual(segments.map(\.number), [1, 2, 3, 4])
    XCTAssertEqual(segments.map { $0.start.seconds }, [0, 2, 4, 6])
    XCTAssertEqual(segments.map { $0.duration.seconds }, [2, 2, 2, 2])
    XCTAssertEqual(segments.last?.range?.end, Int64(file.count), "up to the end of the file")
    for segment in segments {
      let start = Int(segment.range!.offset)
      XCTAssertEqual(String(decoding: file[start + 4..<start + 8], as: UTF8.self), "moof")
    }
    XCTAssertTrue(sidx.entries.allSatisfy(\.startsWithSAP))
    XCTAssertEqual(segments.first?.url, base.media)
  }

  func testTheSIDXIsFoundAfterOtherBoxes_andAGuessAsksForMoreBytes() throws {
    let (mpd, _, file) = try fixture()
    guard case .base(var base) = mpd.periods[0].adaptationSets[0].representations[0].addressing
    else { return XCTFail("SegmentBase") }
    let expected = try index(
      MPDSegmentIndex.parse(slice(file, base.indexRange!), offset: base.indexRange!.offset))
    // From the start of the file: ftyp and moov are skipped.
    XCTAssertEqual(try index(MPDSegmentIndex.parse(file, offset: 0)), expected)
    // No @indexRange: the guess starts after the initialization range.
    base.indexRange = nil
    let guess = base.indexFetchRange
    XCTAssertEqual(guess.offset, expected.boxRange.offset)
    XCTAssertEqual(guess.length, MPDSegmentBase.guessedIndexLength)
    XCTAssertEqual(
      try index(MPDSegmentIndex.parse(slice(file, guess), offset: guess.offset)), expected)
    // Cut short: it says how far to read.
    let short = file.prefix(Int(expected.boxRange.offset) + 40)
    XCTAssertEqual(
      try MPDSegmentIndex.parse(short, offset: 0),
      .needsBytes(through: expected.boxRange.end!))
    XCTAssertEqual(
      try MPDSegmentIndex.parse(file.prefix(100), offset: 0), .needsBytes(through: 780 + 16))
  }

  func testParserNowReadsASegmentBaseWithOnlyAnInitializationRange() throws {
    let text = """
      <MPD type="static" mediaPresentationDuration="PT8S"><Period><AdaptationSet mimeType="video/mp4">
        <Representation id="v" bandwidth="1"><BaseURL>v.mp4</BaseURL>
          <SegmentBase><Initialization range="0-779"/></SegmentBase></Representation>
      </AdaptationSet></Period></MPD>
      """
    let mpd = try MPDParser.parse(Data(text.utf8), url: URL(string: "https://a.example/m.mpd")!)
    guard case .base(let base) = mpd.periods[0].adaptationSets[0].representations[0].addressing
    else { return XCTFail("read as SegmentBase, the index guessed after the initialization") }
    XCTAssertNil(base.indexRange)
    XCTAssertEqual(base.indexFetchRange, ByteRange(offset: 780, length: 32_768))
  }

  // MARK: Hand-made boxes

  private func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    be(UInt64(payload.count + 8), 4) + Array(type.utf8) + payload
  }

  private func be(_ value: UInt64, _ count: Int) -> [UInt8] {
    (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
  }

  /// A sidx: references are (isIndex, size, duration).
  private func sidx(
    version: UInt8 = 1, timescale: UInt64 = 1000, time: UInt64 = 0, firstOffset: UInt64 = 0,
    references: [(Bool, UInt64, UInt64)]
  ) -> [UInt8] {
    let width = version == 0 ? 4 : 8
    var payload: [UInt8] = [version, 0, 0, 0] + be(1, 4) + be(timescale, 4)
    payload += be(time, width) + be(firstOffset, width) + [0, 0] + be(UInt64(references.count), 2)
    for (isIndex, size, duration) in references {
      payload += be((isIndex ? 1 << 31 : 0) | size, 4) + be(duration, 4) + be(1 << 31, 4)
    }
    return box("sidx", payload)
  }

  func testVersion0_withAFirstOffset() throws {
    let bytes =
      box("styp", [1, 2, 3, 4])
      + sidx(
        version: 0, timescale: 90_000, time: 900_000, firstOffset: 10,
        references: [(false, 100, 180_000), (false, 50, 90_000)])
    let parsed = try index(MPDSegmentIndex.parse(bytes, offset: 1000))
    XCTAssertEqual(parsed.boxRange.offset, 1012)
    let after = parsed.boxRange.end!
    XCTAssertEqual(
      parsed.entries.map(\.range),
      [
        ByteRange(offset: after + 10, length: 100), ByteRange(offset: after + 110, length: 50),
      ])
    XCTAssertEqual(parsed.entries.map(\.time), [900_000, 1_080_000])
    XCTAssertEqual(parsed.entries.map(\.timescale), [90_000, 90_000])
  }

  func testHierarchicalIndex_isResolvedWhenItsBytesAreGiven() throws {
    // Laid out as top, sub A, sub B, media: the top's references are A (its box) and B
    // (its box and the media after it); A's media lies past B.
    let subB = sidx(time: 3000, references: [(false, 70, 1000)])
    let subA = sidx(
      time: 0, firstOffset: UInt64(subB.count), references: [(false, 40, 1000), (false, 60, 2000)])
    let layoutTop = sidx(references: [
      (true, UInt64(subA.count), 3000), (true, UInt64(subB.count) + 170, 1000),
    ])
    let bytes = layoutTop + subA + subB
    let parsed = try index(MPDSegmentIndex.parse(bytes, offset: 0))
    XCTAssertEqual(parsed.entries.count, 3)
    XCTAssertEqual(parsed.entries.map(\.time), [0, 1000, 3000])
    XCTAssertEqual(parsed.entries.map(\.range.length), [40, 60, 70])
    // Without sub B's bytes: asked for, through its header and then its box.
    let cut = Array(bytes.prefix(layoutTop.count + subA.count))
    XCTAssertEqual(
      try MPDSegmentIndex.parse(cut, offset: 0),
      .needsBytes(through: Int64(layoutTop.count + subA.count + 16)))
    XCTAssertThrowsError(try MPDSegmentIndex.parse(bytes, offset: 0, maxDepth: 0))
  }

  func testHostileBoxes_areTypedErrors() {
    func refusal(_ bytes: [UInt8]) -> String? {
      do {
        _ = try MPDSegmentIndex.parse(bytes, offset: 0)
        return nil
      } catch {
        XCTAssertEqual(error.path, "sidx")
        return error.message
      }
    }
    XCTAssertNotNil(refusal(sidx(timescale: 0, references: [(false, 1, 1)])))
    XCTAssertNotNil(refusal(sidx(references: [(false, 0, 1)])), "a subsegment of no bytes")
    var tooMany = sidx(references: [(false, 10, 1)])
    tooMany[8 + 4 + 4 + 4 + 16 + 2 + 1] = 0xff  // reference_count's low byte
    XCTAssertNotNil(refusal(tooMany))
    XCTAssertNotNil(refusal(box("free", []) + [0, 0, 0, 4] + Array("sidx".utf8)), "size 4")
    XCTAssertNotNil(refusal(box("free", [1, 2])), "no sidx in complete bytes")
    var version = sidx(references: [(false, 10, 1)])
    version[8] = 2
    XCTAssertNotNil(refusal(version))
    // A sub-index reference to something else.
    XCTAssertNotNil(
      refusal(sidx(references: [(true, 16, 1)]) + box("moof", [0, 0, 0, 0, 0, 0, 0, 0])))
  }

  func testMutatedBoxes_neverTrap() {
    let valid =
      box("styp", [0, 0, 0, 0])
      + sidx(
        references: [(false, 100, 1000), (true, 44, 1000), (false, 5, 7)])
      + sidx(version: 0, references: [(false, 3, 3)])
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<5_000 {
      var bytes = valid
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(
          in: 0...255, using: &generator)
      }
      if Bool.random(using: &generator) {
        bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
      }
      _ = try? MPDSegmentIndex.parse(bytes, offset: Int64.random(in: 0...1 << 40))
    }
  }
}
