import Foundation
import PlayheadCore
import PlayheadTestSupport
import PlayheadText
import XCTest

/// `MP4TextParser` on broken and hostile boxes: typed errors with the box path, never a trap,
/// bounded work.
final class MP4TextHostileTests: XCTestCase {
  // MARK: Box writing

  private func box(_ type: String, _ payload: [UInt8] = []) -> [UInt8] {
    be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
  }

  private func full(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8] = [])
    -> [UInt8]
  {
    box(type, be32(UInt32(version) << 24 | flags) + payload)
  }

  private func be32(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  private func be64(_ value: UInt64) -> [UInt8] {
    be32(UInt32(value >> 32)) + be32(UInt32(value & 0xFFFF_FFFF))
  }

  /// A wvtt initialization section whose `mdhd` has `timescale`.
  private func initialization(timescale: UInt32 = 1000, entry: String = "wvtt") -> Data {
    let mdhd = full("mdhd", be32(0) + be32(0) + be32(timescale) + be32(0) + [0x55, 0xC4, 0, 0])
    let stsd = full("stsd", be32(1) + box(entry, [UInt8](repeating: 0, count: 6) + [0, 1]))
    let tkhd = full("tkhd", flags: 3, be32(0) + be32(0) + be32(1) + be32(0) + be32(0))
    let trak = box(
      "trak", tkhd + box("mdia", mdhd + box("minf", box("stbl", stsd))))
    let trex = full("trex", be32(1) + be32(1) + be32(0) + be32(0) + be32(0))
    return Data(box("moov", trak + box("mvex", trex)))
  }

  /// A segment: one `moof` with `tfhd` (flags, extra fields), `tfdt` and a `trun`, then
  /// `mdat` with `samples`.
  private func segment(
    tfhdFlags: UInt32 = 0x020000, tfhdFields: [UInt8] = [], time: UInt64 = 0,
    runFlags: UInt32 = 0x301, entries: [(UInt32, UInt32)]? = nil, count: UInt32? = nil,
    samples: [[UInt8]], dataOffset: Int32? = nil
  ) -> Data {
    func moof(_ offset: Int32) -> [UInt8] {
      let tfhd = full("tfhd", flags: tfhdFlags, be32(1) + tfhdFields)
      let tfdt = full("tfdt", version: 1, be64(time))
      let list = entries ?? samples.map { (1000, UInt32($0.count)) }
      var run = be32(count ?? UInt32(list.count))
      if runFlags & 1 != 0 { run += be32(UInt32(bitPattern: offset)) }
      for (duration, size) in list {
        if runFlags & 0x100 != 0 { run += be32(duration) }
        if runFlags & 0x200 != 0 { run += be32(size) }
      }
      return box(
        "moof",
        full("mfhd", be32(1)) + box("traf", tfhd + tfdt + full("trun", flags: runFlags, run)))
    }
    let size = Int32(moof(0).count)
    return Data(moof(dataOffset ?? size + 8) + box("mdat", samples.flatMap { $0 }))
  }

  private func cue(_ text: String) -> [UInt8] { box("vttc", box("payl", Array(text.utf8))) }

  private func error(_ body: () throws -> Any) -> MP4TextError? {
    do {
      _ = try body()
      return nil
    } catch let error as MP4TextError {
      return error
    } catch {
      XCTFail("untyped error \(error)")
      return nil
    }
  }

  // MARK: Cases

  func testBuiltSegmentReads() throws {
    let parsed = try MP4TextParser.parse(
      initialization: initialization(),
      segment: segment(time: 5000, samples: [cue("a"), box("vtte"), cue("b")]))
    XCTAssertEqual(parsed.cues.map(\.text), ["a", "b"])
    XCTAssertEqual(parsed.cues.map(\.start.seconds), [5, 7])
  }

  func testFragmentHeaderDefaultsApply() throws {
    // tfhd default duration (0x08) and size (0x10); the trun lists nothing per sample.
    let data = segment(
      tfhdFlags: 0x020018, tfhdFields: be32(500) + be32(19), runFlags: 0x001,
      entries: [(0, 0), (0, 0)], samples: [cue("one"), cue("two")])
    let parsed = try MP4TextParser.parse(initialization: initialization(), segment: data)
    XCTAssertEqual(parsed.cues.map(\.text), ["one", "two"])
    XCTAssertEqual(parsed.cues.map(\.end.seconds), [0.5, 1.0])
  }

  func testEveryTruncationThrowsOrReads() throws {
    let initBytes = try Data(contentsOf: try Fixtures.url("dash-text/init-wvtt.mp4"))
    let track = try MP4TextTrack.parse(initBytes)
    for name in ["wvtt-2.m4s", "stpp-2.m4s"] {
      let whole = try Data(contentsOf: try Fixtures.url("dash-text/\(name)"))
      let stppTrack = try MP4TextTrack.parse(
        try Data(contentsOf: try Fixtures.url("dash-text/init-stpp.mp4")))
      for length in 0..<whole.count {
        _ = try? MP4TextParser.parse(
          segment: whole.prefix(length), track: name.hasPrefix("wvtt") ? track : stppTrack)
      }
    }
    for length in 0..<initBytes.count {
      _ = try? MP4TextTrack.parse(initBytes.prefix(length))
    }
  }

  func testMutatedFixturesNeverTrap() throws {
    var generator = SplitMix(seed: 56)
    let track = try MP4TextTrack.parse(
      try Data(contentsOf: try Fixtures.url("dash-text/init-wvtt.mp4")))
    let original = [UInt8](try Data(contentsOf: try Fixtures.url("dash-text/wvtt-2.m4s")))
    for _ in 0..<2000 {
      var bytes = original
      for _ in 0..<Int(generator.next() % 4 + 1) {
        let at = Int(generator.next() % UInt64(bytes.count))
        bytes[at] = UInt8(truncatingIfNeeded: generator.next())
      }
      _ = try? MP4TextParser.parse(segment: Data(bytes), track: track)
    }
  }

  func testASizeBelowItsHeaderIsMalformed() {
    let failure = error {
      try MP4TextParser.parse(
        initialization: initialization(), segment: Data(be32(4) + Array("moof".utf8)))
    }
    XCTAssertEqual(failure?.kind, .malformed)
    XCTAssertEqual(failure?.path, "moof")
  }

  func testAHugeLargeSizeIsTruncated() {
    let data = Data(be32(1) + Array("mdat".utf8) + be64(UInt64.max))
    XCTAssertEqual(
      error { try MP4TextParser.parse(initialization: initialization(), segment: data) }?.kind,
      .truncated)
  }

  func testBillionsOfSamplesAreRefusedAtOnce() {
    let data = segment(runFlags: 0, entries: [], count: 4_000_000_000, samples: [])
    let failure = error { try MP4TextParser.parse(initialization: initialization(), segment: data) }
    XCTAssertEqual(failure?.kind, .limitExceeded)
    XCTAssertEqual(failure?.path, "moof[1]/traf/trun[1]")
  }

  func testSamplesThatDoNotFitTheRunAreTruncated() {
    let data = segment(entries: [(1000, 4)], count: 50_000, samples: [cue("x")])
    XCTAssertEqual(
      error { try MP4TextParser.parse(initialization: initialization(), segment: data) }?.kind,
      .truncated)
  }

  func testASampleOutsideTheSegmentIsMalformed() {
    let data = segment(samples: [cue("x")], dataOffset: 100_000)
    let failure = error { try MP4TextParser.parse(initialization: initialization(), segment: data) }
    XCTAssertEqual(failure?.kind, .malformed)
    XCTAssertEqual(failure?.path, "moof[1]/traf/trun[1]")
  }

  func testAZeroTimescaleIsMalformed() {
    let failure = error { try MP4TextTrack.parse(initialization(timescale: 0)) }
    XCTAssertEqual(failure?.kind, .malformed)
    XCTAssertEqual(failure?.path, "moov/trak[1]/mdia/mdhd")
  }

  func testAVideoInitializationHasNoTextTrack() throws {
    let video = try Data(contentsOf: try Fixtures.url("dash-vod/init-stream0.m4s"))
    XCTAssertEqual(error { try MP4TextTrack.parse(video) }?.kind, .noTextTrack)
    XCTAssertEqual(
      error { try MP4TextTrack.parse(initialization(entry: "avc1")) }?.kind, .noTextTrack)
  }

  func testTTMLThatIsNotXMLOrHasADoctypeIsMalformed() throws {
    let track = MP4TextTrack(format: .ttml, trackID: 1, timescale: 1000)
    for document in [
      "<tt><body><p begin='0s' end='1s'>open", "<!DOCTYPE tt [<!ENTITY a 'b'>]><tt/>",
      "<html/>",
    ] {
      let failure = error {
        try MP4TextParser.parse(segment: segment(samples: [Array(document.utf8)]), track: track)
      }
      XCTAssertEqual(failure?.kind, .malformed, document)
      XCTAssertEqual(failure?.path, "mdat/sample[1]", document)
    }
  }

  func testTTMLTimesThatDoNotReadLeaveTheirParagraphOut() throws {
    let track = MP4TextTrack(format: .ttml, trackID: 1, timescale: 1000)
    let document = """
      <tt xmlns="http://www.w3.org/ns/ttml"><body><div>
      <p begin="soon" end="1s">bad</p><p begin="99:99:99" end="1s">bad</p>
      <p begin="00:00:00:12" end="00:00:00.9">frames</p><p>whole</p>
      </div></body></tt>
      """
    let parsed = try MP4TextParser.parse(
      segment: segment(samples: [Array(document.utf8)]), track: track)
    XCTAssertEqual(parsed.cues.map(\.plainText), ["whole", "frames"])
    XCTAssertEqual(parsed.cues.last?.start.seconds, 0.4, "12 frames at 30 fps")
    XCTAssertEqual(parsed.cues.first?.end.seconds, 1, "no end: the sample's")
  }

  func testOversizedInputIsRefused() {
    let limits = MP4TextLimits(maxBytes: 16)
    XCTAssertEqual(
      error { try MP4TextTrack.parse(initialization(), limits: limits) }?.kind, .limitExceeded)
    let cues = MP4TextLimits(maxCues: 1)
    let data = segment(samples: [cue("a") + cue("b")])
    XCTAssertEqual(
      error {
        try MP4TextParser.parse(initialization: initialization(), segment: data, limits: cues)
      }?
      .kind, .limitExceeded)
  }
}

/// A small deterministic generator for the mutations.
private struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
