/// A `SegmentTemplate` `@media` / `@initialization` / `@index` string, with its identifiers
/// (ISO/IEC 23009-1 §5.3.9.4.4): `$RepresentationID$`, `$Number$`, `$Bandwidth$`, `$Time$`,
/// `$SubNumber$`, each but the first with an optional width format (`$Number%05d$`), and
/// `$$` for a dollar sign.
///
/// A template is checked once (`init`): an unknown identifier, a `$` without its closing
/// one, or a format other than `%0[width]d` is an error naming it. Expanding is then only
/// substitution.
public struct MPDURLTemplate: Sendable, Hashable {
  /// One piece of the template.
  enum Piece: Sendable, Hashable {
    case text(String)
    case representationID
    case number(width: Int)
    case bandwidth(width: Int)
    case time(width: Int)
    case subNumber(width: Int)
  }

  let pieces: [Piece]
  /// The template as written.
  public let text: String

  /// Whether the template uses `$Number$` / `$Time$` (addressing by number or by time).
  public var usesNumber: Bool { pieces.contains { if case .number = $0 { true } else { false } } }
  public var usesTime: Bool { pieces.contains { if case .time = $0 { true } else { false } } }

  /// Reads `text`; throws a message naming what is wrong.
  public init(_ text: String) throws(MPDTemplateError) {
    self.text = text
    var pieces: [Piece] = []
    var literal = ""
    var rest = Substring(text)
    while let dollar = rest.firstIndex(of: "$") {
      literal += rest[..<dollar]
      let afterOpen = rest.index(after: dollar)
      guard let close = rest[afterOpen...].firstIndex(of: "$") else {
        throw MPDTemplateError("'$' without a closing '$' in '\(text)'")
      }
      let identifier = rest[afterOpen..<close]
      rest = rest[rest.index(after: close)...]
      if identifier.isEmpty {
        literal += "$"
        continue
      }
      if !literal.isEmpty {
        pieces.append(.text(literal))
        literal = ""
      }
      let name = identifier.prefix { $0 != "%" }
      let format = identifier.dropFirst(name.count)
      var width = 1
      if !format.isEmpty {
        guard name != "RepresentationID", format.hasPrefix("%0"), format.hasSuffix("d"),
          let value = Int(format.dropFirst(2).dropLast()), (1...20).contains(value)
        else {
          throw MPDTemplateError("format '\(format)' of $\(name)$ is not %0[width]d in '\(text)'")
        }
        width = value
      }
      switch name {
      case "RepresentationID": pieces.append(.representationID)
      case "Number": pieces.append(.number(width: width))
      case "Bandwidth": pieces.append(.bandwidth(width: width))
      case "Time": pieces.append(.time(width: width))
      case "SubNumber": pieces.append(.subNumber(width: width))
      default: throw MPDTemplateError("unknown identifier $\(identifier)$ in '\(text)'")
      }
    }
    literal += rest
    if !literal.isEmpty { pieces.append(.text(literal)) }
    self.pieces = pieces
  }

  /// The template with its identifiers replaced.
  public func expand(
    representationID: String, bandwidth: Int, number: Int64? = nil, time: Int64? = nil,
    subNumber: Int64? = nil
  ) -> String {
    var output = ""
    for piece in pieces {
      switch piece {
      case .text(let text): output += text
      case .representationID: output += representationID
      case .number(let width): output += Self.padded(number ?? 0, width)
      case .bandwidth(let width): output += Self.padded(Int64(bandwidth), width)
      case .time(let width): output += Self.padded(time ?? 0, width)
      case .subNumber(let width): output += Self.padded(subNumber ?? 0, width)
      }
    }
    return output
  }

  private static func padded(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width
      ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
}

/// Why a segment template could not be read.
public struct MPDTemplateError: Error, Sendable, Equatable {
  /// A one-line description.
  public var message: String

  init(_ message: String) { self.message = message }
}
