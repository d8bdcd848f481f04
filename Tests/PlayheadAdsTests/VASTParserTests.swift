import Foundation
import PlayheadAds
import PlayheadCore
import XCTest

/// The VAST model through `VASTParser`: every part of an InLine ad, wrappers, pods,
/// and the document errors with their IAB codes.
final class VASTParserTests: XCTestCase {
  private func parse(_ text: String) throws -> VASTDocument {
    try VASTParser.parse(Data(text.utf8))
  }

  private func code(_ text: String) -> VASTErrorCode? {
    do {
      _ = try VASTParser.parse(Data(text.utf8))
      return nil
    } catch {
      return error.code
    }
  }

  static let inline = """
    <VAST version="4.2" xmlns="http://www.iab.com/VAST">
      <Error>https://e.example/root?c=[ERRORCODE]</Error>
      <Ad id="a1" sequence="2" adType="video">
        <InLine>
          <AdSystem version="1">Sys</AdSystem>
          <AdTitle>Title</AdTitle>
          <Impression id="i"><![CDATA[ https://t.example/imp ]]></Impression>
          <Impression></Impression>
          <Error>https://e.example/ad?c=[ERRORCODE]</Error>
          <AdVerifications>
            <Verification vendor="v.example">
              <JavaScriptResource apiFramework="omid">https://v.example/v.js</JavaScriptResource>
              <VerificationParameters>p=1</VerificationParameters>
              <TrackingEvents><Tracking event="verificationNotExecuted">https://v.example/ne</Tracking></TrackingEvents>
            </Verification>
          </AdVerifications>
          <Creatives>
            <Creative id="c1" sequence="1" adId="ad-7">
              <UniversalAdId idRegistry="ad-id.org">UID-1</UniversalAdId>
              <Linear skipoffset="25%">
                <Duration>00:00:30.500</Duration>
                <TrackingEvents>
                  <Tracking event="start">https://t.example/start</Tracking>
                  <Tracking event="progress" offset="00:00:10">https://t.example/p10</Tracking>
                  <Tracking event="progress" offset="50%">https://t.example/p50</Tracking>
                  <Tracking event="start" offset="09:15:23">https://t.example/start2</Tracking>
                </TrackingEvents>
                <AdParameters xmlEncoded="true">k=v</AdParameters>
                <VideoClicks>
                  <ClickThrough>https://ad.example/landing</ClickThrough>
                  <ClickTracking>https://t.example/click</ClickTracking>
                  <CustomClick>https://t.example/custom</CustomClick>
                </VideoClicks>
                <MediaFiles>
                  <MediaFile delivery="progressive" type="video/mp4" width="1280" height="720" bitrate="2000" minBitrate="1500" maxBitrate="2500" codec="avc1.4d401f" scalable="true" maintainAspectRatio="false" id="m1">https://cdn.example/720.mp4</MediaFile>
                  <MediaFile delivery="streaming" type="application/x-mpegURL" width="640.0" height="360">https://cdn.example/a.m3u8</MediaFile>
                  <MediaFile type="application/javascript" apiFramework="VPAID">https://cdn.example/v.js</MediaFile>
                  <Mezzanine delivery="progressive" type="video/mp4" width="1920" height="1080">https://cdn.example/mezz.mp4</Mezzanine>
                  <InteractiveCreativeFile type="text/html" apiFramework="SIMID">https://cdn.example/simid.html</InteractiveCreativeFile>
                </MediaFiles>
                <Icons>
                  <Icon program="AdChoices" width="20" height="20" xPosition="right" yPosition="top" duration="00:00:05">
                    <StaticResource creativeType="image/png">https://cdn.example/i.png</StaticResource>
                    <IconClicks><IconClickThrough>https://ad.example/why</IconClickThrough></IconClicks>
                    <IconViewTracking>https://t.example/iv</IconViewTracking>
                  </Icon>
                </Icons>
              </Linear>
            </Creative>
            <Creative>
              <CompanionAds required="any">
                <Companion width="300" height="250">
                  <StaticResource creativeType="image/jpeg">https://cdn.example/c.jpg</StaticResource>
                  <CompanionClickThrough>https://ad.example/c</CompanionClickThrough>
                  <TrackingEvents><Tracking event="creativeView">https://t.example/cv</Tracking></TrackingEvents>
                </Companion>
                <Companion width="728" height="90"><IFrameResource>https://cdn.example/f.html</IFrameResource></Companion>
                <Companion><HTMLResource><![CDATA[<b>hi</b>]]></HTMLResource></Companion>
              </CompanionAds>
            </Creative>
            <Creative>
              <NonLinearAds>
                <TrackingEvents><Tracking event="acceptInvitation">https://t.example/ai</Tracking></TrackingEvents>
                <NonLinear width="300" height="50" minSuggestedDuration="00:00:05">
                  <StaticResource creativeType="image/png">https://cdn.example/o.png</StaticResource>
                  <NonLinearClickThrough>https://ad.example/o</NonLinearClickThrough>
                  <NonLinearClickTracking>https://t.example/oc</NonLinearClickTracking>
                </NonLinear>
              </NonLinearAds>
            </Creative>
          </Creatives>
          <Extensions>
            <Extension type="waterfall" fallback_index="0"><Custom a="1">x</Custom></Extension>
          </Extensions>
        </InLine>
      </Ad>
    </VAST>
    """

  func testText_isTrimmedOfXMLSpaceOnly_keepingCharactersBeyondASCII() throws {
    let document = try parse(
      """
      <VAST version="4.0"><Ad id=" a1 "><InLine><AdSystem>\t s\n</AdSystem>
      <AdTitle>
        Café ✓ Ünïcode
      </AdTitle><Impression><![CDATA[  https://t.example/i?x=é  ]]></Impression>
      <Creatives></Creatives></InLine></Ad></VAST>
      """)
    let ad = try XCTUnwrap(document.ads.first)
    XCTAssertEqual(ad.adTitle, "Café ✓ Ünïcode")
    XCTAssertEqual(ad.adSystem, "s")
    XCTAssertEqual(ad.id, "a1")
    XCTAssertEqual(ad.impressions, ["https://t.example/i?x=é"])
  }

  func testInLine_everyPartIsRead() throws {
    let document = try parse(Self.inline)
    XCTAssertEqual(document.version, "4.2")
    XCTAssertEqual(document.errorURLs, ["https://e.example/root?c=[ERRORCODE]"])
    let ad = try XCTUnwrap(document.ads.first)
    XCTAssertEqual(ad.id, "a1")
    XCTAssertEqual(ad.sequence, 2)
    XCTAssertEqual(ad.adType, "video")
    XCTAssertFalse(ad.isWrapper)
    XCTAssertEqual(ad.adSystem, "Sys")
    XCTAssertEqual(ad.adTitle, "Title")
    XCTAssertEqual(ad.impressions, ["https://t.example/imp"], "CDATA trimmed, empty dropped")
    XCTAssertEqual(ad.errorURLs.count, 1)
    XCTAssertEqual(ad.verifications.first?.vendor, "v.example")
    XCTAssertEqual(ad.verifications.first?.javaScriptResources, ["https://v.example/v.js"])
    XCTAssertEqual(ad.verifications.first?.parameters, "p=1")
    XCTAssertEqual(ad.verifications.first?.trackingEvents.first?.event, "verificationNotExecuted")
    XCTAssertEqual(
      ad.extensions,
      [#"<Extension fallback_index="0" type="waterfall"><Custom a="1">x</Custom></Extension>"#])

    let creative = ad.creatives[0]
    XCTAssertEqual(creative.id, "c1")
    XCTAssertEqual(creative.sequence, 1)
    XCTAssertEqual(creative.adID, "ad-7")
    XCTAssertEqual(
      creative.universalAdIDs, [VASTUniversalAdID(idRegistry: "ad-id.org", value: "UID-1")])
    let linear = try XCTUnwrap(ad.linear)
    XCTAssertEqual(linear.duration, MediaTime(value: 30_500, timescale: 1000))
    XCTAssertEqual(linear.skipOffset, .percent(25))
    XCTAssertEqual(linear.trackingEvents.map(\.event), ["start", "progress", "progress", "start"])
    XCTAssertEqual(
      linear.trackingEvents[1].offset, .time(MediaTime(value: 10_000, timescale: 1000)))
    XCTAssertEqual(linear.trackingEvents[2].offset, .percent(50))
    XCTAssertNil(linear.trackingEvents[3].offset, "an offset on a non-progress event is ignored")
    XCTAssertEqual(linear.trackingURLs(for: "start").count, 2)
    XCTAssertEqual(linear.adParameters, VASTAdParameters(value: "k=v", xmlEncoded: true))
    XCTAssertEqual(linear.videoClicks?.clickThrough, "https://ad.example/landing")
    XCTAssertEqual(linear.videoClicks?.clickTracking, ["https://t.example/click"])
    XCTAssertEqual(linear.videoClicks?.customClicks, ["https://t.example/custom"])
    XCTAssertEqual(linear.mediaFiles.count, 3, "Mezzanine and interactive files are apart")
    XCTAssertEqual(
      linear.mediaFiles[0],
      VASTMediaFile(
        url: "https://cdn.example/720.mp4", id: "m1", delivery: "progressive", type: "video/mp4",
        width: 1280, height: 720, bitrateKbps: 2000, minBitrateKbps: 1500, maxBitrateKbps: 2500,
        codec: "avc1.4d401f", scalable: true, maintainAspectRatio: false))
    XCTAssertEqual(linear.mediaFiles[1].width, 640, "640.0 read leniently")
    XCTAssertTrue(linear.mediaFiles[2].needsJavaScript)
    XCTAssertEqual(linear.mezzanines.first?.height, 1080)
    XCTAssertEqual(linear.interactiveCreativeFiles.first?.apiFramework, "SIMID")
    XCTAssertEqual(linear.icons.first?.program, "AdChoices")
    XCTAssertEqual(linear.icons.first?.duration, MediaTime(value: 5_000, timescale: 1000))
    XCTAssertEqual(linear.icons.first?.clickThrough, "https://ad.example/why")
    XCTAssertEqual(linear.icons.first?.viewTracking, ["https://t.example/iv"])

    XCTAssertEqual(ad.companions.count, 3)
    XCTAssertEqual(
      ad.companions[0].resources,
      [.staticResource(url: "https://cdn.example/c.jpg", creativeType: "image/jpeg")])
    XCTAssertEqual(ad.companions[0].trackingEvents.first?.event, "creativeView")
    XCTAssertEqual(ad.companions[1].resources, [.iframe(url: "https://cdn.example/f.html")])
    XCTAssertEqual(ad.companions[2].resources, [.html("<b>hi</b>")])
    XCTAssertEqual(ad.creatives[1].companionAds?.required, "any")
    XCTAssertEqual(ad.nonLinears.first?.clickThrough, "https://ad.example/o")
    XCTAssertEqual(ad.nonLinears.first?.clickTracking, ["https://t.example/oc"])
    XCTAssertEqual(ad.creatives[2].nonLinearAds?.trackingEvents.first?.event, "acceptInvitation")
  }

  func testMediaSelection_prefersTheTargetHeight_refusesJavaScript() throws {
    let linear = try XCTUnwrap(try parse(Self.inline).ads.first?.linear)
    XCTAssertEqual(try VASTMediaSelection(targetHeight: 360).choose(from: linear).get().height, 360)
    XCTAssertEqual(try VASTMediaSelection().choose(from: linear).get().height, 720)
    let vpaidOnly = VASTLinear(mediaFiles: [linear.mediaFiles[2]])
    guard case .failure(let failure) = VASTMediaSelection().choose(from: vpaidOnly) else {
      return XCTFail("VPAID only must fail")
    }
    XCTAssertEqual(failure.code, .unsupportedMedia)
  }

  func testWrapper_attributesAndLegacyTag() throws {
    let document = try parse(
      """
      <VAST version="4.0">
        <Ad id="w"><Wrapper followAdditionalWrappers="false" allowMultipleAds="true" fallbackOnNoAd="true">
          <VASTAdTagURI><![CDATA[ next.xml ]]></VASTAdTagURI></Wrapper></Ad>
        <Ad id="legacy"><Wrapper><VASTAdTagURL><URL>old.xml</URL></VASTAdTagURL></Wrapper></Ad>
        <Ad id="broken"><Wrapper><Impression>x</Impression></Wrapper></Ad>
        <Ad id="empty"></Ad>
      </VAST>
      """)
    XCTAssertEqual(document.ads.map(\.id), ["w", "legacy"])
    XCTAssertEqual(
      document.ads[0].wrapper,
      VASTWrapper(
        adTagURI: "next.xml", followAdditionalWrappers: false, allowMultipleAds: true,
        fallbackOnNoAd: true))
    XCTAssertEqual(document.ads[1].wrapper?.adTagURI, "old.xml")
    XCTAssertEqual(document.ads[1].wrapper?.isLegacyTag, true)
    XCTAssertEqual(document.ads[1].wrapper?.allowMultipleAds, false, "VAST 4 default")
    XCTAssertEqual(document.ads[1].wrapper?.followAdditionalWrappers, true)
    XCTAssertEqual(document.warnings.count, 3, "\(document.warnings)")
  }

  func testPod_ordersBySequence_standaloneApart() throws {
    let document = try parse(
      """
      <VAST version="3.0">
        <Ad id="c" sequence="3"><InLine/></Ad>
        <Ad id="s1"><InLine/></Ad>
        <Ad id="a" sequence="1"><InLine/></Ad>
        <Ad id="b" sequence="2"><InLine/></Ad>
        <Ad id="s2" sequence="x"><InLine/></Ad>
      </VAST>
      """)
    XCTAssertEqual(document.podAds.map(\.id), ["a", "b", "c"])
    XCTAssertEqual(document.standaloneAds.map(\.id), ["s1", "s2"], "a bad sequence is none")
  }

  func testDocumentErrors_carryTheirIABCodes() {
    XCTAssertEqual(code("not xml at all"), .xmlParsing)
    XCTAssertEqual(code("<VAST version='3.0'><Ad></VAST>"), .xmlParsing)
    XCTAssertEqual(code("<VMAP version='1.0'/>"), .schemaValidation)
    XCTAssertEqual(code("<VideoAdServingTemplate/>"), .versionNotSupported)
    XCTAssertEqual(code("<VAST version='1.0'/>"), .versionNotSupported)
    XCTAssertEqual(code("<VAST version='5.0'/>"), .versionNotSupported)
    XCTAssertEqual(code("<VAST version='four'/>"), .versionNotSupported)
    XCTAssertNil(code("<VAST version='2.0'/>"))
    XCTAssertNil(code("<VAST version='4.3'/>"))
    XCTAssertNil(code("<VAST/>"), "a missing version is accepted")
  }

  func testEmptyVAST_isADocumentWithNoAd() throws {
    let document = try parse(
      "<VAST version='4.1'><Error>https://e.example/[ERRORCODE]</Error></VAST>")
    XCTAssertTrue(document.isEmpty)
    XCTAssertEqual(document.errorURLs.count, 1)
  }

  func testErrorCodes_listEveryIABCode() {
    XCTAssertEqual(
      VASTErrorCode.allKnown.map(\.rawValue),
      [
        100, 101, 102, 200, 201, 202, 203, 204, 205, 206, 300, 301, 302, 303, 304, 400, 401, 402,
        403, 405, 406, 407, 408, 409, 410, 500, 501, 502, 503, 600, 601, 602, 603, 604, 900, 901,
        902,
      ])
    XCTAssertEqual(VASTErrorCode.noAd.description, "303 (no ad in the VAST response)")
    XCTAssertEqual(VASTErrorCode(404).meaning, "unknown error code")
  }
}
