/// Conversions of the ASS text FFmpeg's subtitle decoders give.
public enum SubtitleText {
  /// The Text field of an ASS event line (`ReadOrder,Layer,Style,Name,MarginL,MarginR,
  /// MarginV,Effect,Text`): everything after the eighth comma, commas in it kept; the
  /// whole line when it has fewer fields.
  public static func text(ofASSEvent line: String) -> String {
    var commas = 0
    for index in line.indices where line[index] == "," {
      commas += 1
      if commas == 8 { return String(line[line.index(after: index)...]) }
    }
    return line
  }

  /// ASS event text as WebVTT cue markup.
  ///
  /// Override blocks (`{…}`) are dropped except `\i1`/`\i0`, `\b1`/`\b0`, `\u1`/`\u0`
  /// (a `\b` weight above 400 counts as bold), which open and close `<i>`, `<b>`, `<u>`;
  /// tags left open are closed at the end. `\N` and `\n` are line breaks, `\h` a space;
  /// `&`, `<` and `>` become character references. An unclosed `{` drops the rest.
  public static func webVTTMarkup(ofASSText text: String) -> String {
    var output = ""
    var open: [Character] = []
    var characters = Array(text)[...]
    while let character = characters.first {
      characters = characters.dropFirst()
      switch character {
      case "{":
        guard let close = characters.firstIndex(of: "}") else {
          characters = []
          break
        }
        applyOverrides(String(characters[..<close]), open: &open, output: &output)
        characters = characters[characters.index(after: close)...]
      case "\\" where characters.first == "N" || characters.first == "n":
        output.append("\n")
        characters = characters.dropFirst()
      case "\\" where characters.first == "h":
        output.append(" ")
        characters = characters.dropFirst()
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      default: output.append(character)
      }
    }
    for tag in open.reversed() { output += "</\(tag)>" }
    return output
  }

  /// Applies the style switches of one override block (`\i1\b0…`).
  private static func applyOverrides(_ block: String, open: inout [Character], output: inout String)
  {
    for override in block.split(separator: "\\") {
      guard let tag = override.first, "ibu".contains(tag) else { continue }
      let value = override.dropFirst()
      guard !value.isEmpty, value.allSatisfy(\.isNumber), let number = Int(value) else { continue }
      let on = tag == "b" ? number == 1 || number > 400 : number != 0
      let isOpen = open.contains(tag)
      if on && !isOpen {
        output += "<\(tag)>"
        open.append(tag)
      } else if !on && isOpen {
        // Close the tags opened after it too, then reopen them: markup stays nested.
        let position = open.lastIndex(of: tag)!
        let reopened = open[(position + 1)...]
        for inner in ([tag] + reopened).reversed() { output += "</\(inner)>" }
        open.remove(at: position)
        for inner in reopened { output += "<\(inner)>" }
      }
    }
  }
}
