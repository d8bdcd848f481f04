import Foundation
import PlayheadCore
import PlayheadText
import XCTest

/// Cue settings.
enum SettingsCases {
  typealias S = WebVTTCueSettings

  /// A case whose only cue must have exactly `expected` settings and no warning.
  static func settings(_ name: String, _ text: String, _ expected: S) -> WebVTTCase {
    WebVTTCase(
      name, settingsFile(text),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).settings, expected, name)
        XCTAssertTrue(document.warnings.isEmpty, "\(name): \(document.warnings)")
      })
  }

  /// A case whose only cue has no settings and a warning containing `warning`.
  static func ignored(_ name: String, _ text: String, _ warning: String) -> WebVTTCase {
    WebVTTCase(
      name, settingsFile(text),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).settings, .none, name)
        XCTAssertTrue(hasWarning(document, warning, line: 3), "\(name): \(document.warnings)")
      })
  }

  static let regionBlock = "REGION\nid:fred width:40%\n\n"

  static let all: [WebVTTCase] = [
    settings("settings_none", "", .none),
    settings("vertical_rl", "vertical:rl", S(vertical: .rl)),
    settings("vertical_lr", "vertical:lr", S(vertical: .lr)),
    settings("line_number", "line:0", S(line: S.Line(.number(0)))),
    settings("line_negativeNumber", "line:-1", S(line: S.Line(.number(-1)))),
    settings("line_fractionalNumber", "line:2.5", S(line: S.Line(.number(2.5)))),
    settings("line_percentage", "line:85%", S(line: S.Line(.percentage(85)))),
    settings(
      "line_percentageWithAlignment", "line:10.5%,end",
      S(line: S.Line(.percentage(10.5), alignment: .end))),
    settings(
      "line_numberWithAlignment", "line:-2,center", S(line: S.Line(.number(-2), alignment: .center))
    ),
    settings("position_percentage", "position:10%", S(position: S.Position(10))),
    settings(
      "position_withAlignment", "position:0%,line-left",
      S(position: S.Position(0, alignment: .lineLeft))),
    settings(
      "position_lineRight", "position:100%,line-right",
      S(position: S.Position(100, alignment: .lineRight))),
    settings("size_percentage", "size:35.25%", S(size: 35.25)),
    settings("align_start", "align:start", S(align: .start)),
    settings("align_end", "align:end", S(align: .end)),
    settings("align_left", "align:left", S(align: .left)),
    settings("align_right", "align:right", S(align: .right)),
    settings("align_center", "align:center", S(align: .center)),
    settings(
      "allSettings_tabSeparated", "vertical:lr\tline:1\tposition:20%,center\tsize:50%\talign:end",
      S(
        vertical: .lr, line: S.Line(.number(1)), position: S.Position(20, alignment: .center),
        size: 50, align: .end)),
    settings("repeatedSetting_lastWins", "align:start align:end", S(align: .end)),
    ignored("vertical_invalid", "vertical:up", "invalid setting 'vertical:up'"),
    ignored("line_notANumber", "line:auto", "invalid setting 'line:auto'"),
    ignored("line_dotWithoutDigitBefore", "line:-.5", "invalid setting"),
    ignored("line_trailingDot", "line:5.", "invalid setting"),
    ignored("line_minusInside", "line:1-2", "invalid setting"),
    ignored("line_percentageAbove100", "line:101%", "invalid setting"),
    ignored("line_badAlignment", "line:1,middle", "invalid setting"),
    ignored("line_tooLongNumber", "line:" + String(repeating: "9", count: 65), "invalid setting"),
    ignored("line_numberOf10To60", "line:-" + String(repeating: "9", count: 60), "invalid setting"),
    settings(
      "line_largestNumber", "line:" + String(repeating: "9", count: 59),
      S(line: S.Line(.number(1e59)))),
    ignored("position_withoutPercent", "position:50", "invalid setting"),
    ignored("position_negative", "position:-5%", "invalid setting"),
    ignored("position_badAlignment", "position:50%,start", "invalid setting"),
    ignored("size_above100", "size:100.5%", "invalid setting"),
    ignored("align_middle", "align:middle", "invalid setting 'align:middle'"),
    ignored("unknownSetting", "colour:red", "unknown cue setting 'colour'"),
    ignored("settingWithoutColon", "align", "malformed cue setting 'align'"),
    ignored("settingWithColonFirst", ":start", "malformed cue setting"),
    ignored("settingWithColonLast", "align:", "malformed cue setting"),
    WebVTTCase(
      "region_defined_isKept", settingsFile("region:fred align:start", regions: regionBlock),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).settings, S(align: .start, region: "fred"))
        XCTAssertTrue(document.warnings.isEmpty)
      }),
    WebVTTCase(
      "region_undefined_warnsAndIsDropped", settingsFile("region:barney", regions: regionBlock),
      .parses { document in
        XCTAssertNil(try onlyCue(document).settings.region)
        XCTAssertTrue(hasWarning(document, "no region 'barney'", line: 6))
      }),
    WebVTTCase(
      "region_withLineSetting_isDropped",
      settingsFile("line:1 region:fred", regions: regionBlock),
      .parses { document in
        let settings = try onlyCue(document).settings
        XCTAssertNil(settings.region)
        XCTAssertEqual(settings.line, S.Line(.number(1)))
        XCTAssertTrue(hasWarning(document, "region 'fred' is ignored", line: 6))
      }),
    WebVTTCase(
      "region_withFullSize_isKept", settingsFile("size:100% region:fred", regions: regionBlock),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).settings, S(size: 100, region: "fred"))
      }),
    WebVTTCase(
      "region_withVertical_isDropped",
      settingsFile("region:fred vertical:rl", regions: regionBlock),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).settings, S(vertical: .rl))
      }),
  ]
}
