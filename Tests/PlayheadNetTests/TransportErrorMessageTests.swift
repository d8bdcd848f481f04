import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Every failure URLSession reports becomes a typed `PlayheadError` whose message says
/// what happened in words, never with a raw Foundation error number.
final class TransportErrorMessageTests: XCTestCase {
  private let url = URL(string: "http://media.example/a.mp4")!

  /// Every code of `NSURLErrorDomain` that Foundation defines on Linux.
  private let allCodes: [Int] = [
    NSURLErrorUnknown, NSURLErrorCancelled, NSURLErrorBadURL, NSURLErrorTimedOut,
    NSURLErrorUnsupportedURL, NSURLErrorCannotFindHost, NSURLErrorCannotConnectToHost,
    NSURLErrorNetworkConnectionLost, NSURLErrorDNSLookupFailed, NSURLErrorHTTPTooManyRedirects,
    NSURLErrorResourceUnavailable, NSURLErrorNotConnectedToInternet,
    NSURLErrorRedirectToNonExistentLocation, NSURLErrorBadServerResponse,
    NSURLErrorUserCancelledAuthentication, NSURLErrorUserAuthenticationRequired,
    NSURLErrorZeroByteResource, NSURLErrorCannotDecodeRawData, NSURLErrorCannotDecodeContentData,
    NSURLErrorCannotParseResponse, NSURLErrorAppTransportSecurityRequiresSecureConnection,
    NSURLErrorFileDoesNotExist, NSURLErrorFileIsDirectory, NSURLErrorNoPermissionsToReadFile,
    NSURLErrorDataLengthExceedsMaximum, NSURLErrorSecureConnectionFailed,
    NSURLErrorServerCertificateHasBadDate, NSURLErrorServerCertificateUntrusted,
    NSURLErrorServerCertificateHasUnknownRoot, NSURLErrorServerCertificateNotYetValid,
    NSURLErrorClientCertificateRejected, NSURLErrorClientCertificateRequired,
    NSURLErrorCannotLoadFromNetwork, NSURLErrorCannotCreateFile, NSURLErrorCannotOpenFile,
    NSURLErrorCannotCloseFile, NSURLErrorCannotWriteToFile, NSURLErrorCannotRemoveFile,
    NSURLErrorCannotMoveFile, NSURLErrorDownloadDecodingFailedMidStream,
    NSURLErrorDownloadDecodingFailedToComplete, NSURLErrorInternationalRoamingOff,
    NSURLErrorCallIsActive, NSURLErrorDataNotAllowed, NSURLErrorRequestBodyStreamExhausted,
    NSURLErrorBackgroundSessionRequiresSharedContainer,
    NSURLErrorBackgroundSessionInUseByAnotherProcess, NSURLErrorBackgroundSessionWasDisconnected,
  ]

  private func mapped(_ code: Int) -> PlayheadError {
    PlayheadError.transport(NSError(domain: NSURLErrorDomain, code: code), url: url)
  }

  func testEveryURLErrorCode_givesAMessageInWords_withoutItsNumber() {
    for code in allCodes + [-123_456] {
      let error = mapped(code)
      XCTAssertFalse(error.message.contains(String(code)), "\(code): \(error.message)")
      XCTAssertFalse(FaultMatrix.showsRawErrorNumber(error.message), "\(code): \(error.message)")
      XCTAssertTrue(error.message.contains(url.absoluteString), "\(code): names the URL")
      XCTAssertEqual(error.category, .source, "\(code)")
      XCTAssertEqual(error.url, url)
    }
  }

  func testKnownCodes_getTheirOwnErrorCodes() {
    XCTAssertEqual(mapped(NSURLErrorTimedOut).code, .timedOut)
    XCTAssertEqual(mapped(NSURLErrorCancelled).code, .cancelled)
    XCTAssertEqual(mapped(NSURLErrorHTTPTooManyRedirects).code, .tooManyRedirects)
    XCTAssertEqual(
      mapped(NSURLErrorHTTPTooManyRedirects).message,
      "too many redirects for \(url.absoluteString): a redirect loop?")
    XCTAssertEqual(mapped(NSURLErrorRedirectToNonExistentLocation).code, .redirectRefused)
    XCTAssertEqual(mapped(NSURLErrorUserAuthenticationRequired).code, .httpStatus)
    XCTAssertEqual(mapped(NSURLErrorUserAuthenticationRequired).httpStatusCode, 401)
    XCTAssertEqual(mapped(NSURLErrorFileDoesNotExist).code, .fileNotFound)
    XCTAssertEqual(mapped(NSURLErrorCannotDecodeContentData).code, .ioError)
    XCTAssertEqual(
      mapped(NSURLErrorCannotConnectToHost).message,
      "cannot connect to the host of \(url.absoluteString)")
    XCTAssertEqual(
      mapped(NSURLErrorUnknown).message,
      "connection to \(url.absoluteString) failed or closed early")
    XCTAssertEqual(
      mapped(-123_456).message, "connection to \(url.absoluteString) failed for an unknown reason")
  }

  func testOtherDomains_sayTheirReasonInWords() {
    let posix = PlayheadError.transport(
      NSError(domain: NSPOSIXErrorDomain, code: Int(ECONNRESET)), url: url)
    XCTAssertEqual(posix.code, .connectionFailed)
    XCTAssertEqual(
      posix.message,
      "connection to \(url.absoluteString) failed: \(String(cString: strerror(ECONNRESET)))")
    let other = PlayheadError.transport(NSError(domain: "SomeDomain", code: 7), url: url)
    XCTAssertEqual(other.message, "connection to \(url.absoluteString) failed: a SomeDomain error")
  }

  func testFaultsAURLSessionReports_readInWords_forBothHTTPSources() throws {
    let server = HTTPTestServer(
      files: ["/reset.bin": generatedBytes(count: 200_000)],
      faults: ["/reset.bin": .resetConnection])
    try server.start()
    defer { server.stop() }
    let refused = URL(string: "http://127.0.0.1:\(HTTPTestServer.unusedPort())/a.bin")!
    let cases: [(URL, PlayheadError.Code)] = [
      (refused, .connectionFailed), (server.url("/reset.bin"), .connectionFailed),
    ]
    for (target, code) in cases {
      let configuration = RequestConfiguration(timeoutMs: 5_000, retryCount: 0)
      let loaded = playheadError { () throws(PlayheadError) in
        try DataSourceStack(request: configuration).loader().load(DataRequest(url: target))
      }
      let opened = playheadError { () throws(PlayheadError) in
        try readToEnd(
          DataSourceReader(
            source: DataSourceStack(request: configuration).makeDataSource(),
            request: DataRequest(url: target, purpose: .media)))
      }
      for error in [loaded, opened] {
        XCTAssertEqual(error?.code, code, "\(target): \(String(describing: error))")
        XCTAssertFalse(
          FaultMatrix.showsRawErrorNumber(error?.message ?? "error -0"),
          "\(target): \(String(describing: error?.message))")
      }
    }
  }
}
