import Foundation

/// Turns what a person types (a path or a URL) into a URL.
public enum URLArgument {
  /// Turns a command-line argument into a URL.
  ///
  /// An argument that starts with a scheme followed by `://` (`http://…`, `file:///…`,
  /// `ftp://…`) is parsed as a URL; anything else is a local path, absolute or relative to
  /// the current directory, with a leading `~` expanded. A URL that does not parse as
  /// written is parsed again with its unsafe characters percent-encoded.
  public static func url(fromArgument argument: String) -> URL {
    if hasScheme(argument) {
      if let url = URL(string: argument) { return url }
      let allowed = CharacterSet.urlFragmentAllowed.union(CharacterSet(charactersIn: "#"))
      if let encoded = argument.addingPercentEncoding(withAllowedCharacters: allowed),
        let url = URL(string: encoded)
      {
        return url
      }
    }
    let expanded = NSString(string: argument).expandingTildeInPath
    return URL(fileURLWithPath: expanded).standardizedFileURL
  }

  /// True when `text` starts with `scheme://`, the scheme being a letter followed by
  /// letters, digits, `+`, `-` or `.`.
  private static func hasScheme(_ text: String) -> Bool {
    guard let separator = text.range(of: "://") else { return false }
    let scheme = text[text.startIndex..<separator.lowerBound]
    let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    guard let first = scheme.first, letters.contains(first) else { return false }
    let allowed = letters + "0123456789+-."
    return scheme.allSatisfy { allowed.contains($0) }
  }
}
