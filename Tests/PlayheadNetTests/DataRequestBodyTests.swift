import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Requests with a body (POSTs, such as ClearKey licence requests) through the data-source
/// stack: sent as POST without `Range`, never cached, retried whole, recorded and replayed
/// by body, refused by files.
final class DataRequestBodyTests: XCTestCase {
  private let path = "/licence"

  /// A started server whose `/licence` answers `echo:` and the request body.
  private func echoServer() throws -> HTTPTestServer {
    let server = HTTPTestServer()
    try server.start()
    addTeardownBlock { server.stop() }
    server.setResponder(for: path) { request in
      HTTPTestServer.Response(
        headers: ["Content-Type": "text/plain"], body: Data("echo:".utf8) + request.body)
    }
    return server
  }

  private func load(_ request: DataRequest, through factory: any DataSourceFactory)
    throws(PlayheadError) -> Data
  {
    try DataLoader(factory: factory).load(request).data
  }

  func testDataRequest_withoutBody_isAGet_andOldInitialisersStillCompile() {
    let url = URL(string: "https://example.com/a")!
    XCTAssertNil(DataRequest(url: url).body)
    XCTAssertEqual(DataRequest(url: url, purpose: .key).method, "GET")
    XCTAssertNil(DataRequest(url: url, deliversErrorResponses: true).body)
    let post = DataRequest(url: url, body: Data("x".utf8))
    XCTAssertEqual(post.method, "POST")
    XCTAssertEqual(DataRequest(url: url, body: Data()).method, "POST", "an empty body is a POST")
    XCTAssertNotEqual(post, DataRequest(url: url, body: Data("y".utf8)))
  }

  func testHTTPSource_sendsABody_asAPostWithoutRange() throws {
    let server = try echoServer()
    let body = Data(#"{"kids":["AAECAwQFBgcICQoLDA0ODw"],"type":"temporary"}"#.utf8)
    let request = DataRequest(
      url: server.url(path), purpose: .key, headers: ["Content-Type": "application/json"],
      body: body)
    let answer = try load(request, through: HTTPDataSourceFactory())
    XCTAssertEqual(answer, Data("echo:".utf8) + body)
    let logged = try XCTUnwrap(server.requests.first)
    XCTAssertEqual(logged.method, "POST")
    XCTAssertEqual(logged.body, body)
    XCTAssertEqual(logged.headers["content-type"], "application/json")
    XCTAssertEqual(logged.headers["content-length"], String(body.count))
    XCTAssertNil(logged.range)
  }

  func testHTTPSource_postWithoutAContentType_sendsOctetStream() throws {
    let server = try echoServer()
    _ = try load(
      DataRequest(url: server.url(path), body: Data([1, 2, 3])), through: HTTPDataSourceFactory())
    XCTAssertEqual(server.requests.first?.headers["content-type"], "application/octet-stream")
    XCTAssertEqual(server.requests.first?.body, Data([1, 2, 3]))
  }

  func testHTTPSource_postWithARange_sendsNoRange_andCutsTheWholeAnswer() throws {
    let server = try echoServer()
    let request = DataRequest(
      url: server.url(path), range: ByteRange(offset: 2, length: 4), body: Data("abcdef".utf8))
    XCTAssertEqual(try load(request, through: HTTPDataSourceFactory()), Data("ho:a".utf8))
    XCTAssertNil(server.requests.first?.range)
  }

  func testCache_passesAPostUpstream_andKeepsNothing() throws {
    let server = try echoServer()
    let cache = try makeCache()
    let stack = DataSourceStack(request: RequestConfiguration(retryCount: 0), cache: cache)
    for body in ["one", "two", "one"] {
      let request = DataRequest(url: server.url(path), purpose: .key, body: Data(body.utf8))
      XCTAssertEqual(try load(request, through: stack), Data("echo:\(body)".utf8))
    }
    XCTAssertEqual(server.requestCount(for: path), 3, "every POST reached the server")
    XCTAssertEqual(server.requests.map(\.body), ["one", "two", "one"].map { Data($0.utf8) })
    // A GET of the same URL is not served a POST's answer from the cache.
    server.setResponder(for: path, nil)
    server.setFile(Data("file".utf8), at: path)
    XCTAssertEqual(try load(DataRequest(url: server.url(path)), through: stack), Data("file".utf8))
    XCTAssertEqual(server.requests.last?.method, "GET")
  }

  func testRetry_sendsThePostAgain_withItsBody() throws {
    let server = try echoServer()
    server.setFault(.failTimes(1, status: 503), for: path)
    let stack = DataSourceStack(
      request: RequestConfiguration(timeoutMs: 5_000, retryCount: 2, retryBaseDelayMs: 1),
      clock: ManualClock(advancesOnWait: true))
    let body = Data("licence request".utf8)
    let answer = try load(
      DataRequest(url: server.url(path), purpose: .key, body: body), through: stack)
    XCTAssertEqual(answer, Data("echo:".utf8) + body)
    XCTAssertEqual(server.requests.map(\.method), ["POST", "POST"])
    XCTAssertEqual(server.requests.map(\.body), [body, body])
  }

  func testFileSource_refusesABody_withInvalidArgument() throws {
    let file = try makeTemporaryDirectory(for: self).appendingPathComponent("a.bin")
    try Data("bytes".utf8).write(to: file)
    let source = FileDataSource()
    let error = playheadError { () throws(PlayheadError) in
      try source.open(DataRequest(url: file, body: Data("x".utf8)))
    }
    XCTAssertEqual(error?.code, .invalidArgument)
    XCTAssertEqual(
      error?.message, "cannot send a 1-byte request body (POST) to the file \(file.path)")
    XCTAssertEqual(try source.open(DataRequest(url: file)).length, 5, "a GET still opens")
  }

  func testMemorySource_ignoresABody() throws {
    let url = URL(string: "memory:licence")!
    let source = MemoryDataSource(resources: [url: Data("keys".utf8)])
    _ = try source.open(DataRequest(url: url, body: Data("x".utf8)))
    XCTAssertEqual(try drain(source), Data("keys".utf8))
  }

  func testRecording_keepsThePostBody_andAReplayMatchesOnIt() throws {
    let server = try echoServer()
    let url = server.url(path)
    let file = try makeTemporaryDirectory(for: self).appendingPathComponent("session.jsonl")
    let recorder = try SessionRecorder(fileURL: file, clock: ManualClock())
    let recording = DataSourceFactories.decorating(HTTPDataSourceFactory()) {
      RecordingDataSource(upstream: $0, recorder: recorder)
    }
    for body in ["first", "second"] {
      _ = try load(DataRequest(url: url, purpose: .key, body: Data(body.utf8)), through: recording)
    }
    try recorder.finish()
    let text = try String(contentsOf: file, encoding: .utf8)
    XCTAssertTrue(text.contains(#""body":"\#(Data("first".utf8).base64EncodedString())""#), text)

    let replay = ReplayingNetwork(
      recording: try SessionRecording(contentsOf: file), clock: ManualClock(advancesOnWait: true))
    // In another order than recorded: each body gets its own answer.
    for body in ["second", "first"] {
      let request = DataRequest(url: url, purpose: .key, body: Data(body.utf8))
      XCTAssertEqual(try load(request, through: replay), Data("echo:\(body)".utf8))
    }
    let other = playheadError { () throws(PlayheadError) in
      try self.load(DataRequest(url: url, body: Data("third".utf8)), through: replay)
    }
    XCTAssertEqual(other?.code, .notInRecording)
    XCTAssertTrue(other?.message.contains("a POST of 5 bytes") ?? false, other?.message ?? "")
    let get = playheadError { () throws(PlayheadError) in
      try self.load(DataRequest(url: url), through: replay)
    }
    XCTAssertEqual(get?.code, .notInRecording, "a GET does not take a POST's answer")
  }

  func testRecordingReader_refusesABodyThatIsNotBase64() throws {
    let lines = [
      #"{"type":"recording","format":"playhead-session-recording","version":1,"secrets":false,"metadata":{}}"#,
      #"{"type":"open","id":1,"at":0,"url":"https://a/l","range":null,"purpose":"key","body":"%%"}"#,
      #"{"type":"finish","at":0,"exchanges":1,"events":0,"lines":3}"#,
    ]
    let error = playheadError { () throws(PlayheadError) in
      try SessionRecording(data: Data(lines.joined(separator: "\n").utf8))
    }
    XCTAssertEqual(error?.code, .invalidRecording)
    XCTAssertEqual(
      error?.message, "the recording line 2: the request body of transfer 1 is not base64")
  }
}
