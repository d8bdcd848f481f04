import Foundation
import PlayheadAds
import PlayheadCore
import XCTest

/// VMAP playlists through `VMAPParser` and `AdDocument`'s sniffing.
final class VMAPParserTests: XCTestCase {
  static let vmap = """
    <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
      <vmap:AdBreak timeOffset="start" breakType="linear" breakId="pre">
        <vmap:AdSource id="s1" allowMultipleAds="false" followRedirects="true">
          <vmap:VASTAdData><VAST version="3.0"><Ad id="x"><InLine><Impression>https://t/i</Impression></InLine></Ad></VAST></vmap:VASTAdData>
        </vmap:AdSource>
        <vmap:TrackingEvents>
          <vmap:Tracking event="breakStart">https://t/bs</vmap:Tracking>
          <vmap:Tracking event="breakEnd">https://t/be</vmap:Tracking>
          <vmap:Tracking event="error">https://t/err?c=[ERRORCODE]</vmap:Tracking>
        </vmap:TrackingEvents>
        <vmap:Extensions><vmap:Extension type="x"><y/></vmap:Extension></vmap:Extensions>
      </vmap:AdBreak>
      <vmap:AdBreak timeOffset="00:05:00.250" breakType="linear,nonlinear" repeatAfter="00:10:00">
        <vmap:AdSource><AdTagURI templateType="vast3"><![CDATA[ https://ads.example/tag?x=1 ]]></AdTagURI></vmap:AdSource>
      </vmap:AdBreak>
      <vmap:AdBreak timeOffset="50%" breakType="display">
        <vmap:AdSource><vmap:CustomAdData templateType="proprietary"><Foo a="1"/></vmap:CustomAdData></vmap:AdSource>
      </vmap:AdBreak>
      <vmap:AdBreak timeOffset="#2"><vmap:AdSource><vmap:VASTAdData><VideoAdServingTemplate/></vmap:VASTAdData></vmap:AdSource></vmap:AdBreak>
      <vmap:AdBreak timeOffset="soon"/>
      <vmap:AdBreak timeOffset="end"/>
    </vmap:VMAP>
    """

  func testEveryPart_isRead() throws {
    let document = try VMAPParser.parse(Data(Self.vmap.utf8))
    XCTAssertEqual(document.version, "1.0")
    XCTAssertEqual(
      document.adBreaks.map(\.timeOffset.description),
      ["start", "00:05:00.250", "50%", "#2", "end"])
    XCTAssertEqual(document.warnings.count, 1, "the break at 'soon' is dropped")
    let pre = document.adBreaks[0]
    XCTAssertEqual(pre.breakID, "pre")
    XCTAssertEqual(pre.breakType, .linear)
    XCTAssertEqual(pre.adSource?.id, "s1")
    XCTAssertEqual(pre.adSource?.allowMultipleAds, false)
    guard case .vastAdData(let vast)? = pre.adSource?.content else { return XCTFail("inline VAST") }
    XCTAssertEqual(vast.ads.first?.impressions, ["https://t/i"])
    XCTAssertEqual(pre.trackingURLs(for: "breakStart"), ["https://t/bs"])
    XCTAssertEqual(pre.trackingEvents.map(\.event), ["breakStart", "breakEnd", "error"])
    XCTAssertEqual(pre.extensions, [#"<vmap:Extension type="x"><y/></vmap:Extension>"#])

    let mid = document.adBreaks[1]
    XCTAssertEqual(mid.breakType, [.linear, .nonlinear])
    XCTAssertEqual(mid.repeatAfter, MediaTime(value: 600_000, timescale: 1000))
    XCTAssertEqual(mid.adSource?.allowMultipleAds, true, "VMAP default")
    XCTAssertEqual(
      mid.adSource?.content, .adTagURI(uri: "https://ads.example/tag?x=1", templateType: "vast3"))
    XCTAssertEqual(
      document.adBreaks[2].adSource?.content,
      .customAdData(
        templateType: "proprietary",
        xml: #"<vmap:CustomAdData templateType="proprietary"><Foo a="1"/></vmap:CustomAdData>"#))
    guard case .invalidVASTAdData(let error)? = document.adBreaks[3].adSource?.content else {
      return XCTFail("VAST 1 inline is kept as an error")
    }
    XCTAssertEqual(error.code, .versionNotSupported)
    XCTAssertNil(document.adBreaks[4].adSource)
  }

  func testDocumentErrors() {
    func code(_ text: String) -> Int? {
      do {
        _ = try VMAPParser.parse(Data(text.utf8))
        return nil
      } catch {
        return error.code
      }
    }
    XCTAssertEqual(code("<vmap:VMAP><vmap:AdBreak></vmap:VMAPPP>"), VMAPError.parsingError)
    XCTAssertEqual(code("<VAST version='3.0'/>"), VMAPError.schemaError)
    XCTAssertEqual(code("<VMAP version='2.0'/>"), VMAPError.versionNotSupported)
    XCTAssertNil(code("<VMAP version='1.0.1'/>"))
  }

  func testAdDocument_sniffsByRootElement() throws {
    guard case .vmap = try AdDocument.parse(Data(Self.vmap.utf8)) else { return XCTFail("VMAP") }
    guard case .vast = try AdDocument.parse(Data("<VAST version='4.0'/>".utf8)) else {
      return XCTFail("VAST")
    }
    XCTAssertThrowsError(try AdDocument.parse(Data("<html/>".utf8))) { error in
      XCTAssertEqual(
        error as? AdDocumentError,
        .vast(VASTError(.schemaValidation, path: "/html", "the root is <html>, not <VAST>")))
    }
  }
}
