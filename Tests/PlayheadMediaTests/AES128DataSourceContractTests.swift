import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// `DataSourceContract` (PlayheadTesting) over `AES128DataSource`: the test server serves the
/// contract's resources encrypted with AES-128-CBC, and the source must deliver the clear
/// bytes. A range is a message of its own (HLS encrypts each byte range alone), so the
/// range checks do not apply.
final class AES128DataSourceContractTests: XCTestCase {
  private let key: [UInt8] = Array(0..<16)
  private let iv: [UInt8] = Array((0..<16).map { UInt8(0xF0 - $0) })

  func testAES128DataSource_overHTTP_deliversTheClearBytes() throws {
    var encrypted: [String: Data] = [:]
    for (path, clear) in DataSourceContract.resources {
      encrypted[path] = try AES128.encryptCBC(clear, key: key, iv: iv)
    }
    let server = HTTPTestServer(files: encrypted, faults: ["/stalled.bin": .hang])
    try server.start()
    addTeardownBlock { server.stop() }
    let (key, iv) = (self.key, self.iv)
    let contract = DataSourceContract(
      fixture: .init(
        makeSource: { AES128DataSource(upstream: HTTPDataSource(), key: key, iv: iv) },
        url: { server.url($0) },
        stalled: .init(
          url: server.url("/stalled.bin"),
          untilBlocked: {
            // Waits on the server's log, never on a timer.
            while true {
              let seen = server.requests.count
              if server.requestCount(for: "/stalled.bin") > 0 { return }
              _ = server.waitForRequests(count: seen + 1)
            }
          }),
        servesRanges: false))
    XCTAssertEqual(contract.run().map(\.description), [])
  }

  func testAES128DataSource_withTheWrongKey_failsAtTheEnd_notWithWrongBytes() throws {
    let clear = DataSourceContract.small
    let wrongKey = [UInt8](repeating: 7, count: 16)
    let source = AES128DataSource(
      upstream: MemoryDataSource(data: try AES128.encryptCBC(clear, key: key, iv: iv)),
      key: wrongKey, iv: iv)
    _ = try source.open(DataRequest(url: URL(string: "memory:a")!))
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
    defer { buffer.deallocate() }
    var failure: PlayheadError?
    do {
      while try source.read(into: buffer) > 0 {}
    } catch {
      failure = error
    }
    XCTAssertEqual(failure?.code, .decryptionFailed)
  }
}
