import Foundation
import PlayheadCore

/// What every part of the parser shares: the text, the playlist's URL and origin, the
/// limits, the variables, the current line and the warnings so far.
struct ParserContext {
  let text: ByteText
  let url: URL
  let limits: PlaylistParserLimits
  /// The master playlist's variables for `IMPORT`, when the caller gave them.
  let importable: [String: String]?
  /// The URI schemes the playlist may reference: http, https and its own.
  let allowedSchemes: Set<String>
  /// The playlist URL's scheme, for messages.
  let originScheme: String
  /// Variables defined so far.
  var definitions: [String: String] = [:]
  /// The 1-based line being parsed.
  var line = 0
  var warnings: [ParseWarning] = []
  /// The first line and canonical value of each tag that may appear once (see
  /// `firstOccurrence(of:value:)`).
  var singletons: [TagName: (line: Int, value: String)] = [:]
  /// The text as written of the values substitution changed, for the writer.
  var substitutionSources = SubstitutionSources()
  /// Bytes produced by variable substitution so far.
  private var expansionBytes = 0
  /// The scheme and authority (UTF-8) of the last absolute URI found valid, so that the
  /// URL check runs once per host rather than once per segment.
  private var lastValidatedAuthority: [UInt8] = []

  init(text: ByteText, url: URL, limits: PlaylistParserLimits, importable: [String: String]?) {
    self.text = text
    self.url = url
    self.limits = limits
    self.importable = importable
    let scheme = url.scheme?.lowercased() ?? ""
    self.originScheme = scheme
    var allowed: Set<String> = ["http", "https"]
    if !scheme.isEmpty { allowed.insert(scheme) }
    self.allowedSchemes = allowed
  }

  /// Warnings not kept because `maxWarnings` was reached.
  private(set) var omittedWarnings = 0

  /// Records a warning on the current line.
  mutating func warn(_ message: String) {
    warn(message, line: line)
  }

  /// Records a warning on `line`; past `maxWarnings` warnings are only counted.
  mutating func warn(_ message: String, line: Int) {
    guard warnings.count < Self.maxWarnings else {
      omittedWarnings += 1
      return
    }
    warnings.append(ParseWarning(line: line, message: message))
  }

  /// The warnings, with a last one counting those left out.
  var finalWarnings: [ParseWarning] {
    guard omittedWarnings > 0 else { return warnings }
    return warnings + [ParseWarning(line: 0, message: "\(omittedWarnings) more warnings left out")]
  }

  /// An error on the current line.
  func error(_ kind: PlaylistParseError.Kind, _ message: String) -> PlaylistParseError {
    PlaylistParseError(kind, line: line, message)
  }

  // MARK: Variables

  /// The text of `span` with every `{$name}` reference replaced by its value.
  ///
  /// Throws `.undefinedVariable` for a reference to a name that is not defined and
  /// `.limitExceeded` when substitutions pass `maxVariableExpansionBytes`. `{$` not
  /// followed by a valid name and `}` is kept as written.
  mutating func substituted(_ span: ByteSpan) throws(PlaylistParseError) -> String {
    guard text.containsVariableReference(span) else { return text.string(span) }
    let bytes = text.bytes
    var output: [UInt8] = []
    output.reserveCapacity(span.count)
    var index = span.start
    while index < span.end {
      let byte = bytes[index]
      if byte == UInt8(ascii: "{"), index + 1 < span.end, bytes[index + 1] == UInt8(ascii: "$") {
        var nameEnd = index + 2
        while nameEnd < span.end && Self.isNameByte(bytes[nameEnd]) { nameEnd += 1 }
        if nameEnd < span.end, bytes[nameEnd] == UInt8(ascii: "}"), nameEnd > index + 2 {
          let name = text.string(ByteSpan(index + 2, nameEnd))
          guard let value = definitions[name] else {
            throw error(.undefinedVariable, "variable '\(name)' is used but not defined")
          }
          expansionBytes += value.utf8.count
          if expansionBytes > limits.maxVariableExpansionBytes {
            throw error(
              .limitExceeded,
              "variable substitution produces more than \(limits.maxVariableExpansionBytes) bytes"
            )
          }
          output.append(contentsOf: value.utf8)
          index = nameEnd + 1
          continue
        }
      }
      output.append(byte)
      index += 1
    }
    let value = String(decoding: output, as: UTF8.self)
    substitutionSources.record(value: value, raw: text.string(span))
    return value
  }

  /// Whether `byte` may appear in a variable name (`[A-Za-z0-9_-]`).
  static func isNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "_"), UInt8(ascii: "-"): return true
    default: return false
    }
  }

  // MARK: URIs

  /// The URI in `span`, variables substituted, checked against the origin rule.
  mutating func uri(_ span: ByteSpan, in tag: String) throws(PlaylistParseError) -> String {
    let uri = try substituted(span)
    try check(uri: uri, in: tag)
    return uri
  }

  /// The URI of a URI line, variables substituted and checked against the origin rule.
  mutating func uriLine(_ span: ByteSpan, in tag: String) throws(PlaylistParseError) -> String {
    text.containsVariableReference(span)
      ? try substitutedURILine(span, in: tag) : try plainURILine(span, in: tag)
  }

  /// The URI of a URI line without variable references, checked against the origin rule.
  mutating func plainURILine(_ span: ByteSpan, in tag: String) throws(PlaylistParseError)
    -> String
  {
    try checkURILine(span, in: tag)
    return text.string(span)
  }

  /// Checks the URI line `span`, which has no variable references, against the origin
  /// rule, reading its bytes (a string is made only for a message or an authority check).
  mutating func checkURILine(_ span: ByteSpan, in tag: String) throws(PlaylistParseError) {
    // The line is already trimmed and does not start with `#`.
    let verdict = uriVerdict(text.buffer(span))
    if case .fine = verdict { return }
    try apply(verdict, to: text.string(span), in: tag)
  }

  /// The URI of a URI line with variable references, substituted and checked against the
  /// origin rule.
  ///
  /// Blanks that substitution brings to either end are removed (the line itself is
  /// already trimmed); a line that substitution turns into `#…` is an `.invalidURI`,
  /// since written back it would read as a tag.
  mutating func substitutedURILine(_ span: ByteSpan, in tag: String) throws(PlaylistParseError)
    -> String
  {
    var uri = try substituted(span)
    if let first = uri.utf8.first, let last = uri.utf8.last,
      ByteText.isBlank(first) || ByteText.isBlank(last)
    {
      uri = ParserContext.withBytes(of: uri) { $0.string($0.trimmed(ByteSpan(0, $0.bytes.count))) }
    }
    substitutionSources.record(value: uri, raw: text.string(span))
    if uri.utf8.first == UInt8(ascii: "#") {
      throw error(
        .invalidURI,
        "\(tag) URI line '\(Self.excerpt(uri))' starts with '#' after variable substitution")
    }
    try check(uri: uri, in: tag)
    return uri
  }

  /// Checks that `uri` is a URI reference the playlist may use.
  ///
  /// The origin rule: a URI with a scheme must use http, https or the playlist's own
  /// scheme, so that a playlist fetched over the network can never reach a local file
  /// (`file:`) or another kind of resource (`data:`, `ftp:`); a local playlist may
  /// reference local files and http(s).
  mutating func check(uri: String, in tag: String) throws(PlaylistParseError) {
    var bytes = uri
    let verdict = bytes.withUTF8 { uriVerdict($0) }
    try apply(verdict, to: uri, in: tag)
  }

  /// What the origin rule and the URL check say about a URI, from its UTF-8 bytes.
  enum URIVerdict {
    case fine
    case empty
    /// The scheme, lowercased, is not allowed.
    case forbiddenScheme(String)
    /// The URI has an authority not checked yet: it must make a URL; the scheme and
    /// authority are remembered when it does.
    case newAuthority([UInt8])
  }

  /// The verdict on the URI in `bytes`.
  func uriVerdict(_ bytes: UnsafeBufferPointer<UInt8>) -> URIVerdict {
    guard !bytes.isEmpty else { return .empty }
    let shape = URIShape(bytes, cachedAuthority: lastValidatedAuthority)
    if let scheme = shape.scheme, !shape.isWebScheme {
      let name = String(decoding: bytes.prefix(scheme), as: UTF8.self).lowercased()
      guard allowedSchemes.contains(name) else { return .forbiddenScheme(name) }
    }
    // Relative paths always resolve (unsafe characters are percent-encoded); a URI with
    // an authority (`scheme://host`, `//host`) may not, so check it once per authority.
    guard let authorityEnd = shape.authorityEnd, !shape.matchesCachedAuthority else {
      return .fine
    }
    return .newAuthority(Array(bytes.prefix(authorityEnd)))
  }

  /// Throws for `verdict` on `uri` in `tag`, or remembers a new authority that is valid.
  private mutating func apply(_ verdict: URIVerdict, to uri: String, in tag: String)
    throws(PlaylistParseError)
  {
    switch verdict {
    case .fine:
      return
    case .empty:
      throw error(.invalidURI, "empty URI in \(tag)")
    case .forbiddenScheme(let name):
      let origin = originScheme.isEmpty ? "a URL without scheme" : "'\(originScheme)'"
      throw error(
        .forbiddenURI,
        "\(tag) URI '\(Self.excerpt(uri))' uses scheme '\(name)', which a playlist loaded "
          + "from \(origin) may not reference (allowed: \(allowedSchemes.sorted().joined(separator: ", ")))"
      )
    case .newAuthority(let authority):
      guard URIResolution.resolve(uri, against: url) != nil else {
        throw error(.invalidURI, "\(tag) URI '\(Self.excerpt(uri))' is not a valid URI")
      }
      lastValidatedAuthority = authority
    }
  }

  /// The lowercased scheme of `uri` (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`),
  /// or nil for a relative reference.
  static func scheme(of uri: String) -> String? {
    var bytes = uri
    guard let length = bytes.withUTF8({ URIShape.schemeLength($0) }) else { return nil }
    return String(decoding: uri.utf8.prefix(length), as: UTF8.self).lowercased()
  }

  /// `text` shortened for a message.
  static func excerpt(_ text: String) -> String {
    text.count <= 80 ? text : String(text.prefix(77)) + "..."
  }
}
