import Foundation
import PlayheadCore
import PlayheadText
import XCTest

/// `REGION` blocks.
enum RegionCases {
  typealias R = WebVTTRegion

  static let all: [WebVTTCase] = [
    WebVTTCase(
      "region_allSettings_parse",
      vtt(
        "REGION\nid:fred width:40% lines:3 regionanchor:0%,100% viewportanchor:10%,90% scroll:up\n\n"
      ),
      .parses { document in
        XCTAssertEqual(
          document.regions,
          [
            R(
              id: "fred", width: 40, lines: 3, regionAnchor: R.Anchor(x: 0, y: 100),
              viewportAnchor: R.Anchor(x: 10, y: 90), scroll: .up)
          ])
        XCTAssertTrue(document.warnings.isEmpty)
      }),
    WebVTTCase(
      "region_onlyId_hasDefaults", vtt("REGION\nid:bill\n"),
      .parses { document in
        XCTAssertEqual(document.regions, [R(id: "bill")])
        XCTAssertEqual(document.region(id: "bill")?.width, 100)
        XCTAssertEqual(document.region(id: "bill")?.lines, 3)
        XCTAssertEqual(document.region(id: "bill")?.viewportAnchor, .bottomLeft)
        XCTAssertEqual(document.region(id: "bill")?.scroll, WebVTTRegion.Scroll.none)
      }),
    WebVTTCase(
      "region_settingsOverSeveralLines_parse",
      vtt("REGION\nid:a\nwidth:50.5%   lines:7\n\tscroll:up\n"),
      .parses { document in
        XCTAssertEqual(document.regions, [R(id: "a", width: 50.5, lines: 7, scroll: .up)])
      }),
    WebVTTCase(
      "region_withoutId_warnsAndIsIgnored", vtt("REGION\nwidth:50%\n"),
      .parses { document in
        XCTAssertTrue(document.regions.isEmpty)
        XCTAssertTrue(hasWarning(document, "region without an id", line: 3))
      }),
    WebVTTCase(
      "region_sameIdTwice_lastDefinitionWins",
      vtt("REGION\nid:a width:10%\n\nREGION\nid:b\n\nREGION\nid:a width:20%\n"),
      .parses { document in
        XCTAssertEqual(document.regions, [R(id: "a", width: 20), R(id: "b")])
        XCTAssertTrue(hasWarning(document, "region 'a' is defined again", line: 9))
      }),
    WebVTTCase(
      "region_invalidValues_warnAndKeepDefaults",
      vtt(
        "REGION\nid:z width:120% lines:3.5 regionanchor:10% viewportanchor:a%,b% scroll:down lines:-1\n"
      ),
      .parses { document in
        XCTAssertEqual(document.regions, [R(id: "z")])
        for setting in [
          "width:120%", "lines:3.5", "regionanchor:10%", "viewportanchor:a%,b%", "scroll:down",
          "lines:-1",
        ] {
          XCTAssertTrue(hasWarning(document, "invalid setting '\(setting)'", line: 4), setting)
        }
      }),
    WebVTTCase(
      "region_hugeLineCount_warns", vtt("REGION\nid:z lines:99999999999999999999999\n"),
      .parses { document in
        XCTAssertEqual(document.regions, [R(id: "z")])
        XCTAssertTrue(hasWarning(document, "invalid setting 'lines:", line: 4))
      }),
    WebVTTCase(
      "region_unknownAndMalformedSettings_warn", vtt("REGION\nid:z colour:red novalue\n"),
      .parses { document in
        XCTAssertEqual(document.regions, [R(id: "z")])
        XCTAssertTrue(hasWarning(document, "unknown region setting 'colour'", line: 4))
        XCTAssertTrue(hasWarning(document, "malformed region setting 'novalue'", line: 4))
      }),
    WebVTTCase(
      "region_idWithColon_keepsTheRest", vtt("REGION\nid:a:b\n"),
      .parses { document in
        XCTAssertEqual(document.regions.map(\.id), ["a:b"])
      }),
  ]
}
