import PlayheadCore

/// XML Schema `xs:duration` values as MPDs write them (`PT1M5.063S`, `P1DT2H`, `PT0S`).
///
/// Years count 365 days and months 30 days: a duration in an MPD is a span of media time,
/// and the few that use these units mean it roughly. Negative durations, a bare `P` or
/// `PT`, units out of order and a fraction anywhere but the seconds are refused (nil).
/// The result is exact to the nanosecond (further decimals are dropped).
public enum XSDuration {
  /// The duration `text` writes, or nil when it is not one.
  public static func parse(_ text: some StringProtocol) -> MediaTime? {
    var bytes = Array(text.utf8)[...]
    while let first = bytes.first, first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D
    {
      bytes = bytes.dropFirst()
    }
    while let last = bytes.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D {
      bytes = bytes.dropLast()
    }
    guard bytes.first == UInt8(ascii: "P") else { return nil }
    bytes = bytes.dropFirst()
    var nanoseconds: Int64 = 0
    var inTime = false
    var sawComponent = false
    var sawTimeComponent = false
    // The units allowed next, in order: date part Y M D, then (after T) H M S.
    var dateUnits: [UInt8] = Array("YMD".utf8)
    var timeUnits: [UInt8] = Array("HMS".utf8)
    while let byte = bytes.first {
      if byte == UInt8(ascii: "T") {
        guard !inTime else { return nil }
        inTime = true
        bytes = bytes.dropFirst()
        continue
      }
      // A number: digits, and for seconds a fraction.
      let digits = bytes.prefix { (0x30...0x39).contains($0) }
      guard !digits.isEmpty, digits.count <= 12 else { return nil }
      bytes = bytes.dropFirst(digits.count)
      var fraction: ArraySlice<UInt8> = []
      if bytes.first == UInt8(ascii: ".") {
        bytes = bytes.dropFirst()
        fraction = bytes.prefix { (0x30...0x39).contains($0) }
        guard !fraction.isEmpty, fraction.count <= 64 else { return nil }
        bytes = bytes.dropFirst(fraction.count)
        fraction = fraction.prefix(9)
      }
      guard let unit = bytes.first else { return nil }
      bytes = bytes.dropFirst()
      let whole = Int64(digits.reduce(0) { $0 * 10 + Int($1 - 0x30) })
      let unitSeconds: Int64
      if inTime {
        guard let index = timeUnits.firstIndex(of: unit) else { return nil }
        timeUnits.removeSubrange(...index)
        unitSeconds = unit == UInt8(ascii: "H") ? 3600 : unit == UInt8(ascii: "M") ? 60 : 1
        sawTimeComponent = true
      } else {
        guard let index = dateUnits.firstIndex(of: unit) else { return nil }
        dateUnits.removeSubrange(...index)
        unitSeconds =
          unit == UInt8(ascii: "Y")
          ? 365 * 86_400 : unit == UInt8(ascii: "M") ? 30 * 86_400 : 86_400
      }
      guard fraction.isEmpty || (inTime && unit == UInt8(ascii: "S")) else { return nil }
      let (seconds, overflow) = whole.multipliedReportingOverflow(by: unitSeconds)
      guard !overflow, seconds < Int64.max / 1_000_000_000 - nanoseconds / 1_000_000_000 - 1 else {
        return nil
      }
      nanoseconds += seconds * 1_000_000_000
      if !fraction.isEmpty {
        var value: Int64 = 0
        for digit in fraction { value = value * 10 + Int64(digit - 0x30) }
        for _ in fraction.count..<9 { value *= 10 }
        nanoseconds += value
      }
      sawComponent = true
    }
    guard sawComponent, !inTime || sawTimeComponent else { return nil }
    return MediaTime(value: nanoseconds, timescale: 1_000_000_000)
  }
}
