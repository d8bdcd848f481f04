import PlayheadAds
import PlayheadCore
import XCTest

/// Durations, skip offsets and VMAP time offsets: valid, lenient and garbage forms.
final class VASTTimeTests: XCTestCase {
  private func ms(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1000) }

  func testParse_standardForms_areExactMilliseconds() {
    XCTAssertEqual(VASTTime.parse("00:00:30"), ms(30_000))
    XCTAssertEqual(VASTTime.parse("01:02:03.456"), ms(3_723_456))
    XCTAssertEqual(VASTTime.parse("00:01:30.123"), ms(90_123))
    XCTAssertEqual(VASTTime.parse(" 00:00:05.000\n"), ms(5_000), "trimmed")
  }

  func testParse_lenientForms() {
    XCTAssertEqual(VASTTime.parse("30"), ms(30_000), "plain seconds")
    XCTAssertEqual(VASTTime.parse("10.6"), ms(10_600), "plain decimal seconds")
    XCTAssertEqual(VASTTime.parse("00:00:10.6"), ms(10_600), "one fraction digit")
    XCTAssertEqual(VASTTime.parse("01:30"), ms(90_000), "minutes and seconds")
    XCTAssertEqual(VASTTime.parse("00:00:10,5"), ms(10_500), "comma decimal")
    XCTAssertEqual(VASTTime.parse("0:0:5"), ms(5_000), "one-digit fields")
    XCTAssertEqual(VASTTime.parse("00:00:01.2345"), ms(1_235), "rounded half up")
    XCTAssertEqual(VASTTime.parse("00:00:01.2344"), ms(1_234))
  }

  func testParse_garbage_isNil() {
    for text in [
      "", "undefined", "-00:00:05", "00:60:00", "00:00:60", "1:2:3:4", "00:00:xx", "5s",
      "00:00:05.", ".5", "00::05", "+5", "1e3", "00:00:05.0000000000", "99999999:00:00",
    ] {
      XCTAssertNil(VASTTime.parse(text), "\"\(text)\"")
    }
  }

  func testFormat_roundTripsAndPads() {
    XCTAssertEqual(VASTTime.format(ms(3_723_456)), "01:02:03.456")
    XCTAssertEqual(VASTTime.format(ms(5)), "00:00:00.005")
    XCTAssertEqual(VASTTime.format(MediaTime(value: 1, timescale: 3)), "00:00:00.333")
    XCTAssertEqual(VASTTime.format(.invalid), "00:00:00.000")
    XCTAssertEqual(VASTTime.parse(VASTTime.format(ms(86_399_999))), ms(86_399_999))
  }

  func testOffset_timeOrPercent() {
    XCTAssertEqual(VASTOffset("00:00:05"), .time(ms(5_000)))
    XCTAssertEqual(VASTOffset("25%"), .percent(25))
    XCTAssertEqual(VASTOffset("12.5%"), .percent(12.5))
    XCTAssertNil(VASTOffset("101%"))
    XCTAssertNil(VASTOffset("-5%"))
    XCTAssertNil(VASTOffset("%"))
    XCTAssertNil(VASTOffset("abc"))
    XCTAssertEqual(VASTOffset("25%")?.time(inAdOf: ms(30_000)), ms(7_500))
    XCTAssertEqual(VASTOffset("12.5%")?.time(inAdOf: ms(10_000)), ms(1_250))
    XCTAssertNil(VASTOffset("25%")?.time(inAdOf: nil), "a share of an unknown duration")
    XCTAssertEqual(VASTOffset("00:00:05")?.time(inAdOf: nil), ms(5_000))
    XCTAssertEqual(VASTOffset("12.5%")?.description, "12.5%")
  }

  func testVMAPTimeOffset_everyForm() {
    XCTAssertEqual(VMAPTimeOffset("start"), .start)
    XCTAssertEqual(VMAPTimeOffset("END"), .end)
    XCTAssertEqual(VMAPTimeOffset("00:10:23.125"), .time(ms(623_125)))
    XCTAssertEqual(VMAPTimeOffset("70%"), .percent(70))
    XCTAssertEqual(VMAPTimeOffset("#2"), .position(2))
    XCTAssertNil(VMAPTimeOffset("#0"))
    XCTAssertNil(VMAPTimeOffset("#x"))
    XCTAssertNil(VMAPTimeOffset("middle"))
    XCTAssertNil(VMAPTimeOffset(""))
    XCTAssertEqual(VMAPTimeOffset("end")?.contentTime(duration: ms(60_000)), ms(60_000))
    XCTAssertEqual(VMAPTimeOffset("50%")?.contentTime(duration: ms(60_000)), ms(30_000))
    XCTAssertNil(VMAPTimeOffset("#1")?.contentTime(duration: ms(60_000)))
    XCTAssertEqual(VMAPTimeOffset("start")?.contentTime(duration: nil), .zero)
  }

  func testBreakType_commaSeparated() {
    XCTAssertEqual(VMAPBreakType(parsing: "linear,nonlinear"), [.linear, .nonlinear])
    XCTAssertEqual(VMAPBreakType(parsing: " Display , linear "), [.linear, .display])
    XCTAssertEqual(
      VMAPBreakType(parsing: "linear,nonlinear,display").names, "linear,nonlinear,display")
    XCTAssertEqual(VMAPBreakType(parsing: "bogus"), [])
  }
}
