import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// The JSON-lines analytics consumer.
final class AnalyticsConsumerTests: XCTestCase {
  func testOneLinePerEventWithTheSDKSessionIDAndOneSummaryPerSession() throws {
    let (controller, _) = SDKTesting.makeController()
    defer { controller.close() }
    let collected = LineCollector()
    let analytics = JSONLinesAnalyticsConsumer(includesProgress: true) { collected.append($0) }
    controller.addSessionConsumer(analytics)
    // Consumers are called in the order they were added: once this one has seen the end of
    // the list, the analytics consumer has written it.
    let after = SDKRecorder()
    controller.addSessionConsumer(after)
    controller.autoAdvance = true
    controller.autoPlay = true
    controller.setVideos([
      SDKTesting.video(
        id: "a", url: try Fixtures.url("alpha-left.mp4"),
        cuePoints: [CuePoint(type: "ad", position: .after, properties: ["name": "post"])]),
      SDKTesting.video(id: "b", url: try Fixtures.url("alpha-left.mp4")),
    ])
    after.waitFor(kind: "complete")
    let lines = analytics.lines
    XCTAssertEqual(lines.last?.event, "playlistComplete")
    XCTAssertTrue(
      lines.allSatisfy {
        $0["sdkSession"] == .string(PlayerSDKManager.shared.sessionID)
      })
    XCTAssertEqual(lines.filter { $0.event == "summary" }.count, 2)
    XCTAssertEqual(
      lines.filter { $0.event == "sessionAdvanced" }.map { $0["video"] },
      [.string("a"), .string("b")])
    let cue = try XCTUnwrap(lines.first { $0.event == "cuePoint" })
    XCTAssertEqual(cue["position"], .string("after"))
    XCTAssertEqual(cue["time"], .number(2))
    XCTAssertTrue(lines.contains { $0.event == "progress" })
    // The written text is the JSON of each line, one per line, keys in order.
    let texts = collected.lines
    XCTAssertEqual(texts.count, lines.count)
    for text in texts {
      XCTAssertTrue(text.hasPrefix("{\"event\":"), text)
      let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
      XCTAssertNotNil(object?["sdkSession"])
    }
    let summary = try XCTUnwrap(lines.first { $0.event == "summary" })
    XCTAssertEqual(summary["framesRendered"], .number(50), "\(summary.json)")
    XCTAssertEqual(summary["framesDropped"], .number(0), "\(summary.json)")
    XCTAssertEqual(summary["playedSeconds"], .number(2), "\(summary.json)")
    XCTAssertEqual(summary["stallCount"], .number(0))
  }

  func testTextFormat() {
    let line = AnalyticsEventLine(
      event: "ready", [("session", .number(0)), ("time", .number(1.5))])
    XCTAssertEqual(line.text, "ready session=0 time=1.5")
    XCTAssertEqual(line.json, "{\"event\":\"ready\",\"session\":0,\"time\":1.5}")
  }
}

/// Collects written lines.
final class LineCollector: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [String] = []

  func append(_ line: String) {
    lock.lock()
    stored.append(line)
    lock.unlock()
  }

  var lines: [String] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}
