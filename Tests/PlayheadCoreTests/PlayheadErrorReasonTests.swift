import Foundation
import PlayheadCore
import XCTest

/// `PlayheadError.reason(for:)` says why a Foundation or system error happened in words,
/// never with its raw number.
final class PlayheadErrorReasonTests: XCTestCase {
  private func assertInWords(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertNil(
      text.range(of: #"error -?\d+"#, options: .regularExpression), text, file: file, line: line)
    XCTAssertFalse(text.isEmpty, file: file, line: line)
  }

  func testPOSIXErrors_giveTheSystemsText() {
    let reason = PlayheadError.reason(for: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC)))
    XCTAssertEqual(reason, String(cString: strerror(ENOSPC)))
  }

  func testCocoaErrorsWithAPOSIXCause_giveTheCause() {
    let underlying = NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))
    let error = NSError(
      domain: NSCocoaErrorDomain, code: CocoaError.fileWriteUnknown.rawValue,
      userInfo: [NSUnderlyingErrorKey: underlying])
    XCTAssertEqual(PlayheadError.reason(for: error), String(cString: strerror(EACCES)))
  }

  func testCocoaFileErrors_getAPhrase() {
    let error = NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileWriteOutOfSpace.rawValue)
    XCTAssertEqual(PlayheadError.reason(for: error), "no space left on the device")
  }

  func testOtherErrors_loseTheirNumber() {
    let error = NSError(domain: "SomeDomain", code: 42)
    let reason = PlayheadError.reason(for: error)
    assertInWords(reason)
    XCTAssertFalse(reason.contains("42"), reason)
  }

  func testPlayheadErrors_giveTheirMessage() {
    XCTAssertEqual(PlayheadError.reason(for: PlayheadError(.ioError, "disk full")), "disk full")
  }

  func testARealFailedWrite_readsInWords() {
    let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/a.bin")
    do {
      try Data([1]).write(to: url)
      XCTFail("the write should fail")
    } catch {
      assertInWords(PlayheadError.reason(for: error))
    }
    do {
      _ = try Data(contentsOf: url)
      XCTFail("the read should fail")
    } catch {
      assertInWords(PlayheadError.reason(for: error))
    }
  }
}
