import PlayheadEngine
import XCTest

final class ABRBitrateMenuTests: XCTestCase {
  let ladder = ABRTestLadder.levels

  func testMenuFromLevels_isHighestFirst_withAutoAppendedAndSelected() {
    let menu = BitrateMenu(levels: ladder, title: "Quality")
    XCTAssertEqual(
      menu.options.map(\.title),
      ["HD · 4 Mbps", "720p · 2.5 Mbps", "SD · 1.2 Mbps", "LD · 600 kbps", "FD · 300 kbps", "Auto"])
    XCTAssertEqual(menu.options.map(\.level), [4, 3, 2, 1, 0, nil])
    XCTAssertEqual(menu.title, "Quality")
    XCTAssertTrue(menu.selectedOption.isAutomatic)
    XCTAssertEqual(menu.selectedIndex, 5)
  }

  func testApplicationOptions_getAutoAppendedOnlyWhenMissing() {
    let without = BitrateMenu(
      title: nil, options: [("Setting 1", 518_100), ("Setting 2", 2_596_000)])
    XCTAssertEqual(without.options.map(\.title), ["Setting 1", "Setting 2", "Auto"])
    XCTAssertEqual(without.options.last?.bitrate, 0)
    let with = BitrateMenu(
      title: "Select an Option",
      options: [(" Auto ", 0), ("Setting 1", 518_100), ("Setting 2", 2_596_000)])
    XCTAssertEqual(with.options.map(\.title), [" Auto ", "Setting 1", "Setting 2"])
    XCTAssertEqual(with.selectedIndex, 0)
  }

  func testInitialSelection_isUsedWhenInRange() {
    let options = [("Low", 500_000), ("High", 3_000_000)]
    XCTAssertEqual(BitrateMenu(title: nil, options: options, initialSelection: 1).selectedIndex, 1)
    XCTAssertEqual(BitrateMenu(title: nil, options: options, initialSelection: 9).selectedIndex, 2)
    XCTAssertEqual(BitrateMenu(title: nil, options: options, initialSelection: -1).selectedIndex, 2)
  }

  func testSelectingAnOption_capsThePeakBitRate_andAutoClearsIt() {
    var menu = BitrateMenu(levels: ladder)
    let base = ABRConstraints(maxPixelCount: 1920 * 1080, manualLevel: 2)
    XCTAssertTrue(menu.select(1))
    let capped = menu.constraints(applyingTo: base)
    XCTAssertEqual(capped.preferredPeakBitRate, 2_500_000)
    XCTAssertNil(capped.manualLevel)
    XCTAssertEqual(capped.maxPixelCount, 1920 * 1080)
    XCTAssertEqual(capped.eligibleLevels(ladder).map(\.index), [0, 1, 2, 3])
    XCTAssertTrue(menu.select(5))
    let automatic = menu.constraints(applyingTo: capped)
    XCTAssertEqual(automatic.preferredPeakBitRate, 0)
    XCTAssertNil(automatic.manualLevel)
  }

  func testManualLevelMode_selectsTheOptionsLevel() {
    var menu = BitrateMenu(levels: ladder, selectionMode: .manualLevel)
    menu.select(3)
    XCTAssertEqual(menu.constraints().manualLevel, 1)
    XCTAssertEqual(menu.constraints().preferredPeakBitRate, 0)
    var appMenu = BitrateMenu(title: nil, options: [("Low", 500_000)])
    appMenu.selectionMode = .manualLevel
    appMenu.select(0)
    XCTAssertEqual(appMenu.constraints().preferredPeakBitRate, 500_000, "no level: a cap")
  }

  func testSelectingOutOfRange_keepsTheSelection() {
    var menu = BitrateMenu(levels: ladder)
    menu.select(2)
    XCTAssertFalse(menu.select(6))
    XCTAssertFalse(menu.select(-1))
    XCTAssertEqual(menu.selectedIndex, 2)
  }

  func testDuplicateTitles_areKeptOnce_andNegativeBitratesMeanAuto() {
    let redundant = [
      BitrateLevel(index: 0, bandwidth: 1_000_000, height: 480),
      BitrateLevel(index: 1, bandwidth: 1_000_000, height: 480),
      BitrateLevel(index: 2, bandwidth: 0, height: 240),
    ]
    XCTAssertEqual(BitrateMenu(levels: redundant).options.map(\.title), ["480p · 1 Mbps", "Auto"])
    let odd = BitrateMenu(title: nil, options: [("Odd", -40), ("Odd", 7)])
    XCTAssertEqual(odd.options.map(\.bitrate), [0])
    XCTAssertTrue(odd.selectedOption.isAutomatic)
  }

  func testEmptyLevels_giveJustAuto() {
    let menu = BitrateMenu(levels: [])
    XCTAssertEqual(menu.options.map(\.title), ["Auto"])
    XCTAssertEqual(menu.constraints(), .none)
  }

  func testLevelTitles_useTheLabel_thenTheHeight_thenJustTheBitrate() {
    XCTAssertEqual(
      BitrateMenu.title(for: BitrateLevel(index: 0, bandwidth: 4_500_000, height: 1080)),
      "1080p · 4.5 Mbps")
    XCTAssertEqual(
      BitrateMenu.title(
        for: BitrateLevel(index: 0, bandwidth: 4_500_000, height: 1080, label: "HD")),
      "HD · 4.5 Mbps")
    XCTAssertEqual(
      BitrateMenu.title(for: BitrateLevel(index: 0, bandwidth: 800_000, label: "  ")), "800 kbps")
  }

  func testBitrateFormatting() {
    XCTAssertEqual(BitrateMenu.formatBitrate(6_000_000), "6 Mbps")
    XCTAssertEqual(BitrateMenu.formatBitrate(1_427_000), "1.4 Mbps")
    XCTAssertEqual(BitrateMenu.formatBitrate(1_950_000), "2 Mbps")
    XCTAssertEqual(BitrateMenu.formatBitrate(999_600), "1 Mbps")
    XCTAssertEqual(BitrateMenu.formatBitrate(999_400), "999 kbps")
    XCTAssertEqual(BitrateMenu.formatBitrate(230_000), "230 kbps")
    XCTAssertEqual(BitrateMenu.formatBitrate(999), "999 bps")
    XCTAssertEqual(BitrateMenu.formatBitrate(0), "0 bps")
    XCTAssertEqual(BitrateMenu.formatBitrate(-8), "0 bps")
    XCTAssertEqual(BitrateMenu.formatBitrate(Int.max), "9223372036854.8 Mbps")
  }
}
