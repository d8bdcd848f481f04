import Foundation
import PlayheadCore

/// Parses WebVTT files (W3C WebVTT, the format of HTML `<track>` captions and of HLS
/// subtitle segments) into `WebVTTDocument`s.
///
/// Parsing follows the WebVTT parser algorithm over the UTF-8 bytes in one pass, in time
/// linear in the input. The bad-input policy: only a missing `WEBVTT` signature and an
/// exceeded `WebVTTParserLimits` are fatal (a `WebVTTError` naming the line); everything
/// else the WebVTT algorithm recovers from (a malformed timing line, a cue that ends
/// before it starts, an unknown setting, a `STYLE` block after a cue, …) is skipped or
/// corrected and reported in the document's `warnings`.
///
/// ```swift
/// let document = try WebVTTParser.parse(data)
/// for cue in document.cues { print(cue.start, cue.end, cue.plainText) }
/// ```
public enum WebVTTParser {
  /// Parses the bytes of a WebVTT file.
  ///
  /// A leading UTF-8 byte-order mark is skipped; LF, CRLF and lone CR line breaks are
  /// accepted; invalid UTF-8 and NUL characters become U+FFFD in the text.
  public static func parse(_ data: Data, limits: WebVTTParserLimits = .default)
    throws(WebVTTError) -> WebVTTDocument
  {
    guard data.count <= limits.maxBytes else {
      throw WebVTTError(
        .limitExceeded, line: 0,
        "the file is \(data.count) bytes, more than the limit of \(limits.maxBytes)")
    }
    let result: Result<WebVTTDocument, WebVTTError> = data.withUnsafeBytes { raw in
      var builder = WebVTTDocumentBuilder(
        text: ByteText(bytes: raw.bindMemory(to: UInt8.self)), limits: limits)
      do throws(WebVTTError) {
        return .success(try builder.build())
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Parses WebVTT text (see `parse(_:limits:)` for `Data`; the size limit applies to the
  /// text's UTF-8 bytes).
  public static func parse(_ text: String, limits: WebVTTParserLimits = .default)
    throws(WebVTTError) -> WebVTTDocument
  {
    try parse(Data(text.utf8), limits: limits)
  }
}
