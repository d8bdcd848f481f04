import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// The SCTE-35 `splice_info_section` decoder, on sections built field by field.
final class SCTE35Tests: XCTestCase {
  private typealias B = SCTE35Builder

  private func decode(_ bytes: [UInt8], verifyingCRC: Bool = true) throws -> SpliceInfoSection {
    do throws(SCTE35Error) {
      return try SpliceInfoSection(bytes: bytes, verifyingCRC: verifyingCRC)
    } catch {
      throw error
    }
  }

  private func failure(_ bytes: [UInt8], verifyingCRC: Bool = true) -> SCTE35Error? {
    do throws(SCTE35Error) {
      _ = try SpliceInfoSection(bytes: bytes, verifyingCRC: verifyingCRC)
      return nil
    } catch {
      return error
    }
  }

  func testCRC_matchesTheCatalogueCheckValueAndTheBitwiseDefinition() {
    XCTAssertEqual(MPEG2CRC32.checksum(Array("123456789".utf8)), 0x0376_E6E7)
    XCTAssertEqual(B.crc32(Array("123456789".utf8)), 0x0376_E6E7)
    let section = B.outSection(eventID: 9, seconds: 15)
    XCTAssertEqual(MPEG2CRC32.checksum(section), 0, "over a section with its CRC the CRC is 0")
    var bytes: [UInt8] = []
    for value in 0..<600 { bytes.append(UInt8(truncatingIfNeeded: value &* 37)) }
    XCTAssertEqual(MPEG2CRC32.checksum(bytes), B.crc32(bytes))
  }

  func testSpliceInsert_outWithBreakDuration_decodesEveryField() throws {
    let bytes = B.section(
      commandType: 0x05,
      command: B.spliceInsert(
        eventID: 0xDEAD_BEEF, outOfNetwork: true, pts: (1 << 33) - 10, breakDuration: 2_700_000,
        autoReturn: true, uniqueProgramID: 0x1234, availNum: 2, availsExpected: 4),
      ptsAdjustment: 100)
    let section = try decode(bytes)
    XCTAssertEqual(section.sapType, 3)
    XCTAssertEqual(section.protocolVersion, 0)
    XCTAssertEqual(section.ptsAdjustment90kHz, 100)
    XCTAssertEqual(section.tier, 0xFFF)
    XCTAssertEqual(section.crc32, MPEG2CRC32.checksum(bytes.dropLast(4)))
    guard case .spliceInsert(let insert) = section.command else {
      return XCTFail("\(section.command)")
    }
    XCTAssertEqual(insert.eventID, 0xDEAD_BEEF)
    XCTAssertFalse(insert.isCancelled)
    XCTAssertTrue(insert.isOutOfNetwork)
    XCTAssertTrue(insert.isProgramSplice)
    XCTAssertFalse(insert.isImmediate)
    XCTAssertEqual(insert.spliceTime?.pts90kHz, (1 << 33) - 10)
    XCTAssertEqual(insert.breakDuration, BreakDuration(autoReturn: true, duration90kHz: 2_700_000))
    XCTAssertEqual(insert.breakDuration?.duration, time(30))
    XCTAssertEqual(insert.uniqueProgramID, 0x1234)
    XCTAssertEqual(insert.availNumber, 2)
    XCTAssertEqual(insert.availsExpected, 4)
    XCTAssertEqual(section.signal, .breakStart)
    XCTAssertEqual(section.eventID, 0xDEAD_BEEF)
    XCTAssertEqual(section.breakDuration, time(30))
    XCTAssertEqual(section.adjustedSplicePTS90kHz, 90, "the PTS wraps at 2^33")
  }

  func testSpliceInsert_inImmediateAndCancelled() throws {
    let back = try decode(
      B.section(
        commandType: 0x05, command: B.spliceInsert(eventID: 5, outOfNetwork: false, pts: nil))
    )
    guard case .spliceInsert(let insert) = back.command else { return XCTFail() }
    XCTAssertTrue(insert.isImmediate)
    XCTAssertNil(insert.spliceTime)
    XCTAssertNil(insert.breakDuration)
    XCTAssertEqual(back.signal, .breakEnd)
    XCTAssertNil(back.adjustedSplicePTS90kHz)
    let cancelled = try decode(
      B.section(
        commandType: 0x05,
        command: B.spliceInsert(eventID: 6, outOfNetwork: true, pts: 1, cancelled: true)))
    XCTAssertEqual(cancelled.command, .spliceInsert(SpliceInsert(eventID: 6, isCancelled: true)))
    XCTAssertNil(cancelled.signal, "a cancelled event signals nothing")
  }

  func testTimeSignal_withSegmentationDescriptors() throws {
    let upid = Array("urn:uuid:0001".utf8)
    let bytes = B.section(
      commandType: 0x06, command: B.timeSignal(pts: 5_400_000),
      descriptors: [
        B.segmentationDescriptor(eventID: 1, type: 0x10),  // program start: no ad
        B.segmentationDescriptor(
          eventID: 0x4000_0001, type: 0x34, duration: 5_400_000, upidType: 0x0F, upid: upid,
          segmentNumber: 2, segmentsExpected: 3, subSegments: (1, 4), restricted: true),
        [0x00, 0x08, 0x43, 0x55, 0x45, 0x49, 0xAA, 0xBB, 0xCC, 0xDD],  // avail_descriptor
      ])
    let section = try decode(bytes)
    XCTAssertEqual(section.command, .timeSignal(SpliceTime(pts90kHz: 5_400_000)))
    XCTAssertEqual(section.descriptors.count, 3)
    XCTAssertEqual(
      section.descriptors[2],
      .other(tag: 0, identifier: 0x4355_4549, bytes: [0xAA, 0xBB, 0xCC, 0xDD]))
    let descriptor = try XCTUnwrap(section.segmentationDescriptors.last)
    XCTAssertEqual(descriptor.identifier, 0x4355_4549)
    XCTAssertEqual(descriptor.eventID, 0x4000_0001)
    XCTAssertEqual(descriptor.type, .providerPlacementOpportunityStart)
    XCTAssertTrue(descriptor.type.isAdStart)
    XCTAssertEqual(descriptor.duration, time(60))
    XCTAssertEqual(descriptor.upidType, 0x0F)
    XCTAssertEqual(descriptor.upid, upid)
    XCTAssertEqual(descriptor.segmentNumber, 2)
    XCTAssertEqual(descriptor.segmentsExpected, 3)
    XCTAssertEqual(descriptor.subSegmentNumber, 1)
    XCTAssertEqual(descriptor.subSegmentsExpected, 4)
    XCTAssertEqual(
      descriptor.deliveryRestrictions,
      .init(
        webDeliveryAllowed: true, noRegionalBlackout: false, archiveAllowed: true,
        deviceRestrictions: 2))
    XCTAssertEqual(section.signal, .breakStart, "the placement opportunity, not the program start")
    XCTAssertEqual(section.eventID, 0x4000_0001)
    XCTAssertEqual(section.breakDuration, time(60))
  }

  func testSegmentationTypes_startsAndEnds() throws {
    for (type, signal) in [
      (0x22, SCTE35Signal.breakStart), (0x23, .breakEnd), (0x30, .breakStart), (0x31, .breakEnd),
      (0x32, .breakStart), (0x33, .breakEnd), (0x34, .breakStart), (0x35, .breakEnd),
      (0x36, .breakStart), (0x37, .breakEnd),
    ] {
      let section = try decode(
        B.section(
          commandType: 0x06, command: B.timeSignal(pts: nil),
          descriptors: [B.segmentationDescriptor(eventID: 3, type: UInt8(type))]))
      XCTAssertEqual(section.signal, signal, "type \(type)")
      XCTAssertNil(section.segmentationDescriptors[0].subSegmentNumber, "absent, not invented")
    }
    let chapter = try decode(
      B.section(
        commandType: 0x06, command: B.timeSignal(pts: nil),
        descriptors: [B.segmentationDescriptor(eventID: 3, type: 0x20)]))
    XCTAssertNil(chapter.signal)
  }

  func testSpliceNullAndOtherCommands() throws {
    let null = try decode(B.section(commandType: 0x00, command: []))
    XCTAssertEqual(null.command, .spliceNull)
    XCTAssertNil(null.signal)
    let privateCommand = try decode(B.section(commandType: 0xFF, command: [1, 2, 3, 4, 5]))
    XCTAssertEqual(privateCommand.command, .other(type: 0xFF, bytes: [1, 2, 3, 4, 5]))
    XCTAssertEqual(
      failure(B.section(commandType: 0xFF, command: [1, 2], commandLength: 0xFFF)),
      .unknownCommandLength(commandType: 0xFF))
    // A known command with the legacy unknown length still decodes.
    let legacy = try decode(
      B.section(
        commandType: 0x05, command: B.spliceInsert(eventID: 8, outOfNetwork: true, pts: 9),
        commandLength: 0xFFF))
    XCTAssertEqual(legacy.eventID, 8)
  }

  func testText_hexAndBase64_constructedSamples() throws {
    // Built by hand from the standard's syntax (event 0x1234 out, PTS 90 s, 30 s break,
    // pts_adjustment 1 s) and encoded once; the builder must agree byte for byte.
    let sample = "/DAlAAAAAV+QAP/wFAUAABI0f+/+AHuYoP4AKTLgAAcBAgAAD9zsIw=="
    let built = B.section(
      commandType: 0x05,
      command: B.spliceInsert(
        eventID: 0x1234, outOfNetwork: true, pts: 8_100_000, breakDuration: 2_700_000),
      ptsAdjustment: 90_000)
    XCTAssertEqual(B.base64(built), sample)
    let fromBase64 = try SpliceInfoSection(text: sample)
    let fromHex = try SpliceInfoSection(text: B.hex(built))
    let fromLowerHex = try SpliceInfoSection(text: B.hex(built).lowercased())
    XCTAssertEqual(fromBase64, fromHex)
    XCTAssertEqual(fromBase64, fromLowerHex)
    XCTAssertEqual(fromBase64.eventID, 0x1234)
    XCTAssertEqual(fromBase64.breakDuration, time(30))
    XCTAssertEqual(fromBase64.adjustedSplicePTS90kHz, 8_190_000)
    // Unpadded base64 reads the same.
    XCTAssertEqual(try SpliceInfoSection(text: String(sample.dropLast(2))), fromBase64)

    let signal = try SpliceInfoSection(
      text: "/DA3AAAAAAAAAP/wBQb+AFJlwAAhAh9DVUVJAAAATX//AABSZcAJCVNJR05BTDphZDQBAQEDB5SylQ==")
    XCTAssertEqual(signal.command, .timeSignal(SpliceTime(pts90kHz: 5_400_000)))
    let descriptor = try XCTUnwrap(signal.segmentationDescriptors.first)
    XCTAssertEqual(descriptor.eventID, 77)
    XCTAssertEqual(descriptor.upidType, 0x09)
    XCTAssertEqual(String(decoding: descriptor.upid, as: UTF8.self), "SIGNAL:ad")
    XCTAssertEqual(descriptor.type.rawValue, 0x34)
    XCTAssertEqual((descriptor.subSegmentNumber, descriptor.subSegmentsExpected).0, 1)
    XCTAssertEqual(descriptor.subSegmentsExpected, 3)
    XCTAssertEqual(signal.breakDuration, time(60))
  }

  func testText_refusesWhatIsNeitherForm() {
    for text in [
      "", "0x", "0x123", "0xZZ", "not base64!", "A", "/DA=x", "====",
      String(repeating: "A", count: 9_000),
    ] {
      do throws(SCTE35Error) {
        _ = try SpliceInfoSection(text: text)
        XCTFail("decoded '\(text.prefix(20))'")
      } catch {
        XCTAssertEqual(error, .invalidText, text)
      }
    }
  }

  func testBadCRC_isATypedError() {
    let bytes = B.section(
      commandType: 0x05, command: B.spliceInsert(eventID: 1, outOfNetwork: true, pts: 0),
      corruptCRC: true)
    guard case .crcMismatch(let expected, let computed)? = failure(bytes) else {
      return XCTFail("\(String(describing: failure(bytes)))")
    }
    XCTAssertEqual(expected ^ 1, computed)
    XCTAssertNotNil(try? decode(bytes, verifyingCRC: false), "decodes when the CRC is not checked")
    var flipped = B.outSection(eventID: 1, seconds: 30)
    flipped[20] ^= 0x10
    guard case .crcMismatch? = failure(flipped) else { return XCTFail("a flipped bit is caught") }
  }

  func testWrongTableIDAndEncryption() {
    XCTAssertEqual(
      failure(B.section(commandType: 0, command: [], tableID: 0xFD)), .wrongTableID(0xFD))
    XCTAssertEqual(failure(B.section(commandType: 0, command: [], encrypted: true)), .encrypted)
  }

  func testTruncatedAtEveryLength_isATypedErrorNeverACrash() throws {
    let sections = [
      B.outSection(eventID: 1, seconds: 30),
      B.section(
        commandType: 0x06, command: B.timeSignal(pts: 1),
        descriptors: [
          B.segmentationDescriptor(eventID: 2, type: 0x34, duration: 9, upid: [1, 2, 3])
        ]),
    ]
    for section in sections {
      XCTAssertNoThrow(try decode(section))
      for length in 0..<section.count {
        let prefix = Array(section.prefix(length))
        let error = failure(prefix)
        XCTAssertNotNil(error, "a prefix of \(length) bytes decoded")
        if length >= 3 {
          guard case .truncated? = error else {
            XCTFail("length \(length): \(String(describing: error))")
            continue
          }
        }
      }
    }
  }

  func testHostileInnerLengths_withAValidCRC_areTypedErrors() {
    // A descriptor that claims more bytes than the loop holds.
    var descriptor = B.segmentationDescriptor(eventID: 2, type: 0x34)
    descriptor[1] = 200
    XCTAssertTrue(isTruncated(B.section(commandType: 0, command: [], descriptors: [descriptor])))
    // A UPID longer than its descriptor.
    var upid = B.segmentationDescriptor(eventID: 2, type: 0x34, upid: [1, 2])
    upid[upid.count - 6] = 250
    XCTAssertTrue(isTruncated(B.section(commandType: 0, command: [], descriptors: [upid])))
    // A command longer than the section.
    XCTAssertTrue(isTruncated(B.section(commandType: 0xFF, command: [1], commandLength: 4000)))
    // A splice_insert cut short by its own declared length.
    let insert = B.spliceInsert(eventID: 1, outOfNetwork: true, pts: 1, breakDuration: 9)
    XCTAssertTrue(
      isTruncated(B.section(commandType: 0x05, command: insert, commandLength: insert.count - 3)))
    // A section_length too short for the fixed fields.
    var short = B.section(commandType: 0, command: [])
    short[2] = 5
    guard case .malformed? = failure(short, verifyingCRC: false) else {
      return XCTFail("\(String(describing: failure(short, verifyingCRC: false)))")
    }
  }

  func testEveryByteValue_atEveryOffset_neverCrashes() {
    let base = B.section(
      commandType: 0x06, command: B.timeSignal(pts: 7),
      descriptors: [
        B.segmentationDescriptor(eventID: 2, type: 0x34, duration: 9, upid: [1, 2, 3]),
        B.segmentationDescriptor(eventID: 3, type: 0x35),
      ])
    var decoded = 0
    for offset in 0..<base.count {
      for value in [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF] as [UInt8] {
        var bytes = base
        bytes[offset] = value
        if (try? decode(bytes, verifyingCRC: false)) != nil { decoded += 1 }
      }
    }
    XCTAssertGreaterThan(decoded, 0)
  }

  private func isTruncated(_ bytes: [UInt8]) -> Bool {
    if case .truncated? = failure(bytes) { return true }
    return false
  }
}
