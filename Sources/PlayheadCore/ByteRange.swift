/// A range of bytes in a resource: `length` bytes from `offset` (nil length = to the end).
public struct ByteRange: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The first byte.
  public var offset: Int64
  /// How many bytes; nil means up to the end of the resource.
  public var length: Int64?

  public init(offset: Int64, length: Int64?) {
    self.offset = max(0, offset)
    self.length = length.map { max(0, $0) }
  }

  /// The byte after the last one, when the length is known.
  public var end: Int64? { length.map { offset + $0 } }

  /// The value of an HTTP `Range` header for this range (`bytes=a-b` or `bytes=a-`).
  public var httpHeaderValue: String {
    if let length, length > 0 { return "bytes=\(offset)-\(offset + length - 1)" }
    return "bytes=\(offset)-"
  }

  public var description: String {
    length.map { "\($0)@\(offset)" } ?? "\(offset)-"
  }
}
