import Foundation
import PlayheadCore

/// An error of the SDK value layer: bad catalog JSON, or a video with no source to play.
///
/// `message` is one line, naming the JSON path (`videos[1].sources[0].src`) where one applies.
public struct PlayheadSDKError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Code: String, Sendable, Equatable, Codable {
    /// The text is not JSON that `JSONReader` accepts (not well-formed, not UTF-8, nested
    /// deeper than 64 levels…); the message names the problem and its line and column.
    case malformedJSON
    /// A field the value needs is absent.
    case missingField
    /// A field has the wrong JSON type or an unusable value (such as a URL that does not parse).
    case invalidValue
    /// The source-selection policy found no source to play ("no playable source").
    case noPlayableSource
  }

  public var code: Code
  public var message: String
  /// The JSON path of the offending field, when the error is about JSON.
  public var path: String?

  public init(_ code: Code, _ message: String, path: String? = nil) {
    self.code = code
    self.message = message
    self.path = path
  }

  public var description: String { message }

  /// The same error as a `PlayheadError`, for layers that report only that type.
  ///
  /// `noPlayableSource` becomes `.noPlayableStreams`, `malformedJSON` becomes
  /// `.malformedJSON`; the other JSON errors become `.invalidArgument`.
  public var playheadError: PlayheadError {
    switch code {
    case .noPlayableSource: return PlayheadError(.noPlayableStreams, message)
    case .malformedJSON: return PlayheadError(.malformedJSON, message)
    case .missingField, .invalidValue:
      return PlayheadError(.invalidArgument, message)
    }
  }

  static func missing(_ path: String) -> PlayheadSDKError {
    PlayheadSDKError(.missingField, "missing field \(path)", path: path)
  }

  static func invalid(_ path: String, _ expected: String) -> PlayheadSDKError {
    PlayheadSDKError(.invalidValue, "field \(path) is not \(expected)", path: path)
  }
}
