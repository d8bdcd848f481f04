import Foundation
import PlayheadCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension PlayheadError {
  /// The Playhead error for a failure URLSession reported while loading `url`.
  ///
  /// Every code of `NSURLErrorDomain` gets a typed code and a one-line message in words;
  /// no message ever shows a raw Foundation error number (an unknown code reads "failed
  /// for an unknown reason"). Timeouts become `.timedOut`, cancellations `.cancelled`,
  /// redirect loops `.tooManyRedirects`, a redirect to nowhere `.redirectRefused`, a
  /// request for credentials `.httpStatus` 401, undecodable content `.ioError`, local
  /// file errors their file codes, and the rest (refused, lost or insecure connections,
  /// bad answers) `.connectionFailed`. An error of another domain is a
  /// `.connectionFailed` that names its domain, and its POSIX reason when it has one.
  public static func transport(_ error: any Error, url: URL) -> PlayheadError {
    let nsError = error as NSError
    let target = url.absoluteString
    guard nsError.domain == NSURLErrorDomain else {
      let reason =
        nsError.domain == NSPOSIXErrorDomain
        ? String(cString: strerror(Int32(truncatingIfNeeded: nsError.code)))
        : "a \(nsError.domain) error"
      return PlayheadError(.connectionFailed, "connection to \(target) failed: \(reason)", url: url)
    }
    let (code, text) = describeURLError(nsError.code, target: target)
    return PlayheadError(code, text, url: url, httpStatusCode: code == .httpStatus ? 401 : nil)
  }

  /// The code and message for an `NSURLErrorDomain` code.
  private static func describeURLError(_ code: Int, target: String) -> (Code, String) {
    switch code {
    case NSURLErrorTimedOut:
      return (.timedOut, "request to \(target) timed out")
    case NSURLErrorCancelled, NSURLErrorUserCancelledAuthentication:
      return (.cancelled, "request to \(target) was cancelled")
    case NSURLErrorBadURL:
      return (.unsupportedScheme, "malformed URL: \(target)")
    case NSURLErrorUnsupportedURL:
      return (.unsupportedScheme, "unsupported URL: \(target)")
    case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
      return (.connectionFailed, "cannot find the host of \(target)")
    case NSURLErrorCannotConnectToHost:
      return (.connectionFailed, "cannot connect to the host of \(target)")
    case NSURLErrorNetworkConnectionLost:
      return (.connectionFailed, "connection lost while loading \(target)")
    case NSURLErrorNotConnectedToInternet, NSURLErrorInternationalRoamingOff,
      NSURLErrorCallIsActive, NSURLErrorDataNotAllowed, NSURLErrorCannotLoadFromNetwork:
      return (.connectionFailed, "no network connection for \(target)")
    case NSURLErrorResourceUnavailable:
      return (.connectionFailed, "\(target) is unavailable")
    case NSURLErrorHTTPTooManyRedirects:
      return (.tooManyRedirects, "too many redirects for \(target): a redirect loop?")
    case NSURLErrorRedirectToNonExistentLocation:
      return (.redirectRefused, "\(target) redirected to a location that does not exist")
    case NSURLErrorBadServerResponse, NSURLErrorCannotParseResponse:
      return (.connectionFailed, "bad server response from \(target)")
    case NSURLErrorZeroByteResource:
      return (.connectionFailed, "\(target) answered with no bytes")
    case NSURLErrorUserAuthenticationRequired:
      return (.httpStatus, "\(target) requires authentication (HTTP 401)")
    case NSURLErrorCannotDecodeRawData, NSURLErrorCannotDecodeContentData,
      NSURLErrorDownloadDecodingFailedMidStream, NSURLErrorDownloadDecodingFailedToComplete:
      return (.ioError, "cannot decode the content of \(target)")
    case NSURLErrorDataLengthExceedsMaximum:
      return (.ioError, "\(target) is larger than the network library accepts")
    case NSURLErrorRequestBodyStreamExhausted:
      return (.connectionFailed, "the request body for \(target) ran out")
    case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateUntrusted,
      NSURLErrorServerCertificateHasBadDate, NSURLErrorServerCertificateNotYetValid,
      NSURLErrorServerCertificateHasUnknownRoot, NSURLErrorClientCertificateRejected,
      NSURLErrorClientCertificateRequired, NSURLErrorAppTransportSecurityRequiresSecureConnection:
      return (.connectionFailed, "TLS connection to \(target) failed")
    case NSURLErrorFileDoesNotExist:
      return (.fileNotFound, "file not found: \(target)")
    case NSURLErrorFileIsDirectory:
      return (.isDirectory, "is a directory, not a file: \(target)")
    case NSURLErrorNoPermissionsToReadFile:
      return (.ioError, "no permission to read \(target)")
    case NSURLErrorCannotCreateFile, NSURLErrorCannotOpenFile, NSURLErrorCannotCloseFile,
      NSURLErrorCannotWriteToFile, NSURLErrorCannotRemoveFile, NSURLErrorCannotMoveFile:
      return (.ioError, "a file operation failed while loading \(target)")
    case NSURLErrorBackgroundSessionRequiresSharedContainer,
      NSURLErrorBackgroundSessionInUseByAnotherProcess, NSURLErrorBackgroundSessionWasDisconnected:
      return (.connectionFailed, "the background session for \(target) failed")
    case NSURLErrorUnknown:
      // libcurl's partial-transfer and reset errors arrive as "unknown".
      return (.connectionFailed, "connection to \(target) failed or closed early")
    default:
      return (.connectionFailed, "connection to \(target) failed for an unknown reason")
    }
  }
}
