import PlayheadUI
import XCTest

/// The seed's elastic rule, case by case: each row gives the views (width, elasticity,
/// removed), the bar's width and spacing, and the frames expected (x, width) in order.
final class ElasticRuleTests: XCTestCase {
  private struct Case {
    var name: String
    var views: [(width: Double, elasticity: Double, removed: Bool)]
    var barWidth: Double
    var spacing: Double
    var expected: [(x: Double, width: Double)]
  }

  private let cases: [Case] = [
    Case(
      name: "fixed widths only: space left empty at the right",
      views: [(40, 0, false), (40, 0, false), (56, 0, false)], barWidth: 300, spacing: 10,
      expected: [(0, 40), (50, 40), (100, 56)]),
    Case(
      name: "one elastic view takes all the spare space",
      views: [(40, 0, false), (100, 1, false), (40, 0, false)], barWidth: 400, spacing: 8,
      expected: [(0, 40), (48, 304), (360, 40)]),
    Case(
      name: "spare space shared in proportion to elasticity",
      views: [(0, 1, false), (40, 0, false), (0, 3, false)], barWidth: 200, spacing: 0,
      expected: [(0, 40), (40, 40), (80, 120)]),
    Case(
      name: "elastic views keep their base width and add their share",
      views: [(20, 1, false), (60, 1, false)], barWidth: 180, spacing: 0,
      expected: [(0, 70), (70, 110)]),
    Case(
      name: "removed views take no space and no spacing",
      views: [(40, 0, false), (40, 0, true), (0, 1, false), (40, 0, false)], barWidth: 200,
      spacing: 10, expected: [(0, 40), (50, 100), (160, 40)]),
    Case(
      name: "every view removed: nothing is placed",
      views: [(40, 0, true), (0, 1, true)], barWidth: 300, spacing: 8, expected: []),
    Case(
      name: "an empty row: nothing is placed", views: [], barWidth: 300, spacing: 8,
      expected: []),
    Case(
      name: "zero elastic views and an exact fit",
      views: [(100, 0, false), (100, 0, false)], barWidth: 210, spacing: 10,
      expected: [(0, 100), (110, 100)]),
    Case(
      name: "too wide: elastic views shrink in proportion to elasticity",
      views: [(40, 0, false), (100, 1, false), (100, 3, false)], barWidth: 200, spacing: 0,
      expected: [(0, 40), (40, 90), (130, 70)]),
    Case(
      name: "too wide: a view that reaches 0 stops, the others give up the rest",
      views: [(10, 1, false), (100, 1, false), (40, 0, false)], barWidth: 100, spacing: 0,
      expected: [(0, 0), (0, 60), (60, 40)]),
    Case(
      name: "fixed widths over the bar: views dropped from the end until the rest fit",
      views: [(40, 0, false), (40, 0, false), (40, 0, false), (40, 0, false)], barWidth: 100,
      spacing: 10, expected: [(0, 40), (50, 40)]),
    Case(
      name: "over the bar with elastic views squeezed to 0 first",
      views: [(60, 0, false), (30, 1, false), (60, 0, false)], barWidth: 100, spacing: 0,
      expected: [(0, 60), (60, 0)]),
    Case(
      name: "a bar of zero width shows only zero-width views from the start",
      views: [(0, 1, false), (40, 0, false)], barWidth: 0, spacing: 0, expected: [(0, 0)]),
    Case(
      name: "negative widths, elasticity and spacing count as 0",
      views: [(-20, -1, false), (40, 0, false)], barWidth: 100, spacing: -5,
      expected: [(0, 0), (0, 40)]),
  ]

  func testEveryCaseOfTheTable() {
    for entry in cases {
      let row = entry.views.enumerated().map { index, view in
        ControlLayoutView(
          id: "v\(index)", tag: .empty, width: view.width, elasticity: view.elasticity,
          isRemoved: view.removed)
      }
      let placed = ControlLayout.frames(ofRow: row, width: entry.barWidth, spacing: entry.spacing)
      XCTAssertEqual(placed.count, entry.expected.count, entry.name)
      for (got, want) in zip(placed, entry.expected) {
        XCTAssertEqual(got.x, want.x, accuracy: 1e-9, "\(entry.name): x of \(got.view.id)")
        XCTAssertEqual(
          got.width, want.width, accuracy: 1e-9, "\(entry.name): width of \(got.view.id)")
      }
    }
  }

  func testPlacedViewsKeepTheirOrderAndIds() {
    let row = [
      ControlLayoutView(tag: .playback), ControlLayoutView(tag: .timeSeparator, isRemoved: true),
      ControlLayoutView(tag: .progressSlider, elasticity: 1), ControlLayoutView(tag: .screenMode),
    ]
    let placed = ControlLayout.frames(ofRow: row, width: 400, spacing: 8)
    XCTAssertEqual(placed.map(\.view.id), ["playback", "progressSlider", "screenMode"])
    XCTAssertEqual(placed.last.map { $0.x + $0.width } ?? 0, 400, accuracy: 1e-9)
  }

  func testTheDefaultWidthIsUsedWhenNoneIsGiven() {
    let placed = ControlLayout.frames(
      ofRow: [ControlLayoutView(tag: .currentTime), ControlLayoutView(tag: .jumpBack)],
      width: 500, spacing: 0)
    XCTAssertEqual(placed.map(\.width), [56, 40])
  }

  func testNoRowOfAProvidedLayoutOverflowsAtEitherWidthSet() {
    for kind in ControlLayout.Kind.allCases {
      let layout = ControlLayout.provided(kind)
      for width in [320.0, 499, 500, 640, 1280, 1920] {
        let frames = layout.frames(forWidth: width)
        let expected = layout.rows(forWidth: width).joined().filter { !$0.isRemoved }.count
        XCTAssertEqual(frames.count, expected, "\(kind) at \(width): a view was dropped")
        for frame in frames {
          XCTAssertLessThanOrEqual(frame.x + frame.width, width + 1e-9, "\(kind) \(frame.id)")
        }
      }
    }
  }
}
