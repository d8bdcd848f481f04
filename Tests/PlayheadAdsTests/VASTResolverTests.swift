import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadNet
import PlayheadTesting
import XCTest

/// Wrapper chains resolved over a real HTTP server on 127.0.0.1 through a `DataLoader`:
/// merging, loops, depth, per-hop timeout on a manual clock, empty and missing responses,
/// fallbacks, the origin rule, and VMAP ad tags.
final class VASTResolverTests: XCTestCase {
  private var server: HTTPTestServer!

  override func setUpWithError() throws {
    server = HTTPTestServer()
    try server.start()
    let server = server!
    addTeardownBlock { server.stop() }
  }

  private func serve(_ files: [String: String]) {
    for (path, text) in files { server.setFile(Data(text.utf8), at: path) }
  }

  private func resolver(
    _ configuration: VASTResolverConfiguration = .init(), clock: any Clock = HostClock.shared
  ) -> VASTResolver {
    let stack = DataSourceStack(
      request: RequestConfiguration(timeoutMs: 60_000, retryCount: 0), clock: clock)
    return VASTResolver(
      loader: DataLoader(factory: stack, clock: clock), configuration: configuration)
  }

  static func inline(_ id: String, sequence: Int? = nil) -> String {
    """
    <VAST version="4.1"><Ad id="\(id)"\(sequence.map { " sequence=\"\($0)\"" } ?? "")><InLine>
      <AdSystem>S</AdSystem><AdTitle>T</AdTitle>
      <Impression>https://t.example/imp/\(id)</Impression>
      <Error>https://t.example/err/\(id)?c=[ERRORCODE]</Error>
      <Creatives><Creative><Linear><Duration>00:00:10</Duration>
        <TrackingEvents><Tracking event="start">https://t.example/start/\(id)</Tracking></TrackingEvents>
        <VideoClicks><ClickThrough>https://ad.example/\(id)</ClickThrough><ClickTracking>https://t.example/click/\(id)</ClickTracking></VideoClicks>
        <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">https://cdn.example/\(id).mp4</MediaFile></MediaFiles>
      </Linear></Creative></Creatives>
    </InLine></Ad></VAST>
    """
  }

  static func wrapper(
    _ id: String, to uri: String, attributes: String = "", sequence: Int? = nil
  ) -> String {
    """
    <VAST version="4.1"><Ad id="\(id)"\(sequence.map { " sequence=\"\($0)\"" } ?? "")><Wrapper \(attributes)>
      <AdSystem>W</AdSystem>
      <VASTAdTagURI><![CDATA[\(uri)]]></VASTAdTagURI>
      <Impression>https://t.example/imp/\(id)</Impression>
      <Error>https://t.example/err/\(id)?c=[ERRORCODE]</Error>
      <AdVerifications><Verification vendor="\(id)"><JavaScriptResource>https://v.example/\(id).js</JavaScriptResource></Verification></AdVerifications>
      <Creatives><Creative><Linear>
        <TrackingEvents><Tracking event="start">https://t.example/start/\(id)</Tracking><Tracking event="complete">https://t.example/complete/\(id)</Tracking></TrackingEvents>
        <VideoClicks><ClickTracking>https://t.example/click/\(id)</ClickTracking></VideoClicks>
      </Linear></Creative></Creatives>
    </Wrapper></Ad></VAST>
    """
  }

  func testTwoWrappers_mergeEverythingIntoTheInLineAd() throws {
    serve([
      "/w1.xml": Self.wrapper("w1", to: "sub/w2.xml"),
      "/sub/w2.xml": Self.wrapper("w2", to: server.url("/inline.xml").absoluteString),
      "/inline.xml": Self.inline("in"),
    ])
    let resolution = resolver().resolve(url: server.url("/w1.xml"))
    XCTAssertEqual(resolution.failures, [])
    XCTAssertEqual(resolution.ads.count, 1)
    let resolved = try XCTUnwrap(resolution.ads.first)
    XCTAssertEqual(resolved.ad.id, "in")
    XCTAssertEqual(resolved.wrapperAdIDs, ["w1", "w2"])
    XCTAssertEqual(
      resolved.wrapperChain.map(\.path), ["/w1.xml", "/sub/w2.xml", "/inline.xml"],
      "the relative URI resolves against the wrapper's URL")
    XCTAssertEqual(resolved.sourceURL?.path, "/inline.xml")
    XCTAssertEqual(
      resolved.ad.impressions,
      ["https://t.example/imp/w1", "https://t.example/imp/w2", "https://t.example/imp/in"])
    XCTAssertEqual(resolved.ad.errorURLs.count, 3)
    let linear = try XCTUnwrap(resolved.ad.linear)
    XCTAssertEqual(linear.trackingURLs(for: "start").count, 3)
    XCTAssertEqual(linear.trackingURLs(for: "complete").count, 2)
    XCTAssertEqual(linear.videoClicks?.clickTracking.count, 3)
    XCTAssertEqual(linear.videoClicks?.clickThrough, "https://ad.example/in")
    XCTAssertEqual(resolved.ad.verifications.map(\.vendor), ["w1", "w2"])
    XCTAssertEqual(linear.mediaFiles.count, 1)
  }

  func testLoop_failsWith302_andRequestsEachURLOnce() {
    serve([
      "/a.xml": Self.wrapper("a", to: "b.xml"),
      "/b.xml": Self.wrapper("b", to: "a.xml"),
    ])
    let resolution = resolver().resolve(url: server.url("/a.xml"))
    XCTAssertTrue(resolution.ads.isEmpty)
    XCTAssertEqual(resolution.failures.map(\.code), [.wrapperLimit])
    XCTAssertEqual(resolution.failures.first?.adID, "a")
    XCTAssertEqual(
      resolution.failures.first?.errorURLs,
      ["https://t.example/err/a?c=[ERRORCODE]", "https://t.example/err/b?c=[ERRORCODE]"])
    XCTAssertTrue(resolution.failures.first?.message.contains("loop") ?? false)
    XCTAssertEqual(server.requestCount(for: "/a.xml"), 1)
    XCTAssertEqual(server.requestCount(for: "/b.xml"), 1)
  }

  private func chain(of wrappers: Int) {
    var files = ["/inline.xml": Self.inline("in")]
    for index in 1...wrappers {
      let next = index == wrappers ? "inline.xml" : "w\(index + 1).xml"
      files["/w\(index).xml"] = Self.wrapper("w\(index)", to: next)
    }
    serve(files)
  }

  func testDepth_fiveWrappersResolve_sixFailWith302() {
    chain(of: 5)
    let five = resolver().resolve(url: server.url("/w1.xml"))
    XCTAssertEqual(five.failures, [])
    XCTAssertEqual(five.ads.first?.ad.impressions.count, 6)
    chain(of: 6)
    let six = resolver().resolve(url: server.url("/w1.xml"))
    XCTAssertTrue(six.ads.isEmpty)
    XCTAssertEqual(six.failures.map(\.code), [.wrapperLimit])
    XCTAssertEqual(six.failures.first?.errorURLs.count, 6, "every wrapper's Error URL")
    XCTAssertEqual(server.requestCount(for: "/inline.xml"), 1, "only the five-deep run got there")
    let limited = resolver(.init(maxWrapperDepth: 1)).resolve(url: server.url("/w1.xml"))
    XCTAssertEqual(limited.failures.map(\.code), [.wrapperLimit])
  }

  func testHopThatNeverAnswers_failsWith301_afterTheTimeoutOnTheLoadersClock() throws {
    serve(["/w.xml": Self.wrapper("w", to: "slow.xml")])
    server.setFault(.hang, for: "/slow.xml")
    let clock = ManualClock()
    let resolver = resolver(.init(hopTimeoutMs: 2_000), clock: clock)
    let url = server.url("/w.xml")
    let result = Locked<VASTResolution?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let resolution = resolver.resolve(url: url)
      result.withLock { $0 = resolution }
      done.signal()
    }
    XCTAssertTrue(server.waitForRequests(count: 2), "the hop to slow.xml was sent")
    XCTAssertTrue(clock.waitForBlockedWaits(count: 1), "the stall watch waits on the clock")
    XCTAssertEqual(clock.nextBlockedDeadline, .fromMilliseconds(2_000))
    XCTAssertNil(result.value, "nothing ends before the clock moves")
    clock.advance(by: .fromMilliseconds(2_000))
    XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
    let resolution = try XCTUnwrap(result.value)
    XCTAssertEqual(resolution.failures.map(\.code), [.wrapperTimeout])
    XCTAssertEqual(resolution.failures.first?.errorURLs, ["https://t.example/err/w?c=[ERRORCODE]"])
    XCTAssertTrue(resolution.failures.first?.message.contains("2000 ms") ?? false)
    XCTAssertEqual(clock.now, .fromMilliseconds(2_000))
  }

  func testEmptyResponseAfterAWrapper_is303_withEveryErrorURL_andNoImpression() {
    serve([
      "/w.xml": Self.wrapper("w", to: "empty.xml"),
      "/empty.xml": "<VAST version='4.1'><Error>https://t.example/root-err</Error></VAST>",
    ])
    let resolution = resolver().resolve(url: server.url("/w.xml"))
    XCTAssertTrue(resolution.ads.isEmpty)
    XCTAssertEqual(resolution.failures.map(\.code), [.noAd])
    XCTAssertEqual(
      resolution.failures.first?.errorURLs,
      ["https://t.example/err/w?c=[ERRORCODE]", "https://t.example/root-err"])
  }

  func testEmptyBody_andEmptyFirstResponse_are303() {
    serve([
      "/w.xml": Self.wrapper("w", to: "blank.xml"), "/blank.xml": "",
      "/none.xml": "<VAST version='3.0'/>",
    ])
    XCTAssertEqual(resolver().resolve(url: server.url("/w.xml")).failures.map(\.code), [.noAd])
    let none = resolver().resolve(url: server.url("/none.xml"))
    XCTAssertEqual(none.failures.map(\.code), [.noAd])
    XCTAssertEqual(none.failures.first?.errorURLs, [])
  }

  func testMissingResponse_404_is301() {
    serve(["/w.xml": Self.wrapper("w", to: "gone.xml")])
    let resolution = resolver().resolve(url: server.url("/w.xml"))
    XCTAssertEqual(resolution.failures.map(\.code), [.wrapperTimeout])
    XCTAssertEqual(resolution.failures.first?.wrapperChain.map(\.path), ["/w.xml", "/gone.xml"])
    XCTAssertEqual(resolution.failures.first?.errorURLs.count, 1)
    let first = resolver().resolve(url: server.url("/nothing.xml"))
    XCTAssertEqual(first.failures.map(\.code), [.wrapperTimeout])
    XCTAssertEqual(first.failures.first?.errorURLs, [], "no document, nothing to ping")
  }

  func testUnreadableResponse_givesItsParseCode() {
    serve([
      "/w.xml": Self.wrapper("w", to: "bad.xml"), "/bad.xml": "<VAST version='4.0'><Ad>",
      "/w2.xml": Self.wrapper("w2", to: "old.xml"), "/old.xml": "<VideoAdServingTemplate/>",
    ])
    XCTAssertEqual(
      resolver().resolve(url: server.url("/w.xml")).failures.map(\.code), [.xmlParsing])
    XCTAssertEqual(
      resolver().resolve(url: server.url("/w2.xml")).failures.map(\.code), [.versionNotSupported])
  }

  func testFallbackOnNoAd_replacesThePodAdWithAStandaloneAd() {
    serve([
      "/pod.xml": """
      <VAST version="4.1">
        <Ad id="p1" sequence="1"><Wrapper fallbackOnNoAd="true"><VASTAdTagURI>empty.xml</VASTAdTagURI></Wrapper></Ad>
        <Ad id="p2" sequence="2"><Wrapper><VASTAdTagURI>in2.xml</VASTAdTagURI></Wrapper></Ad>
        <Ad id="s"><InLine><Impression>https://t.example/s</Impression></InLine></Ad>
      </VAST>
      """,
      "/empty.xml": "<VAST version='4.1'/>", "/in2.xml": Self.inline("in2"),
    ])
    let resolution = resolver().resolve(url: server.url("/pod.xml"))
    XCTAssertEqual(resolution.ads.map(\.ad.id), ["s", "in2"])
    XCTAssertEqual(resolution.failures.map(\.code), [.noAd])
    XCTAssertEqual(resolution.fallbackAds, [], "the fallback was used")
    // Without fallbackOnNoAd the pod just loses the ad and the fallback stays a fallback.
    server.setFile(
      Data(
        """
        <VAST version="4.1">
          <Ad id="p1" sequence="1"><Wrapper><VASTAdTagURI>empty.xml</VASTAdTagURI></Wrapper></Ad>
          <Ad id="s"><InLine/></Ad>
        </VAST>
        """.utf8), at: "/pod.xml")
    let strict = resolver().resolve(url: server.url("/pod.xml"))
    XCTAssertEqual(strict.ads.map(\.ad.id), [])
    XCTAssertEqual(strict.fallbackAds.map(\.ad.id), ["s"])
  }

  func testAllowMultipleAds_decidesWhatAWrapperGives() {
    let pod = """
      <VAST version="4.1">
        <Ad id="b" sequence="2"><InLine/></Ad><Ad id="a" sequence="1"><InLine/></Ad><Ad id="s"><InLine/></Ad>
      </VAST>
      """
    serve([
      "/multi.xml": Self.wrapper("m", to: "pod.xml", attributes: #"allowMultipleAds="true""#),
      "/single.xml": Self.wrapper("o", to: "pod.xml"), "/pod.xml": pod,
    ])
    let multi = resolver().resolve(url: server.url("/multi.xml"))
    XCTAssertEqual(multi.ads.map(\.ad.id), ["a", "b"])
    XCTAssertEqual(multi.fallbackAds.map(\.ad.id), ["s"])
    XCTAssertEqual(
      multi.ads.map { $0.ad.impressions.count }, [1, 1], "the wrapper's impression in each")
    XCTAssertEqual(resolver().resolve(url: server.url("/single.xml")).ads.map(\.ad.id), ["s"])
    XCTAssertEqual(
      resolver(.init(singleAdSelection: .firstInPlayOrder)).resolve(url: server.url("/single.xml"))
        .ads.map(\.ad.id), ["a"])
  }

  func testFollowAdditionalWrappersFalse_refusesTheNextWrapper_with300() {
    serve([
      "/w1.xml": Self.wrapper("w1", to: "w2.xml", attributes: #"followAdditionalWrappers="false""#),
      "/w2.xml": Self.wrapper("w2", to: "in.xml"), "/in.xml": Self.inline("in"),
    ])
    let resolution = resolver().resolve(url: server.url("/w1.xml"))
    XCTAssertEqual(resolution.failures.map(\.code), [.wrapperGeneral])
    XCTAssertEqual(server.requestCount(for: "/in.xml"), 0)
  }

  func testNetworkResponse_mayNotLeadToALocalFile() throws {
    let secret = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-vast-\(UUID().uuidString).xml")
    try Data(Self.inline("local").utf8).write(to: secret)
    defer { try? FileManager.default.removeItem(at: secret) }
    serve(["/w.xml": Self.wrapper("w", to: secret.absoluteString)])
    let resolution = resolver().resolve(url: server.url("/w.xml"))
    XCTAssertTrue(resolution.ads.isEmpty)
    XCTAssertEqual(resolution.failures.map(\.code), [.wrapperGeneral])
    XCTAssertTrue(resolution.failures.first?.message.contains("file") ?? false)
    // A local document may reference a local one.
    let local = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-vast-w-\(UUID().uuidString).xml")
    try Data(Self.wrapper("lw", to: secret.lastPathComponent).utf8).write(to: local)
    defer { try? FileManager.default.removeItem(at: local) }
    XCTAssertEqual(resolver().resolve(url: local).ads.map(\.ad.id), ["local"])
  }

  func testVMAPAdTags_resolveRelativeToTheVMAP_honouringFollowRedirects() throws {
    serve([
      "/ads/vmap.xml": """
      <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
        <vmap:AdBreak timeOffset="start" breakType="linear"><vmap:AdSource><vmap:AdTagURI templateType="vast4">w.xml</vmap:AdTagURI></vmap:AdSource></vmap:AdBreak>
        <vmap:AdBreak timeOffset="00:00:10" breakType="linear"><vmap:AdSource followRedirects="false"><vmap:AdTagURI templateType="vast4">w.xml</vmap:AdTagURI></vmap:AdSource></vmap:AdBreak>
        <vmap:AdBreak timeOffset="end" breakType="linear"><vmap:AdSource><vmap:AdTagURI templateType="vmap1">x.xml</vmap:AdTagURI></vmap:AdSource></vmap:AdBreak>
      </vmap:VMAP>
      """,
      "/ads/w.xml": Self.wrapper("w", to: "in.xml"), "/ads/in.xml": Self.inline("in"),
    ])
    guard case .vmap(let vmap) = try resolver().resolveAdTag(server.url("/ads/vmap.xml")) else {
      return XCTFail("a VMAP")
    }
    XCTAssertEqual(vmap.breaks.count, 3)
    XCTAssertEqual(vmap.breaks[0].resolution?.ads.map(\.ad.id), ["in"])
    XCTAssertEqual(vmap.breaks[0].resolution?.ads.first?.ad.impressions.count, 2)
    XCTAssertEqual(vmap.breaks[1].resolution?.failures.map(\.code), [.wrapperLimit])
    XCTAssertEqual(vmap.breaks[2].sourceError?.code, VMAPError.templateNotSupported)
    XCTAssertThrowsError(try resolver().resolveAdTag(server.url("/ads/none.xml"))) { error in
      XCTAssertEqual((error as? AdTagError)?.vastCode, .wrapperTimeout)
    }
    server.setFile(Data(), at: "/ads/blank.xml")
    guard case .vast(let blank) = try resolver().resolveAdTag(server.url("/ads/blank.xml")) else {
      return XCTFail("an empty body is an empty VAST response")
    }
    XCTAssertEqual(blank.failures.map(\.code), [.noAd])
    server.setFile(Data("<vmap:VMAP version='1.0'><x></vmap:VMAP>".utf8), at: "/ads/bad.xml")
    XCTAssertThrowsError(try resolver().resolveAdTag(server.url("/ads/bad.xml"))) { error in
      XCTAssertEqual(
        (error as? AdTagError)?.vmapCode, VMAPError.parsingError, "told by its first tag")
    }
    server.setFile(Data("<VMAP version='2.0'/>".utf8), at: "/ads/v2.xml")
    XCTAssertThrowsError(try resolver().resolveAdTag(server.url("/ads/v2.xml"))) { error in
      XCTAssertEqual((error as? AdTagError)?.vmapCode, VMAPError.versionNotSupported)
    }
  }
}
