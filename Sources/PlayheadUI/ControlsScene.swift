/// Everything the controls draw at one instant: the model's output, drawn by a renderer
/// (the window's, or an offscreen one for golden images).
///
/// Coordinates are the control view's pixels, origin at the top-left; the control area
/// sits at the bottom of the view.
public struct ControlsScene: Sendable, Equatable {
  /// One control with its place and look.
  public struct Control: Sendable, Equatable {
    /// Where it is, in view coordinates.
    public var frame: ControlFrame
    /// What it shows.
    public var appearance: ControlAppearance
    /// Its localised accessible name (also its tooltip); nil for separators and spacers.
    public var accessibilityName: String?
    /// Whether the pointer is over it.
    public var isHovered: Bool
  }

  /// An open menu: rows over the control bar, above the button that opened it.
  public struct Menu: Sendable, Equatable {
    /// One row of the menu.
    public struct Item: Sendable, Equatable {
      /// What the row says.
      public var label: String
      /// Whether this is a section heading (not choosable).
      public var isHeading: Bool
      /// Whether this choice is the current one (drawn with a check mark).
      public var isSelected: Bool
      /// Whether the pointer is over it.
      public var isHovered: Bool
      /// Where the row is, in view coordinates.
      public var x: Double
      public var y: Double
      public var width: Double
      public var height: Double
    }

    /// The menu's rows, top first.
    public var items: [Item]
    /// The menu's box, in view coordinates.
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
  }

  /// A thumbnail to show above the slider while hovering or dragging it.
  public struct ThumbnailPreview: Sendable, Equatable {
    /// The time whose thumbnail to show, in seconds.
    public var timeSeconds: Double
    /// The horizontal centre of the preview (the pointer's x, kept inside the view).
    public var centreX: Double
    /// The y of the preview's bottom edge (the control area's top less a margin).
    public var bottomY: Double
  }

  /// The controls' opacity: 1 shown, 0 hidden, between while fading.
  public var opacity: Double
  /// The view's size.
  public var viewWidth: Double
  public var viewHeight: Double
  /// The top of the control area and its height.
  public var areaY: Double
  public var areaHeight: Double
  /// The scale the scene was laid out at.
  public var scale: Double
  /// The controls, in layout order.
  public var controls: [Control]
  /// The open menu, if any.
  public var menu: Menu?
  /// The thumbnail preview, if any.
  public var thumbnail: ThumbnailPreview?
  /// Whether the options' poster is drawn behind the controls (audio-only media with a
  /// `posterPath`), whatever the controls' opacity.
  public var showsPoster: Bool = false
  /// The ad controls (badge, skip, "Learn more") while an ad plays: drawn at full opacity
  /// whether the bar shows or not.
  public var ad: AdControls?
  /// Whether the bar is drawn: false when it is fully hidden.
  public var isBarVisible: Bool { opacity > 0 && !controls.isEmpty }
  /// Whether anything is drawn: the bar, or the ad controls.
  public var isVisible: Bool { isBarVisible || ad != nil }

  /// The ad controls at one instant, in view coordinates.
  public struct AdControls: Sendable, Equatable {
    /// A box in view coordinates.
    public struct Box: Sendable, Equatable {
      public var x: Double
      public var y: Double
      public var width: Double
      public var height: Double

      /// Whether the point is inside.
      public func contains(x px: Double, y py: Double) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
      }
    }

    /// A pressable ad control.
    public struct Button: Sendable, Equatable {
      /// Which control it is.
      public var kind: AdControlKind
      /// What it says, localised; also its accessible name.
      public var label: String
      /// Where it is.
      public var box: Box
      /// Whether pressing it acts (the skip control before the skip offset does not).
      public var isEnabled: Bool
      /// Whether the pointer is over it.
      public var isHovered: Bool
      /// Whether it has the keyboard focus (drawn with a ring).
      public var isFocused: Bool
    }

    /// The badge's text: "Ad 1 of 3 · 0:12", localised.
    public var badgeText: String
    /// Where the badge is.
    public var badge: Box
    /// The skip control (for a skippable ad) and "Learn more" (for an ad with a page), in
    /// focus order.
    public var buttons: [Button]

    /// The button of `kind`, if shown.
    public func button(_ kind: AdControlKind) -> Button? { buttons.first { $0.kind == kind } }
  }
}

/// How one control looks at an instant.
public enum ControlAppearance: Sendable, Equatable {
  /// The play/pause button: a pause icon while playing, a play icon while paused.
  case playback(isPlaying: Bool)
  /// The jump-back button.
  case jumpBack
  /// The subtitles/tracks button, highlighted while a text track shows.
  case closedCaption(isActive: Bool)
  /// The full-screen button.
  case screenMode(isFullScreen: Bool)
  /// The bitrate button, highlighted while a cap or level is chosen.
  case preferredBitrate(isCapped: Bool)
  /// The live badge: red dot at the live edge, grey (and pressable) behind it.
  case liveIndicator(isAtLiveEdge: Bool)
  /// A text label.
  case text(String)
  /// The progress slider.
  case slider(SliderAppearance)
  /// Nothing (spacer or room for the application's own drawing).
  case empty
}

/// How the progress slider looks: fractions of its width, 0 at the left.
public struct SliderAppearance: Sendable, Equatable {
  /// Where the playhead (or the dragged knob) is.
  public var played: Double
  /// The loaded ranges.
  public var buffered: [ClosedRange<Double>]
  /// Cue-point and ad markers.
  public var markers: [Double]
  /// Whether a bumper plays (the seed's purple bar, no buffered range, no seeking).
  public var isBumper: Bool
  /// Whether the knob is being dragged.
  public var isDragging: Bool
  /// Ad breaks still to play, drawn apart from the cue-point markers.
  public var adMarkers: [Double] = []
}
