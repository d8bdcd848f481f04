import Foundation
import PlayheadCore
import PlayheadMedia

/// A thumbnail ready to show: its picture, cropped from its sprite sheet, and the span of
/// the video it stands for.
public struct Thumbnail: Sendable, Equatable {
  /// The span the thumbnail stands for (start inclusive, end exclusive).
  public var start: MediaTime
  public var end: MediaTime
  /// Where the picture came from.
  public var reference: ThumbnailReference
  /// The picture: the region of the image, or the whole image.
  public var image: RGBAImage

  public init(start: MediaTime, end: MediaTime, reference: ThumbnailReference, image: RGBAImage) {
    self.start = start
    self.end = end
    self.reference = reference
    self.image = image
  }
}
