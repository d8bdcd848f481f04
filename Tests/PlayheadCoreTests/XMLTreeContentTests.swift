import Foundation
import PlayheadCore
import XCTest

/// `XMLTreeReader.parse(_:limits:keepingContent:)`: mixed content in document order.
final class XMLTreeContentTests: XCTestCase {
  func testTextAndChildrenKeepTheirOrder() throws {
    let root = try XMLTreeReader.parse(
      Data("<p>Line &amp; one<br/>two <span>big</span><![CDATA[ <raw>]]></p>".utf8),
      keepingContent: true)
    XCTAssertEqual(
      root.content,
      [.text("Line & one"), .element(0), .text("two "), .element(1), .text(" <raw>")])
    XCTAssertEqual(root.children[1].content, [.text("big")])
    XCTAssertEqual(root.text, "Line & onetwo  <raw>", "text is unchanged")
  }

  func testContentIsEmptyUnlessAsked() throws {
    let root = try XMLTreeReader.parse(Data("<p>a<br/>b</p>".utf8))
    XCTAssertEqual(root.content, [])
    XCTAssertEqual(root.children.first?.content, [])
  }
}
