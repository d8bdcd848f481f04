import Foundation
import PlayheadCore
import PlayheadNet
import XCTest

/// Which failures `DefaultLoadErrorHandlingPolicy` retries and fails over on.
final class LoadErrorHandlingPolicyTests: XCTestCase {
  private let policy = DefaultLoadErrorHandlingPolicy()
  private let segment = DataRequest(
    url: URL(string: "https://cdn.example/a.ts")!, purpose: .segment)
  private let configuration = RequestConfiguration(timeoutMs: 3_000, retryCount: 2)

  private func status(_ code: Int) -> PlayheadError {
    PlayheadError(.httpStatus, "HTTP \(code)", httpStatusCode: code)
  }

  func testRetryDelay_transientFailures_areRetriedUpToTheCount() {
    for error in [
      PlayheadError(.timedOut, "t"), PlayheadError(.connectionFailed, "c"), status(500),
      status(503), status(599),
    ] {
      XCTAssertEqual(
        policy.retryDelay(for: error, request: segment, attempt: 1, configuration: configuration),
        ms(500), error.message)
      XCTAssertEqual(
        policy.retryDelay(for: error, request: segment, attempt: 2, configuration: configuration),
        ms(1_000), error.message)
      XCTAssertNil(
        policy.retryDelay(for: error, request: segment, attempt: 3, configuration: configuration),
        error.message)
    }
  }

  func testRetryDelay_clientErrorsCancellationAndOtherCodes_areNeverRetried() {
    let errors = [
      status(400), status(403), status(404), status(410), status(429),
      PlayheadError(.httpStatus, "no code"),
      PlayheadError(.cancelled, "x"), PlayheadError(.unsupportedFormat, "x"),
      PlayheadError(.decryptionFailed, "x"),
      PlayheadError(.fileNotFound, "x"), PlayheadError(.ioError, "x"),
      PlayheadError(.invalidArgument, "x"),
    ]
    for error in errors {
      XCTAssertNil(
        policy.retryDelay(for: error, request: segment, attempt: 1, configuration: configuration),
        error.message)
    }
  }

  func testShouldFailOver_missingOrForbiddenOrServerFailure_onMediaRequests() {
    let purposes: [DataPurpose] = [.playlist, .segment, .initializationSection, .key, .media]
    for purpose in purposes {
      let request = DataRequest(url: segment.url, purpose: purpose)
      for error in [
        status(403), status(404), status(410), status(500), PlayheadError(.timedOut, "t"),
        PlayheadError(.connectionFailed, "c"),
      ] {
        XCTAssertTrue(
          policy.shouldFailOver(for: error, request: request), "\(purpose) \(error.message)")
      }
      for error in [
        status(400), status(401), status(416), PlayheadError(.cancelled, "c"),
        PlayheadError(.unsupportedFormat, "u"),
      ] {
        XCTAssertFalse(
          policy.shouldFailOver(for: error, request: request), "\(purpose) \(error.message)")
      }
    }
    XCTAssertFalse(policy.shouldFailOver(for: status(404), request: DataRequest(url: segment.url)))
  }

  func testExclusionDuration_isConfigurable() {
    XCTAssertEqual(policy.exclusionDuration(for: status(404), request: segment), ms(60_000))
    XCTAssertEqual(
      DefaultLoadErrorHandlingPolicy(exclusionDurationMs: 5_000).exclusionDuration(
        for: status(404), request: segment),
      ms(5_000))
  }
}
