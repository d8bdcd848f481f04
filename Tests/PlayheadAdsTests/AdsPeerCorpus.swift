import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import PlayheadTesting
import XCTest

/// The ads peer corpus in `shared/interop/ads-peers` (VAST and VMAP files from other
/// projects' test suites, with `expected.json`), read where it lies, never copied.
///
/// Found like `PeerCorpus`: from this file's folder upwards, the first folder holding
/// `shared/interop/ads-peers`. A missing corpus throws, so the tests over it fail.
enum AdsPeerCorpus {
  static func folder(from file: String = #filePath) throws -> URL {
    try PeerCorpus.interopFolder("ads-peers", from: file)
  }

  /// `expected.json`'s `files` entries.
  static func entries() throws -> [[String: Any]] {
    let data = try Data(contentsOf: try folder().appendingPathComponent("expected.json"))
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    guard let files = object?["files"] as? [[String: Any]], object?["conventions"] != nil else {
      throw CocoaError(.fileReadCorruptFile)
    }
    return files
  }
}

/// Serves the corpus folder over HTTP, and maps the absolute
/// `http://localhost:8000/test/webdriver/content/canned_ads/` URLs of the videojs-ima files to
/// that project's folder on the same server (the files were written for videojs-ima's own
/// test server).
final class AdsCorpusNetwork: DataSourceFactory, @unchecked Sendable {
  // Unchecked: `server` is set once in init and never changes.
  let server: HTTPTestServer
  private let upstream: DataSourceStack

  init(folder: URL) throws {
    server = HTTPTestServer(directory: folder)
    try server.start()
    upstream = DataSourceStack(request: RequestConfiguration(timeoutMs: 10_000, retryCount: 0))
  }

  func url(_ file: String) -> URL { server.url("/" + file) }

  func makeDataSource() -> any DataSource {
    RewritingDataSource(upstream: upstream.makeDataSource(), server: server.baseURL)
  }

  /// A source that opens requests for the videojs-ima server on the test server.
  final class RewritingDataSource: DataSource, @unchecked Sendable {
    let upstream: any DataSource
    let server: URL

    init(upstream: any DataSource, server: URL) {
      self.upstream = upstream
      self.server = server
    }

    func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
      var request = request
      let prefix = "http://localhost:8000/test/webdriver/content/canned_ads/"
      if request.url.absoluteString.hasPrefix(prefix) {
        let name = request.url.absoluteString.dropFirst(prefix.count)
        request.url = server.appendingPathComponent("videojs-ima/" + name)
      }
      return try upstream.open(request)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
      try upstream.read(into: buffer)
    }

    func close() { upstream.close() }
    func cancel() { upstream.cancel() }
  }
}
