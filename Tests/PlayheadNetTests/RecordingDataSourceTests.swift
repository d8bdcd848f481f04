import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// `RecordingDataSource` and `SessionRecorder`: the lines a session recording gets, with
/// secrets left out unless asked for.
final class RecordingDataSourceTests: XCTestCase {
  private let url = URL(string: "https://sim.example/v/seg.ts?token=abc-123&id=7")!
  private let body = generatedBytes(count: 150_000, seed: 9)

  private func recording(secrets: Bool = false, clock: ManualClock) throws -> (SessionRecorder, URL)
  {
    let file = try makeTemporaryDirectory(for: self).appendingPathComponent("session.jsonl")
    let recorder = try SessionRecorder(
      fileURL: file, clock: clock, recordsSecrets: secrets,
      metadata: [.init("media", .string("test"))])
    return (recorder, file)
  }

  private func network(_ clock: ManualClock) -> SimulatedNetwork {
    SimulatedNetwork(
      resources: [url: body], trace: .constant(bandwidthKbps: 8_000, latencyMs: 10), clock: clock)
  }

  /// The recording's lines, as JSON objects.
  private func lines(_ file: URL) throws -> [[String: Any]] {
    let text = try String(contentsOf: file, encoding: .utf8)
    return try text.split(separator: "\n").map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
  }

  private func types(_ lines: [[String: Any]]) -> [String] {
    lines.map { $0["type"] as? String ?? "?" }
  }

  func testATransfer_isRecordedLineByLine_withItsBytesAndClockTimes() throws {
    let clock = ManualClock(advancesOnWait: true)
    let (recorder, file) = try recording(clock: clock)
    let source = RecordingDataSource(upstream: network(clock).makeDataSource(), recorder: recorder)
    _ = try source.open(DataRequest(url: url, purpose: .segment))
    XCTAssertEqual(try drain(source, chunk: 64 * 1024), body)
    source.close()
    try recorder.finish()
    let recorded = try lines(file)
    XCTAssertEqual(
      types(recorded), ["recording", "open", "head", "data", "data", "data", "end", "finish"])
    XCTAssertEqual(recorded[0]["format"] as? String, SessionRecorder.formatName)
    XCTAssertEqual(recorded[0]["secrets"] as? Bool, false)
    XCTAssertEqual((recorded[0]["metadata"] as? [String: Any])?["media"] as? String, "test")
    XCTAssertEqual(recorded[1]["purpose"] as? String, "segment")
    XCTAssertEqual(recorded[1]["at"] as? Int, 0)
    XCTAssertEqual(recorded[2]["status"] as? Int, 200)
    XCTAssertEqual(recorded[2]["length"] as? Int, 150_000)
    XCTAssertEqual(recorded[2]["at"] as? Int, 10_000_000, "the head came after the latency")
    let chunks = recorded.filter { $0["type"] as? String == "data" }
    let bytes = chunks.compactMap { ($0["bytes"] as? String).flatMap { Data(base64Encoded: $0) } }
    XCTAssertEqual(bytes.reduce(Data(), +), body)
    XCTAssertEqual(chunks.compactMap { $0["at"] as? Int }, [75_536_000, 141_072_000, 160_000_000])
    XCTAssertEqual(Set(recorded[1...6].compactMap { $0["id"] as? Int }), [1])
    XCTAssertEqual(recorded[7]["exchanges"] as? Int, 1)
    XCTAssertEqual(recorded[7]["lines"] as? Int, 8)
  }

  func testSecrets_areRedacted_fromURLsAndHeaders_unlessRecordedOnPurpose() throws {
    for secrets in [false, true] {
      let clock = ManualClock(advancesOnWait: true)
      let (recorder, file) = try recording(secrets: secrets, clock: clock)
      let source = RecordingDataSource(
        upstream: network(clock).makeDataSource(), recorder: recorder)
      _ = try source.open(
        DataRequest(
          url: url,
          headers: ["Authorization": "Bearer s3cret", "Cookie": "sid=42", "X-Plain": "kept"]))
      source.close()
      try recorder.finish()
      let text = try String(contentsOf: file, encoding: .utf8)
      let open = try XCTUnwrap(try lines(file).first { $0["type"] as? String == "open" })
      let headers = try XCTUnwrap(open["headers"] as? [String: String])
      XCTAssertEqual(headers["X-Plain"], "kept")
      if secrets {
        XCTAssertEqual(open["url"] as? String, url.absoluteString)
        XCTAssertEqual(headers["Authorization"], "Bearer s3cret")
        XCTAssertEqual(headers["Cookie"], "sid=42")
      } else {
        XCTAssertEqual(open["url"] as? String, "https://sim.example/v/seg.ts?token=redacted&id=7")
        XCTAssertEqual(headers["Authorization"], "[redacted]")
        XCTAssertEqual(headers["Cookie"], "[redacted]")
        for secret in ["abc-123", "Bearer s3cret", "sid=42"] {
          XCTAssertFalse(text.contains(secret), "\(secret) leaked into the recording")
        }
      }
      XCTAssertEqual(types(try lines(file)), ["recording", "open", "head", "close", "finish"])
    }
  }

  func testRedaction_ofSignedURLParameters() {
    let signed = URL(
      string: "https://cdn.example/a.ts?X-Amz-Signature=f00&Policy=p&Key-Pair-Id=k&x=1&sig=s")!
    XCTAssertEqual(
      RecordingRedaction.url(signed).absoluteString,
      "https://cdn.example/a.ts?X-Amz-Signature=redacted&Policy=redacted&Key-Pair-Id=redacted"
        + "&x=1&sig=redacted")
    let plain = URL(string: "https://cdn.example/a.ts?x=1")!
    XCTAssertEqual(RecordingRedaction.url(plain), plain)
    XCTAssertEqual(
      RecordingRedaction.headers(["set-cookie": "a", "Proxy-Authorization": "b", "Accept": "c"]),
      ["set-cookie": "[redacted]", "Proxy-Authorization": "[redacted]", "Accept": "c"])
  }

  func testErrors_ofOpensAndReads_areRecorded_withRedactedURLs() throws {
    let clock = ManualClock(advancesOnWait: true)
    let (recorder, file) = try recording(clock: clock)
    let network = network(clock)
    let missing = URL(string: "https://sim.example/missing.ts?token=zz-secret-zz")!
    let source = RecordingDataSource(upstream: network.makeDataSource(), recorder: recorder)
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in try source.open(DataRequest(url: missing)) }?
        .httpStatusCode, 404)
    // A read that fails: the network goes silent for longer than the timeout.
    let silent = SimulatedNetwork(
      resources: [url: body],
      trace: try NetworkTrace(periods: [
        .init(durationMs: 100, bandwidthKbps: 8_000), .init(durationMs: 60_000, bandwidthKbps: 0),
      ]), clock: clock, configuration: RequestConfiguration(timeoutMs: 1_000))
    let reading = RecordingDataSource(upstream: silent.makeDataSource(), recorder: recorder)
    _ = try reading.open(DataRequest(url: url))
    let (received, failure) = drainUntilFailure(reading, chunk: 64 * 1024)
    XCTAssertEqual(received.count, 100_000)
    XCTAssertEqual(failure?.code, .timedOut)
    try recorder.finish()
    let recorded = try lines(file)
    let errors = recorded.filter { $0["type"] as? String == "error" }
    XCTAssertEqual(errors.compactMap { $0["code"] as? String }, ["httpStatus", "timedOut"])
    XCTAssertEqual(errors.first?["status"] as? Int, 404)
    XCTAssertEqual(
      errors.first?["message"] as? String,
      "HTTP 404 Not Found for https://sim.example/missing.ts?token=redacted")
    XCTAssertEqual(errors.map { $0["id"] as? Int }, [1, 2])
    XCTAssertFalse(try String(contentsOf: file, encoding: .utf8).contains("zz-secret-zz"))
    XCTAssertFalse(types(recorded).contains("end"), "a failed read has no end")
  }

  func testCancel_ofAReadIsNotRecordedAsAnError_andReachesTheUpstream() throws {
    let clock = ManualClock(advancesOnWait: true)
    let (recorder, file) = try recording(clock: clock)
    let upstream = network(clock).makeDataSource()
    let source = RecordingDataSource(upstream: upstream, recorder: recorder)
    _ = try source.open(DataRequest(url: url))
    XCTAssertEqual(try readSome(source, count: 1_000), body.prefix(1_000))
    source.cancel()
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in try readSome(source, count: 1_000) }?.code,
      .cancelled)
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in try upstream.open(DataRequest(url: self.url)) }?
        .code, .cancelled, "cancel reaches the upstream")
    source.close()
    try recorder.finish()
    XCTAssertEqual(
      types(try lines(file)), ["recording", "open", "head", "data", "close", "finish"])
  }
}
