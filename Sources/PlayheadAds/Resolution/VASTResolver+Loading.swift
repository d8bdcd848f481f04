import Foundation
import PlayheadCore
import PlayheadNet

extension VASTResolver {
  /// Why one hop gave no document.
  struct HopFailure: Error {
    var code: VASTErrorCode
    var message: String

    func failure(ad: VASTAd?, chain: Chain) -> VASTAdFailure {
      VASTAdFailure(
        code: code, message: message, adID: ad?.id, sequence: ad?.sequence,
        errorURLs: chain.errorURLs, wrapperChain: chain.urls)
    }
  }

  /// Loads and parses the VAST response at `url`; the URL that answered comes back with
  /// it (after redirects).
  func fetch(_ url: URL) -> Result<(VASTDocument, URL), HopFailure> {
    let data: Data
    let answered: URL
    switch load(url) {
    case .failure(let failure): return .failure(failure)
    case .success(let (body, responseURL)):
      data = body
      answered = responseURL
    }
    do {
      return .success((try VASTParser.parse(data, limits: configuration.limits), answered))
    } catch {
      // An empty body is an empty answer: no ad.
      if error.xmlError?.kind == .empty {
        return .failure(HopFailure(code: .noAd, message: "empty response: \(url.absoluteString)"))
      }
      return .failure(HopFailure(code: error.code, message: "\(url.absoluteString): \(error)"))
    }
  }

  /// The bytes at `url`, within the hop timeout and the size limit.
  func load(_ url: URL) -> Result<(Data, URL), HopFailure> {
    let timeoutMs = configuration.effectiveHopTimeoutMs
    let timeout = MediaTime.fromMilliseconds(timeoutMs)
    let maxBytes = configuration.limits.maxBytes
    let verdict = Locked<HopFailure?>(nil)
    let request = DataRequest(
      url: url, purpose: .api, headers: configuration.headers, flags: [.bypassesCache])
    do {
      let response = try loader.load(request, stalledReportIntervalMs: timeoutMs) { progress in
        if progress.elapsed >= timeout {
          verdict.withLock {
            $0 = HopFailure(
              code: .wrapperTimeout,
              message: "no complete answer within \(timeoutMs) ms: \(url.absoluteString)")
          }
          return false
        }
        if progress.bytesLoaded > maxBytes {
          verdict.withLock {
            $0 = HopFailure(
              code: .xmlParsing,
              message: "response over \(maxBytes) bytes: \(url.absoluteString)")
          }
          return false
        }
        return true
      }
      return .success((response.data, response.url))
    } catch {
      if let failure = verdict.value { return .failure(failure) }
      return .failure(
        HopFailure(
          code: .wrapperTimeout, message: "unavailable: \(error.message)"))
    }
  }
}
