import Foundation
import PlayheadCore
import PlayheadNet
import XCTest

/// Defaults, retry spacing and header fields of `RequestConfiguration`.
final class RequestConfigurationTests: XCTestCase {
  func testDefaults_matchTheDocumentedValues() {
    let configuration = RequestConfiguration()
    XCTAssertEqual(configuration.timeoutMs, 10_000)
    XCTAssertEqual(configuration.retryCount, 3)
    XCTAssertEqual(configuration.retryBaseDelayMs, 500)
    XCTAssertEqual(configuration.retryMaxDelayMs, 5_000)
    XCTAssertEqual(configuration.headers, [:])
    XCTAssertNil(configuration.referer)
    XCTAssertNil(configuration.userAgent)
    XCTAssertEqual(configuration.timeout, ms(10_000))
  }

  func testRetryDelay_doublesUpToTheMaximumAndTheTimeout() {
    let configuration = RequestConfiguration()
    XCTAssertEqual(
      (1...6).map { configuration.retryDelay(beforeRetry: $0) },
      [ms(500), ms(1_000), ms(2_000), ms(4_000), ms(5_000), ms(5_000)])
    let short = RequestConfiguration(timeoutMs: 1_500)
    XCTAssertEqual(
      (1...3).map { short.retryDelay(beforeRetry: $0) }, [ms(500), ms(1_000), ms(1_500)])
    XCTAssertEqual(configuration.retryDelay(beforeRetry: 0), ms(500))
    XCTAssertEqual(configuration.retryDelay(beforeRetry: .max), ms(5_000))
  }

  func testOutOfRangeValues_areClampedNotTrapped() {
    let odd = RequestConfiguration(
      timeoutMs: -5, retryCount: -2, retryBaseDelayMs: -1, retryMaxDelayMs: .max)
    XCTAssertEqual(odd.effectiveTimeoutMs, 1)
    XCTAssertEqual(odd.effectiveRetryCount, 0)
    XCTAssertEqual(odd.retryDelay(beforeRetry: 3), .zero)
    let huge = RequestConfiguration(timeoutMs: .max, retryBaseDelayMs: .max, retryMaxDelayMs: .max)
    XCTAssertEqual(huge.retryDelay(beforeRetry: 40), ms(9_000_000_000))
  }

  func testSpacedByTimeout_usesTheTimeoutForEveryDelay() {
    let configuration = RequestConfiguration.spacedByTimeout(
      timeoutMs: 4_000, retryCount: 5, userAgent: "ua")
    XCTAssertEqual(
      (1...4).map { configuration.retryDelay(beforeRetry: $0) },
      Array(repeating: ms(4_000), count: 4))
    XCTAssertEqual(configuration.retryCount, 5)
    XCTAssertEqual(configuration.userAgent, "ua")
  }

  func testHeaderFields_userAgentAndRefererReplaceHeadersOfAnyCase() {
    var configuration = RequestConfiguration(headers: [
      "X-A": "1", "user-agent": "old", "REFERER": "old",
    ])
    XCTAssertEqual(configuration.headerFields, ["X-A": "1", "user-agent": "old", "REFERER": "old"])
    configuration.userAgent = "new-ua"
    configuration.referer = "https://r.example/"
    XCTAssertEqual(
      configuration.headerFields,
      ["X-A": "1", "User-Agent": "new-ua", "Referer": "https://r.example/"])
  }
}
