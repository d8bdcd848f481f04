import Foundation
import PlayheadCore
import PlayheadNet
import XCTest

/// Building, validating and reading `NetworkTrace`s.
final class NetworkTraceTests: XCTestCase {
  func testLoad_benchmarkJSONFormat_readsEveryPeriodInOrder() throws {
    let directory = try makeTemporaryDirectory(for: self)
    let file = directory.appendingPathComponent("trace.json")
    let json = """
      [
          {"duration_ms": 1013, "bandwidth_kbps": 1285, "latency_ms": 100},
          {"duration_ms": 5000, "bandwidth_kbps": 0, "latency_ms": 20},
          {"duration_ms": 250.5, "bandwidth_kbps": 110970, "latency_ms": 0}
      ]
      """
    try Data(json.utf8).write(to: file)
    let trace = try NetworkTrace.load(contentsOf: file)
    XCTAssertEqual(
      trace.periods,
      [
        .init(durationMs: 1013, bandwidthKbps: 1285, latencyMs: 100),
        .init(durationMs: 5000, bandwidthKbps: 0, latencyMs: 20),
        .init(durationMs: 250.5, bandwidthKbps: 110_970, latencyMs: 0),
      ])
    XCTAssertEqual(trace.totalDuration, MediaTime(nanoseconds: 6_263_500_000))
  }

  func testLoad_missingFile_throwsFileNotFound() {
    let url = URL(fileURLWithPath: "/nonexistent/playhead/trace.json")
    let error = playheadError { () throws(PlayheadError) in try NetworkTrace.load(contentsOf: url) }
    XCTAssertEqual(error?.code, .fileNotFound)
  }

  func testDecode_notATrace_throwsUnsupportedFormat() {
    for text in [
      "{}", "[{\"duration_ms\": 10}]", "not json",
      "[{\"duration_ms\": \"x\", \"bandwidth_kbps\": 1, \"latency_ms\": 0}]",
    ] {
      let error = playheadError { () throws(PlayheadError) in
        try NetworkTrace.decode(Data(text.utf8), name: "t.json")
      }
      XCTAssertEqual(error?.code, .unsupportedFormat, text)
      XCTAssertTrue(error?.message.hasPrefix("t.json is not a JSON list") ?? false, text)
    }
  }

  /// A trace goes through the bounded JSON reader: nesting, duplicate keys and bad bytes
  /// are named with their position.
  func testDecode_hostileJSON_namesTheProblemAndPosition() {
    let deep = "[" + String(repeating: "[", count: 10_000)
    let cases: [(text: String, problem: String)] = [
      (deep, "nested deeper than 64 levels at line 1, column 65 (byte offset 64)"),
      (
        #"[{"duration_ms": 1, "duration_ms": 2, "bandwidth_kbps": 1, "latency_ms": 0}]"#,
        #"the key "duration_ms" appears twice in one object at line 1, column 21"#
      ),
      (#"[{"duration_ms": 1e999}]"#, "the number 1e999 is too large"),
      ("[{\"duration_ms\": 1,", "the text ends inside an object opened at line 1, column 2"),
      (
        #"[{"duration_ms": 1, "bandwidth_kbps": 1}]"#,
        "missing field [0].latency_ms"
      ),
    ]
    for (text, problem) in cases {
      let error = playheadError { () throws(PlayheadError) in
        try NetworkTrace.decode(Data(text.utf8), name: "t.json")
      }
      XCTAssertEqual(error?.code, .unsupportedFormat, text)
      XCTAssertTrue(
        error?.message.hasPrefix(
          "t.json is not a JSON list of {duration_ms, bandwidth_kbps, latency_ms} periods: "
            + problem) ?? false, "\(text.prefix(60)): \(error?.message ?? "no error")")
    }
  }

  func testInit_invalidPeriods_throwInvalidArgumentNamingThePeriod() {
    let cases: [([NetworkTrace.Period], String)] = [
      ([], "a network trace needs at least one period"),
      (
        [.init(durationMs: 0, bandwidthKbps: 10)],
        "network trace period 0: duration must be positive, got 0.0 ms"
      ),
      (
        [.init(durationMs: 10, bandwidthKbps: 10), .init(durationMs: 10, bandwidthKbps: -1)],
        "network trace period 1: bandwidth must be 0 or more, got -1.0 kbps"
      ),
      (
        [.init(durationMs: 10, bandwidthKbps: 10, latencyMs: .nan)],
        "network trace period 0: latency must be 0 or more, got nan ms"
      ),
      ([.init(durationMs: 10, bandwidthKbps: 0)], "network trace has no period with bandwidth"),
      ([.init(durationMs: 1e12, bandwidthKbps: 1)], "network trace is longer than 100 days"),
    ]
    for (periods, message) in cases {
      let error = playheadError { () throws(PlayheadError) in try NetworkTrace(periods: periods) }
      XCTAssertEqual(error?.code, .invalidArgument, message)
      XCTAssertEqual(error?.message, message)
    }
  }

  func testConstant_outOfRangeValues_areClampedNotTrapped() {
    let trace = NetworkTrace.constant(bandwidthKbps: -5, latencyMs: .infinity)
    XCTAssertEqual(trace.periods.count, 1)
    XCTAssertEqual(trace.periods[0].bandwidthKbps, 0.001)
    XCTAssertEqual(trace.periods[0].latencyMs, 0)
    XCTAssertEqual(
      NetworkTrace.constant(bandwidthKbps: 800, latencyMs: 30).periods[0].latencyMs, 30)
  }

  func testPeriod_encodesWithTheBenchmarkKeys() throws {
    let encoded = try JSONEncoder().encode(
      NetworkTrace.Period(durationMs: 1, bandwidthKbps: 2, latencyMs: 3))
    let object = try JSONSerialization.jsonObject(with: encoded) as? [String: Double]
    XCTAssertEqual(object, ["duration_ms": 1, "bandwidth_kbps": 2, "latency_ms": 3])
  }
}
