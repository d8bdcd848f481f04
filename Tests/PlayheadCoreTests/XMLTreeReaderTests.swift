import Foundation
import PlayheadCore
import XCTest

/// The one XML reader: the tree it builds, what it refuses and where, and its bounds.
final class XMLTreeReaderTests: XCTestCase {
  private func parse(_ text: String, limits: XMLTreeLimits = XMLTreeLimits()) throws
    -> XMLTreeElement
  {
    try XMLTreeReader.parse(Data(text.utf8), limits: limits)
  }

  private func refusal(_ text: String, limits: XMLTreeLimits = XMLTreeLimits()) -> XMLTreeError? {
    do {
      _ = try XMLTreeReader.parse(Data(text.utf8), limits: limits)
      return nil
    } catch {
      return error
    }
  }

  func testTheTree_localNamesAttributesTrimmedTextCDATAAndLines() throws {
    let root = try parse(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!-- a comment before the root -->
      <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
        <vmap:AdBreak timeOffset='start' xsi:type="x">
          text <![CDATA[ https://a.example/?a=1&b=<2> ]]> more
          <?pi ignored?><!-- inside -->
          <Child/>
        </vmap:AdBreak>
      </vmap:VMAP>
      """)
    XCTAssertEqual(root.name, "VMAP")
    XCTAssertEqual(root.qualifiedName, "vmap:VMAP")
    XCTAssertEqual(root.attributes["xmlns:vmap"], "http://www.iab.net/videosuite/vmap")
    XCTAssertEqual(root.attributes["version"], "1.0")
    XCTAssertEqual(root.line, 3)
    let adBreak = try XCTUnwrap(root.child("AdBreak"))
    XCTAssertEqual(adBreak.attributes, ["timeOffset": "start", "type": "x"])
    XCTAssertEqual(adBreak.text, "text  https://a.example/?a=1&b=<2>  more")
    XCTAssertEqual(adBreak.line, 4)
    XCTAssertEqual(adBreak.children.map(\.name), ["Child"])
    XCTAssertEqual(adBreak.children.first?.line, 7)
  }

  func testReferences_inTextAndAttributes_andAttributeWhiteSpace() throws {
    let root = try parse(
      "<a t=\"x&#10;y\tz&amp;&lt;&gt;&apos;&quot;\">&#x48;&#105; &amp; &#x1F600;</a>")
    XCTAssertEqual(root.attributes["t"], "x\ny z&<>'\"", "a literal tab is a space, &#10; stays")
    XCTAssertEqual(root.text, "Hi & 😀")
  }

  func testUTF8Text_andABOM() throws {
    var data = Data([0xEF, 0xBB, 0xBF])
    data.append(Data("<Titre lang=\"fr\">Publicité 広告</Titre>".utf8))
    let root = try XMLTreeReader.parse(data)
    XCTAssertEqual(root.text, "Publicité 広告")
  }

  func testMalformedInput_isRefusedWithItsLine() {
    let cases: [(String, Int, String)] = [
      ("<a>\n<b>\n</a>", 3, "does not match"),
      ("<a>\n</a>\n<b/>", 3, "after the root"),
      ("<a>\n<b></b>", 2, "ends inside"),
      ("text<a/>", 1, "before the root"),
      ("<a x=1/>", 1, "not quoted"),
      ("<a x=\"1\"y=\"2\"/>", 1, "white space"),
      ("<a x=\"1\" x=\"2\"/>", 1, "twice"),
      ("<a x=\"<\"/>", 1, "'<'"),
      ("<a>&</a>", 1, "reference"),
      ("<a>&#0;</a>", 1, "character reference"),
      ("<a>&#xD800;</a>", 1, "character reference"),
      ("<1a/>", 1, "starts with"),
      ("<a><!-- open </a>", 1, "comment"),
      ("<a><![CDATA[ open </a>", 1, "CDATA"),
      ("</a>", 1, "without a start tag"),
      ("<a/ >", 1, "'/>'"),
      ("<a x:=\"1\"/>", 1, "no local name"),
      ("<a:/>", 1, "no local name"),
      ("<a x:2y=\"1\"/>", 1, "starts with '2'"),
    ]
    for (text, line, words) in cases {
      let error = refusal(text)
      XCTAssertEqual(error?.kind, .malformed, text)
      XCTAssertEqual(error?.line, line, text)
      XCTAssertTrue(
        error?.message.contains(words) ?? false, "\(text): \(String(describing: error))")
    }
  }

  func testDTDsEntitiesAndOtherEncodings_areRefused() {
    XCTAssertEqual(refusal("<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>")?.kind, .doctypeRefused)
    XCTAssertEqual(refusal("<a>&x;</a>")?.kind, .entityRefused, "no entity can be declared")
    XCTAssertEqual(refusal("<a>&nbsp;</a>")?.kind, .entityRefused)
    XCTAssertEqual(
      refusal("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>")?.kind, .unsupportedEncoding)
    XCTAssertEqual(
      (try? XMLTreeReader.parse(Data([0x3C, 0x61, 0xFF, 0x2F, 0x3E]))).map(\.name), nil,
      "invalid UTF-8")
    XCTAssertEqual(refusal("<a>\u{0}</a>")?.kind, .unsupportedEncoding)
    XCTAssertEqual(refusal("  \n ")?.kind, .empty)
  }

  func testMessagesQuotingTheInput_stayOnOneLineAndShort() {
    // Found by the xml fuzz target: an encoding name running over a line break.
    let long = String(repeating: "x", count: 200)
    for text in [
      "<?xml version=\"1.0\" encoding=\"UTF-\nTracking\"?><a/>", "<a>&x\ny;</a>",
      "<a>&#\n1;</a>", "<a \(long)=\"1\" \(long)=\"2\"/>",
    ] {
      let message = refusal(text)?.description ?? ""
      XCTAssertFalse(message.isEmpty, text)
      XCTAssertFalse(message.contains("\n"), message)
      XCTAssertLessThan(message.count, 120, message)
    }
  }

  func testLimits() {
    let deep = String(repeating: "<a>", count: 10) + String(repeating: "</a>", count: 10)
    XCTAssertEqual(refusal(deep, limits: XMLTreeLimits(maxDepth: 9))?.kind, .limitExceeded)
    XCTAssertNil(refusal(deep, limits: XMLTreeLimits(maxDepth: 10)))
    let many = "<r>" + String(repeating: "<b/>", count: 10) + "</r>"
    XCTAssertEqual(refusal(many, limits: XMLTreeLimits(maxElements: 10))?.kind, .limitExceeded)
    XCTAssertEqual(refusal(many, limits: XMLTreeLimits(maxBytes: 20))?.kind, .limitExceeded)
  }

  func testWorkIsLinear_inTheInputsSize() throws {
    // Pathological shapes for a scanner that looks back or ahead: long runs of '<!-' that
    // never close a comment, long attribute lists, long text full of references. A linear
    // reader does the large input in about ten times the small one's work.
    func document(_ n: Int) -> String {
      "<r a=\"" + String(repeating: "&amp;x", count: n) + "\">"
        + String(repeating: "<e k=\"v\" l=\"w\">t&lt;</e>", count: n)
        + String(repeating: "-", count: n) + "</r>"
    }
    let small = Data(document(2_000).utf8)
    let large = Data(document(20_000).utf8)
    func time(_ data: Data) throws -> Double {
      let start = DispatchTime.now().uptimeNanoseconds
      _ = try XMLTreeReader.parse(
        data, limits: XMLTreeLimits(maxBytes: 1 << 24, maxElements: 1 << 20))
      return Double(DispatchTime.now().uptimeNanoseconds - start)
    }
    _ = try time(small)
    let ratio = try time(large) / max(1, try time(small))
    XCTAssertLessThan(ratio, 40, "ten times the input took \(ratio) times as long")
    let root = try XMLTreeReader.parse(
      large, limits: XMLTreeLimits(maxBytes: 1 << 24, maxElements: 1 << 20))
    XCTAssertEqual(root.children.count, 20_000)
  }
}
