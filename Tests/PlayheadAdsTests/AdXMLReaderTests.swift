import Foundation
import PlayheadAds
import XCTest

/// The hardened XML reader: refused DTDs and entities, limits, prefixes, CDATA, malformed
/// input.
final class AdXMLReaderTests: XCTestCase {
  private func parse(_ text: String, limits: AdXMLLimits = .default) throws(AdXMLError)
    -> AdXMLElement
  {
    try AdXMLReader.parse(Data(text.utf8), limits: limits)
  }

  private func error(_ text: String, limits: AdXMLLimits = .default) -> AdXMLError? {
    do {
      _ = try parse(text, limits: limits)
      return nil
    } catch {
      return error
    }
  }

  func testBillionLaughs_isRefusedBeforeParsing() {
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE lolz [
        <!ENTITY lol "lol">
        <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
        <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
      ]>
      <VAST version="3.0"><Error>&lol3;</Error></VAST>
      """
    let refused = error(text)
    XCTAssertEqual(refused?.kind, .doctypeRefused)
    XCTAssertEqual(refused?.line, 2)
  }

  func testExternalEntity_isRefused_andNoFileIsRead() throws {
    let secret = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-xxe-\(UUID().uuidString).txt")
    try Data("TOP-SECRET-CONTENT".utf8).write(to: secret)
    defer { try? FileManager.default.removeItem(at: secret) }
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE VAST [<!ENTITY xxe SYSTEM "\(secret.absoluteString)">]>
      <VAST version="3.0"><Error>&xxe;</Error></VAST>
      """
    let refused = error(text)
    XCTAssertEqual(refused?.kind, .doctypeRefused)
    XCTAssertFalse(refused?.message.contains("TOP-SECRET") ?? true)
    // Through the VAST parser the refusal is error 100.
    XCTAssertThrowsError(try VASTParser.parse(Data(text.utf8))) { error in
      XCTAssertEqual((error as? VASTError)?.code, .xmlParsing)
      XCTAssertEqual((error as? VASTError)?.xmlError?.kind, .doctypeRefused)
    }
  }

  func testDeclarations_inAnyCase_orWithoutDoctype_areRefused() {
    XCTAssertEqual(error("<!doctype x><x/>")?.kind, .doctypeRefused)
    XCTAssertEqual(error("<x><!ENTITY a 'b'></x>")?.kind, .entityRefused)
    XCTAssertEqual(error("<x>\n\n<!eNtItY a 'b'></x>")?.line, 3)
  }

  func testDepthLimit_allowsTheLimit_refusesOneMore() throws {
    func nested(_ depth: Int) -> String {
      String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
    }
    XCTAssertNoThrow(try parse(nested(64)))
    let refused = error(nested(65))
    XCTAssertEqual(refused?.kind, .limitExceeded)
    XCTAssertEqual(error(nested(11), limits: AdXMLLimits(maxDepth: 10))?.kind, .limitExceeded)
  }

  func testSizeAndElementLimits() {
    let big = "<VAST>" + String(repeating: " ", count: 2 << 20) + "</VAST>"
    XCTAssertEqual(error(big)?.kind, .limitExceeded)
    XCTAssertEqual(error(big)?.line, 0)
    let many = "<r>" + String(repeating: "<e/>", count: 11) + "</r>"
    XCTAssertEqual(error(many, limits: AdXMLLimits(maxElements: 11))?.kind, .limitExceeded)
    XCTAssertNoThrow(try parse(many, limits: AdXMLLimits(maxElements: 12)))
  }

  func testPrefixes_areStripped_evenUndeclared() throws {
    let root = try parse(
      """
      <vmap:VMAP xmlns:vmap="http://www.iab.net/vmap-1.0" version="1.0">
        <vmap:AdBreak xsi:type="x" timeOffset="start"><AdSource/></vmap:AdBreak>
        <other:AdBreak timeOffset="end"/>
      </vmap:VMAP>
      """)
    XCTAssertEqual(root.name, "VMAP")
    XCTAssertEqual(root.qualifiedName, "vmap:VMAP")
    XCTAssertEqual(root.children("AdBreak").count, 2)
    XCTAssertEqual(root.children.first?.attribute("type"), "x")
    XCTAssertEqual(root.children.first?.attribute("timeOffset"), "start")
    XCTAssertNotNil(root.children.first?.child("AdSource"))
    XCTAssertEqual(root.attributes["xmlns:vmap"], "http://www.iab.net/vmap-1.0")
  }

  func testDefaultNamespace_changesNothing() throws {
    let root = try parse(
      #"<VAST xmlns="http://www.iab.com/VAST" version="4.0"><Ad id="1"/></VAST>"#)
    XCTAssertEqual(root.child("Ad")?.attribute("id"), "1")
  }

  func testText_joinsCDATA_andTrims() throws {
    let root = try parse("<a>\n  <![CDATA[\n https://x.example/?a=1&b=2 \n]]>\n</a>")
    XCTAssertEqual(root.text, "https://x.example/?a=1&b=2")
    XCTAssertEqual(try parse("<a>x &amp; y</a>").text, "x & y")
  }

  func testMalformed_andNotXML_areErrors() {
    XCTAssertEqual(error("<a><b></a>")?.kind, .malformed, "mismatched tags")
    XCTAssertEqual(error("{ vast: null }")?.kind, .malformed)
    XCTAssertEqual(error("<a>")?.kind, .malformed, "unclosed")
    XCTAssertEqual(error("<a/>trailing")?.kind, .malformed)
    XCTAssertEqual(error("   \n ")?.kind, .empty)
    XCTAssertEqual(error("")?.kind, .empty)
  }

  func testUTF16_isRefused() {
    var data = Data([0xFF, 0xFE])
    data.append("<a/>".data(using: .utf16LittleEndian)!)
    XCTAssertThrowsError(try AdXMLReader.parse(data)) { error in
      XCTAssertEqual((error as? AdXMLError)?.kind, .unsupportedEncoding)
    }
  }

  func testSerialization_escapesAndKeepsPrefixes() throws {
    let root = try parse(#"<x:E b="2" a="&quot;q&quot;"><![CDATA[1 < 2]]><c/></x:E>"#)
    XCTAssertEqual(root.xmlString, #"<x:E a="&quot;q&quot;" b="2">1 &lt; 2<c/></x:E>"#)
  }

  func testSerialization_readsBackTheSameTree() throws {
    // Found by the xml fuzz target: '&' before a combining mark is one Character, and an
    // attribute's tab must stay a tab.
    let root = try parse("<a t=\"x&#9;y&#10;z\">Seed &amp;\u{0592}ore</a>")
    let again = try AdXMLReader.parse(Data(root.xmlString.utf8))
    XCTAssertEqual(again.text, root.text)
    XCTAssertEqual(again.attributes, root.attributes)
    XCTAssertEqual(root.attributes["t"], "x\ty\nz")
  }
}
