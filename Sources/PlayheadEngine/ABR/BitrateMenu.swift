/// A menu of bitrate choices for the viewer: labelled options, one of them "Auto".
///
/// Built from a stream's levels (titles such as `"1080p · 4.5 Mbps"`, highest first) or
/// from the application's own options (seed 000's preferred-bitrate menu: a title and a
/// bitrate in bits per second each). An option with bitrate 0 means automatic selection;
/// when no option has bitrate 0, an `"Auto"` option is appended. Options with the same
/// title are kept once (the first). Selecting an option maps to `ABRConstraints`: a peak
/// bitrate cap (the seed's `preferredPeakBitRate`), or manual selection of the option's
/// level, as `selectionMode` says.
///
/// ```swift
/// var menu = BitrateMenu(levels: ladder)
/// _ = menu.select(0)  // the highest level
/// context.constraints = menu.constraints(applyingTo: context.constraints)
/// ```
public struct BitrateMenu: Sendable, Equatable {
  /// One entry of the menu.
  public struct Option: Sendable, Equatable {
    /// What the menu shows.
    public var title: String
    /// The peak bitrate this option allows, in bits per second; 0 for automatic.
    public var bitrate: Int
    /// The `BitrateLevel.index` the option was made from; nil for application options and
    /// for "Auto".
    public var level: Int?

    /// Creates an option.
    public init(title: String, bitrate: Int, level: Int? = nil) {
      self.title = title
      self.bitrate = bitrate
      self.level = level
    }

    /// Whether choosing this option means automatic selection.
    public var isAutomatic: Bool { bitrate <= 0 }
  }

  /// What selecting a non-automatic option does.
  public enum SelectionMode: Sendable, Equatable {
    /// Caps the peak bitrate at the option's bitrate; adaptation continues below it.
    case peakBitRateCap
    /// Plays the option's level only (options without a level fall back to a cap).
    case manualLevel
  }

  /// The title shown above the options; nil for none.
  public var title: String?
  /// The options in menu order.
  public private(set) var options: [Option]
  /// What selecting an option does.
  public var selectionMode: SelectionMode
  /// The position of the selected option in `options`.
  public private(set) var selectedIndex: Int

  /// A menu of `levels`, highest bitrate first, with "Auto" appended and selected.
  ///
  /// Levels with a bandwidth of zero or less are left out.
  public init(
    levels: [BitrateLevel], title: String? = nil, selectionMode: SelectionMode = .peakBitRateCap
  ) {
    let entries = BitrateLevel.sortedByBitrate(levels).reversed()
      .filter { $0.bandwidth > 0 }
      .map { Option(title: Self.title(for: $0), bitrate: $0.bandwidth, level: $0.index) }
    self.init(title: title, entries: entries, initialSelection: nil, mode: selectionMode)
  }

  /// A menu of the application's options (title and bitrate in bits per second each), in
  /// the given order, with "Auto" appended when no option has bitrate 0.
  ///
  /// A negative bitrate counts as 0 (automatic). `initialSelection` is a position in the
  /// resulting options; nil or out of range selects the first automatic option.
  public init(
    title: String?, options: [(title: String, bitrate: Int)], initialSelection: Int? = nil
  ) {
    let entries = options.map { Option(title: $0.title, bitrate: max(0, $0.bitrate)) }
    self.init(
      title: title, entries: entries, initialSelection: initialSelection, mode: .peakBitRateCap)
  }

  private init(title: String?, entries: [Option], initialSelection: Int?, mode: SelectionMode) {
    var seen: Set<String> = []
    var kept = entries.filter { seen.insert($0.title).inserted }
    if !kept.contains(where: \.isAutomatic) {
      kept.append(Option(title: Self.automaticTitle, bitrate: 0))
    }
    self.title = title
    self.options = kept
    self.selectionMode = mode
    if let initialSelection, kept.indices.contains(initialSelection) {
      selectedIndex = initialSelection
    } else {
      selectedIndex = kept.firstIndex(where: \.isAutomatic) ?? 0
    }
  }

  /// The title of the appended automatic option.
  public static let automaticTitle = "Auto"

  /// The selected option.
  public var selectedOption: Option { options[selectedIndex] }

  /// Selects the option at `index`; returns false (and keeps the selection) when there is
  /// no such option.
  @discardableResult
  public mutating func select(_ index: Int) -> Bool {
    guard options.indices.contains(index) else { return false }
    selectedIndex = index
    return true
  }

  /// `base` with the selected option applied: automatic clears the peak cap and manual
  /// selection; otherwise the cap or the manual level is set as `selectionMode` says.
  ///
  /// Other caps in `base` (pixel count, resolution) are kept.
  public func constraints(applyingTo base: ABRConstraints = .none) -> ABRConstraints {
    var constraints = base
    let option = selectedOption
    if option.isAutomatic {
      constraints.preferredPeakBitRate = 0
      constraints.manualLevel = nil
    } else if selectionMode == .manualLevel, let level = option.level {
      constraints.manualLevel = level
    } else {
      constraints.preferredPeakBitRate = option.bitrate
      constraints.manualLevel = nil
    }
    return constraints
  }

  /// The menu title of a level: its label or its height (`"720p"`), then the bitrate, as
  /// in `"720p · 2.5 Mbps"`; just the bitrate when the level has neither.
  public static func title(for level: BitrateLevel) -> String {
    let rate = formatBitrate(level.bandwidth)
    if let label = level.label?.trimmingSpaces(), !label.isEmpty {
      return "\(label) · \(rate)"
    }
    if let height = level.height, height > 0 {
      return "\(height)p · \(rate)"
    }
    return rate
  }

  /// A bitrate for people: `"4.5 Mbps"`, `"6 Mbps"`, `"688 kbps"`, `"900 bps"`.
  ///
  /// Megabits keep one decimal (dropped when zero); kilobits are whole; values round half
  /// up. Zero or less gives `"0 bps"`.
  public static func formatBitrate(_ bitsPerSecond: Int) -> String {
    guard bitsPerSecond > 0 else { return "0 bps" }
    let bits = bitsPerSecond
    // Rounded divisions that cannot overflow, even at Int.max.
    let kilobits = bits / 1000 + (bits % 1000 >= 500 ? 1 : 0)
    if kilobits >= 1000 {
      let tenths = bits / 100_000 + (bits % 100_000 >= 50_000 ? 1 : 0)
      let whole = tenths / 10
      let fraction = tenths % 10
      return fraction == 0 ? "\(whole) Mbps" : "\(whole).\(fraction) Mbps"
    }
    if bits >= 1000 { return "\(kilobits) kbps" }
    return "\(bits) bps"
  }
}
