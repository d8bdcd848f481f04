import Foundation
import PlayheadCore

/// A JSON value of any shape (`PlayheadCore.JSONValue`), as the SDK's values keep it.
public typealias JSONValue = PlayheadCore.JSONValue

extension JSONValue {
  /// Parses JSON text with `JSONReader` (standard limits: 64 levels of nesting, linear time).
  ///
  /// Throws `PlayheadSDKError` with code `.malformedJSON` and the reader's message, which
  /// names the problem and its line and column (`nested deeper than 64 levels at line 1,
  /// column 65 (byte offset 64)`, `the text ends inside an array opened at …`).
  public init(data: Data) throws(PlayheadSDKError) {
    do {
      self = try JSONReader.read(data)
    } catch {
      throw PlayheadSDKError(.malformedJSON, error.message)
    }
  }

  /// The value as compact JSON text with sorted keys.
  ///
  /// Throws `.invalidValue` for a number that JSON cannot hold (NaN or an infinity).
  public func jsonData() throws(PlayheadSDKError) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do {
      return try encoder.encode(self)
    } catch {
      throw PlayheadSDKError(.invalidValue, "a value cannot be written as JSON (NaN or infinity)")
    }
  }
}
