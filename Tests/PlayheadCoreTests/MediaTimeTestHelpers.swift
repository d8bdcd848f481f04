import PlayheadCore
import XCTest

/// Shorthand for a numeric time.
func time(_ value: Int64, _ timescale: Int32) -> MediaTime {
  MediaTime(value: value, timescale: timescale)
}

/// Asserts the exact fields of a numeric time, which `==` (a rational comparison) ignores.
func assertFields(
  _ actual: MediaTime, value: Int64, timescale: Int32, rounded: Bool = false,
  file: StaticString = #filePath, line: UInt = #line
) {
  XCTAssertTrue(
    actual.isNumeric, "\(actual.debugDescription) is not numeric", file: file, line: line)
  XCTAssertEqual(actual.value, value, "value of \(actual.debugDescription)", file: file, line: line)
  XCTAssertEqual(
    actual.timescale, timescale, "timescale of \(actual.debugDescription)", file: file, line: line)
  XCTAssertEqual(
    actual.hasBeenRounded, rounded, "rounded flag of \(actual.debugDescription)", file: file,
    line: line)
}

/// A short name for the kind of a time, for table-driven tests.
func kindName(_ time: MediaTime) -> String {
  if time.isNumeric { return "N" }
  if time.isPositiveInfinity { return "+inf" }
  if time.isNegativeInfinity { return "-inf" }
  if time.isIndefinite { return "indef" }
  XCTAssertFalse(time.isValid)
  return "invalid"
}
