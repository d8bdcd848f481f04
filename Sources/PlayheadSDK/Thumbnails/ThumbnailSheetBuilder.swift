import Foundation
import PlayheadCore
import PlayheadMedia

/// Turns thumbnails into image files: one file each, or sprite sheets filled row by row.
///
/// A sheet is written when full, and the last one by `finish`, cut to the rows (and, with
/// a single row, the columns) it uses.
final class ThumbnailSheetBuilder {
  private let options: ThumbnailGeneratorOptions
  private let tileWidth: Int
  private let tileHeight: Int
  private var sheet: RGBAImage?
  private var tilesInSheet = 0
  private var fileCount = 0

  /// Throws `.invalidArgument` when a sheet of the options' grid would be wider or taller
  /// than `ImageCodec.maximumSide`.
  init(options: ThumbnailGeneratorOptions, tileWidth: Int, tileHeight: Int) throws(PlayheadError) {
    self.options = options
    self.tileWidth = tileWidth
    self.tileHeight = tileHeight
    if let grid = options.sprite {
      let width = grid.columns * tileWidth
      let height = grid.rows * tileHeight
      guard width <= ImageCodec.maximumSide, height <= ImageCodec.maximumSide else {
        throw PlayheadError(
          .invalidArgument,
          "a \(grid) sprite sheet of \(tileWidth)x\(tileHeight) thumbnails would be "
            + "\(width)x\(height) pixels; the limit is \(ImageCodec.maximumSide) on a side")
      }
    }
  }

  /// Adds the next thumbnail; returns the cue payload that points at it. Completed files
  /// go to `emit`.
  func add(_ image: RGBAImage, emit: (GeneratedImageFile) throws(PlayheadError) -> Void)
    throws(PlayheadError) -> String
  {
    guard let grid = options.sprite else {
      fileCount += 1
      let name = "thumb-\(Self.number(fileCount, digits: 4)).\(options.format.fileExtension)"
      try emit(try file(name, image))
      return name
    }
    if sheet == nil {
      sheet = RGBAImage(
        width: grid.columns * tileWidth, height: grid.rows * tileHeight, color: .black)
      tilesInSheet = 0
    }
    let x = tilesInSheet % grid.columns * tileWidth
    let y = tilesInSheet / grid.columns * tileHeight
    sheet?.paste(image, x: x, y: y)
    tilesInSheet += 1
    let name = sheetName(fileCount + 1)
    let payload = "\(name)#\(ThumbnailRegion(x: x, y: y, width: tileWidth, height: tileHeight))"
    if tilesInSheet == grid.capacity { try finish(emit: emit) }
    return payload
  }

  /// Writes the sheet being filled, if any.
  func finish(emit: (GeneratedImageFile) throws(PlayheadError) -> Void) throws(PlayheadError) {
    guard let grid = options.sprite, let full = sheet, tilesInSheet > 0 else { return }
    sheet = nil
    let rows = (tilesInSheet + grid.columns - 1) / grid.columns
    let columns = rows == 1 ? tilesInSheet : grid.columns
    let used = try full.cropped(x: 0, y: 0, width: columns * tileWidth, height: rows * tileHeight)
    fileCount += 1
    try emit(try file(sheetName(fileCount), used))
  }

  private func sheetName(_ number: Int) -> String {
    "sprite-\(Self.number(number, digits: 3)).\(options.format.fileExtension)"
  }

  private func file(_ name: String, _ image: RGBAImage) throws(PlayheadError)
    -> GeneratedImageFile
  {
    let data = try ImageCodec.encode(image, as: options.format, quality: options.quality)
    return GeneratedImageFile(name: name, data: data, width: image.width, height: image.height)
  }

  /// `value` in decimal with leading zeros to at least `digits` digits.
  static func number(_ value: Int, digits: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
