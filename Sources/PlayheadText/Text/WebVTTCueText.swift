/// Reads cue payloads as the WebVTT cue text tokenizer does, keeping only what a plain-text
/// rendering needs: the text with tags removed and character references decoded, and the
/// first voice name.
enum WebVTTCueText {
  /// The longest character reference looked for after `&`, in characters.
  static let maxReferenceLength = 32

  /// The plain text of `payload` and its first voice name.
  static func render(_ payload: String) -> (plainText: String, voice: String?) {
    let scalars = Array(payload.unicodeScalars)
    var output = String.UnicodeScalarView()
    var voice: String?
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "<" {
        let tag = readTag(scalars, from: index + 1)
        if voice == nil, let name = tag.voice { voice = name }
        index = tag.next
      } else if scalar == "&", let reference = readReference(scalars, from: index + 1) {
        output.append(contentsOf: reference.text.unicodeScalars)
        index = reference.next
      } else {
        output.append(scalar)
        index += 1
      }
    }
    return (String(output), voice)
  }

  /// Skips a tag whose `<` is just before `start`, up to and including `>` or to the end;
  /// for a `v` start tag, returns its annotation as the voice (nil when empty).
  static func readTag(_ scalars: [Unicode.Scalar], from start: Int) -> (
    next: Int, voice: String?, name: String
  ) {
    var index = start
    var nameEnd: Int?
    while index < scalars.count && scalars[index] != ">" {
      if nameEnd == nil && (scalars[index] == "." || isSpace(scalars[index])) { nameEnd = index }
      index += 1
    }
    let end = index
    let next = min(index + 1, scalars.count)
    let name = String(String.UnicodeScalarView(scalars[start..<(nameEnd ?? end)]))
    guard name == "v" else { return (next, nil, name) }
    // The annotation follows the first white space after the tag name and classes.
    var annotationStart = start
    while annotationStart < end && !isSpace(scalars[annotationStart]) { annotationStart += 1 }
    let raw = Array(scalars[annotationStart..<end])
    var decoded = String.UnicodeScalarView()
    var position = 0
    while position < raw.count {
      if raw[position] == "&", let reference = readReference(raw, from: position + 1) {
        decoded.append(contentsOf: reference.text.unicodeScalars)
        position = reference.next
      } else {
        decoded.append(raw[position])
        position += 1
      }
    }
    let words = String(decoded).split(whereSeparator: { $0.unicodeScalars.allSatisfy(isSpace) })
    let voice = words.joined(separator: " ")
    return (next, voice.isEmpty ? nil : voice, name)
  }

  /// The character reference whose `&` is just before `start` (name or number, then `;`)
  /// and the index after it; nil when there is none, the `&` then standing for itself.
  static func readReference(_ scalars: [Unicode.Scalar], from start: Int)
    -> (text: String, next: Int)?
  {
    var index = start
    let limit = min(scalars.count, start + maxReferenceLength)
    while index < limit && scalars[index] != ";" {
      let value = scalars[index].value
      let isNameCharacter =
        (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A)
        || (value >= 0x61 && value <= 0x7A) || value == 0x23
      guard isNameCharacter else { return nil }
      index += 1
    }
    guard index < limit, index > start else { return nil }
    let name = String(String.UnicodeScalarView(scalars[start..<index]))
    guard let text = decode(name) else { return nil }
    return (text, index + 1)
  }

  /// The text of a reference name (without `&` and `;`), or nil when it is not known.
  private static func decode(_ name: String) -> String? {
    switch name {
    case "amp": return "&"
    case "lt": return "<"
    case "gt": return ">"
    case "quot": return "\""
    case "apos": return "'"
    case "lrm": return "\u{200E}"
    case "rlm": return "\u{200F}"
    case "nbsp": return "\u{00A0}"
    default: break
    }
    guard name.hasPrefix("#") else { return nil }
    var digits = name.dropFirst()
    var radix = 10
    if digits.first == "x" || digits.first == "X" {
      digits = digits.dropFirst()
      radix = 16
    }
    guard !digits.isEmpty, digits.count <= 8, let value = UInt32(digits, radix: radix) else {
      return nil
    }
    // NUL, surrogates and values past U+10FFFF are not characters.
    guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
    return String(Character(scalar))
  }

  private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\u{0C}" || scalar == "\r"
  }
}
