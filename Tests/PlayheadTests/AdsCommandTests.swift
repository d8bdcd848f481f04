import Foundation
import PlayheadTestSupport
import PlayheadTesting
import XCTest

/// `playhead ads` run as a subprocess on VAST and VMAP documents served by the local test
/// server (a wrapper chain) or written to a temporary folder.
final class AdsCommandTests: XCTestCase {
  private var server: HTTPTestServer!

  override func setUpWithError() throws {
    server = HTTPTestServer(files: [
      "/vmap.xml": Data(Self.vmap.utf8), "/wrapper.xml": Data(Self.wrapper.utf8),
      "/inline.xml": Data(Self.inline.utf8), "/empty.xml": Data("<VAST version='4.0'/>".utf8),
    ])
    try server.start()
    let server = server!
    addTeardownBlock { server.stop() }
  }

  static let vmap = """
    <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
      <vmap:AdBreak timeOffset="start" breakType="linear" breakId="pre">
        <vmap:AdSource><vmap:AdTagURI templateType="vast4">wrapper.xml</vmap:AdTagURI></vmap:AdSource>
        <vmap:TrackingEvents><vmap:Tracking event="breakStart">https://t.example/bs</vmap:Tracking></vmap:TrackingEvents>
      </vmap:AdBreak>
      <vmap:AdBreak timeOffset="00:00:30.000" breakType="linear" breakId="mid">
        <vmap:AdSource><vmap:AdTagURI templateType="vast4">empty.xml</vmap:AdTagURI></vmap:AdSource>
      </vmap:AdBreak>
    </vmap:VMAP>
    """

  static let wrapper = """
    <VAST version="4.1"><Ad id="w" sequence="1"><Wrapper><VASTAdTagURI>inline.xml</VASTAdTagURI>
      <Impression>https://t.example/wi</Impression><Error>https://t.example/we</Error>
      <Creatives><Creative><Linear><TrackingEvents><Tracking event="start">https://t.example/ws</Tracking></TrackingEvents></Linear></Creative></Creatives>
    </Wrapper></Ad></VAST>
    """

  static let inline = """
    <VAST version="4.1"><Ad id="in"><InLine><AdSystem>S</AdSystem><AdTitle>Spot</AdTitle>
      <Impression>https://t.example/ii</Impression>
      <Creatives><Creative><Linear skipoffset="00:00:05">
        <Duration>00:00:15.500</Duration>
        <TrackingEvents><Tracking event="start">https://t.example/s</Tracking><Tracking event="complete">https://t.example/c</Tracking></TrackingEvents>
        <MediaFiles>
          <MediaFile delivery="progressive" type="application/javascript" apiFramework="VPAID">https://cdn.example/v.js</MediaFile>
          <MediaFile delivery="progressive" type="video/mp4" width="1280" height="720">https://cdn.example/720.mp4</MediaFile>
        </MediaFiles>
      </Linear></Creative></Creatives>
    </InLine></Ad></VAST>
    """

  func testText_printsBreaksAdsMediaTrackingAndFailures() throws {
    let result = try CLIRunner.run(["ads", server.url("/vmap.xml").absoluteString])
    assertStatus(result, 0)
    let out = result.stdout
    XCTAssertTrue(out.contains("VMAP 1.0"), out)
    XCTAssertTrue(out.contains("breaks           2"), out)
    XCTAssertTrue(out.contains("break 1  start  linear  id pre  ad tag (vast4) wrapper.xml"), out)
    XCTAssertTrue(out.contains("ad 1  id in  seq 1  \"Spot\""), out)
    XCTAssertTrue(out.contains("duration 00:00:15.500  skip at 00:00:05.000"), out)
    XCTAssertTrue(out.contains("media   video/mp4 1280x720  https://cdn.example/720.mp4"), out)
    XCTAssertTrue(out.contains("tracking start 2, complete 1"), "the wrapper start merged: \(out)")
    XCTAssertTrue(out.contains("impressions 2"), out)
    XCTAssertTrue(out.contains("break 2  00:00:30.000"), out)
    XCTAssertTrue(out.contains("error 303 (no ad in the VAST response)"), out)
  }

  func testJSON_givesTheResolvedChain() throws {
    let result = try CLIRunner.run(["ads", "--json", server.url("/vmap.xml").absoluteString])
    assertStatus(result, 0)
    let object = try XCTUnwrap(result.jsonLines().first)
    XCTAssertEqual(object["kind"] as? String, "vmap")
    let breaks = try XCTUnwrap(object["breaks"] as? [[String: Any]])
    XCTAssertEqual(breaks.map { $0["timeOffset"] as? String }, ["start", "00:00:30.000"])
    XCTAssertEqual(breaks[1]["offsetSeconds"] as? Double, 30)
    let ad = try XCTUnwrap((breaks[0]["ads"] as? [[String: Any]])?.first)
    XCTAssertEqual(ad["id"] as? String, "in")
    XCTAssertEqual(ad["sequence"] as? Int, 1, "the wrapper's place in the pod")
    XCTAssertEqual(ad["duration"] as? Double, 15.5)
    XCTAssertEqual(ad["skipOffsetSeconds"] as? Double, 5)
    XCTAssertEqual(ad["impressions"] as? Int, 2)
    XCTAssertEqual((ad["tracking"] as? [String: Int])?["start"], 2)
    XCTAssertEqual((ad["mediaFile"] as? [String: Any])?["type"] as? String, "video/mp4")
    XCTAssertEqual((ad["chain"] as? [String])?.count, 2)
    let failure = try XCTUnwrap((breaks[1]["failures"] as? [[String: Any]])?.first)
    XCTAssertEqual(failure["code"] as? Int, 303)
  }

  func testWrapperLimit_andTimeoutOptions() throws {
    let limited = try CLIRunner.run([
      "ads", "--max-wrappers", "0", server.url("/wrapper.xml").absoluteString,
    ])
    assertStatus(limited, 0)
    XCTAssertTrue(limited.stdout.contains("error 302 (wrapper limit reached)"), limited.stdout)
    XCTAssertTrue(limited.stdout.contains("[1 error URL(s)]"), limited.stdout)
    server.setFault(.hang, for: "/inline.xml")
    let slow = try CLIRunner.run([
      "ads", "--timeout-ms", "300", server.url("/wrapper.xml").absoluteString,
    ])
    assertStatus(slow, 0)
    XCTAssertTrue(slow.stdout.contains("error 301"), slow.stdout)
  }

  func testDocumentErrors_exitNonZeroWithAClearMessage() throws {
    let folder = try makeTemporaryDirectory()
    let notXML = folder.appendingPathComponent("bad.xml")
    try Data("{ vast: null }".utf8).write(to: notXML)
    let bad = try CLIRunner.run(["ads", notXML.path])
    assertStatus(bad, 1)
    XCTAssertTrue(bad.stderr.contains("not a VAST or VMAP document: VAST error 100"), bad.stderr)
    let old = folder.appendingPathComponent("old.xml")
    try Data("<VideoAdServingTemplate/>".utf8).write(to: old)
    let oldResult = try CLIRunner.run(["ads", old.path])
    assertStatus(oldResult, 1)
    XCTAssertTrue(oldResult.stderr.contains("VAST error 102"), oldResult.stderr)
    let missing = try CLIRunner.run(["ads", server.url("/nothing.xml").absoluteString])
    assertStatus(missing, 3)
    XCTAssertTrue(missing.stderr.contains("cannot load the ad document"), missing.stderr)
    assertStatus(try CLIRunner.run(["ads"]), 2)
    assertStatus(try CLIRunner.run(["ads", "--max-wrappers", "x", old.path]), 2)
  }

  func testHelp_isListed() throws {
    let help = try CLIRunner.run(["--help"])
    XCTAssertTrue(help.stdout.contains("ads        Resolve a VAST or VMAP"), help.stdout)
    let adsHelp = try CLIRunner.run(["ads", "--help"])
    assertStatus(adsHelp, 0)
    XCTAssertTrue(adsHelp.stdout.contains("--max-wrappers N"), adsHelp.stdout)
  }
}
