import Foundation
import PlayheadMedia

/// How subtitles look when drawn on the picture: font, size, colours, outline, margins.
///
/// Sizes are fractions of the picture so that a cue looks the same at any resolution;
/// the defaults follow common players (text 5.33 % of the height, as ExoPlayer's default,
/// white with a black outline and a soft shadow, 8 % of the height above the bottom).
public struct SubtitleStyle: Sendable, Equatable {
  /// The font family, found through fontconfig; characters it lacks (CJK, Arabic…) come
  /// from any installed font that has them.
  public var fontFamily: String
  /// The text's size as a fraction of the picture's height.
  public var fontSizeFraction: Double
  /// The least text size in pixels, so that text stays readable on a small picture.
  public var minimumFontPixels: Double
  public var textColor: RGBAColor
  public var outlineColor: RGBAColor
  /// The outline's width as a fraction of the font size (0: none).
  public var outlineFraction: Double
  /// The shadow's offset as a fraction of the font size (0: none).
  public var shadowFraction: Double
  public var shadowColor: RGBAColor
  /// The space below cues placed automatically, as a fraction of the height.
  public var bottomMarginFraction: Double
  /// The least space left and right of a cue, as a fraction of the width.
  public var sideMarginFraction: Double

  public init(
    fontFamily: String = "DejaVu Sans", fontSizeFraction: Double = 0.0533,
    minimumFontPixels: Double = 12,
    textColor: RGBAColor = RGBAColor(r: 255, g: 255, b: 255, a: 255),
    outlineColor: RGBAColor = RGBAColor(r: 0, g: 0, b: 0, a: 255),
    outlineFraction: Double = 0.07, shadowFraction: Double = 0.04,
    shadowColor: RGBAColor = RGBAColor(r: 0, g: 0, b: 0, a: 128),
    bottomMarginFraction: Double = 0.08, sideMarginFraction: Double = 0.02
  ) {
    self.fontFamily = fontFamily
    self.fontSizeFraction = fontSizeFraction
    self.minimumFontPixels = minimumFontPixels
    self.textColor = textColor
    self.outlineColor = outlineColor
    self.outlineFraction = outlineFraction
    self.shadowFraction = shadowFraction
    self.shadowColor = shadowColor
    self.bottomMarginFraction = bottomMarginFraction
    self.sideMarginFraction = sideMarginFraction
  }

  /// White text with a black outline in DejaVu Sans.
  public static let standard = SubtitleStyle()
}
