import Foundation

/// The one reader of JSON bytes in Playhead: RFC 8259 text to a `JSONValue` tree, in one
/// pass whose work is linear in the input, with a nesting limit.
///
/// Every refusal is a `PlayheadError` with code `.malformedJSON` and a one-line message that
/// names the problem and where it is, such as `nested deeper than 64 levels at line 1,
/// column 65 (byte offset 64)`. Beyond RFC 8259 the reader refuses, so that two readers can
/// never disagree about a document: a key that appears twice in one object, a number
/// outside `Double`'s range, a `\u` escape that is half of a surrogate pair, bytes that are
/// not UTF-8, and anything past `limits`. A UTF-8 byte-order mark at the start is skipped.
///
/// ```swift
/// let value = try JSONReader.read(body)          // the catalog, a playlist file…
/// let plan = try JSONReader.decode(Plan.self, from: data, limits: .localState)
/// ```
public enum JSONReader {
  /// How deep arrays and objects may nest by default: `[[1]]` is 2 levels deep.
  ///
  /// Playback API responses and playlist files nest about 5 levels; 64 leaves room for
  /// custom fields while keeping the recursive work on a value (comparing, writing,
  /// destroying it) small on any thread.
  public static let defaultMaxDepth = 64

  /// The deepest nesting any `Limits` allows; a larger `maxDepth` is lowered to this.
  ///
  /// The reader itself keeps open arrays and objects on a stack of its own, but the
  /// `JSONValue` it returns is destroyed, compared and written (`JSONEncoder`)
  /// recursively: 128 levels keep that within a 512 KiB thread stack even in a debug build.
  public static let maxAllowedDepth = 128

  /// The bounds a document must stay within.
  public struct Limits: Sendable, Equatable {
    /// How many arrays and objects may be open at once (`0...maxAllowedDepth`).
    public var maxDepth: Int
    /// The longest string, in UTF-8 bytes after escapes are decoded.
    public var maxStringBytes: Int
    /// The longest number, in characters (`-12.5e3` is 7).
    public var maxNumberLength: Int

    /// Creates limits; `maxDepth` is clamped to `0...JSONReader.maxAllowedDepth` and the
    /// lengths to at least 1.
    public init(
      maxDepth: Int = JSONReader.defaultMaxDepth, maxStringBytes: Int = 1 << 20,
      maxNumberLength: Int = 1_000
    ) {
      self.maxDepth = min(max(0, maxDepth), JSONReader.maxAllowedDepth)
      self.maxStringBytes = max(1, maxStringBytes)
      self.maxNumberLength = max(1, maxNumberLength)
    }

    /// For text from the network or the user: 64 levels, strings up to 1 MiB, numbers up
    /// to 1,000 characters.
    public static let standard = Limits()

    /// For the files Playhead writes itself (offline manifests, download plans, cache
    /// indexes), whose strings can hold a whole rewritten playlist: 64 levels, strings up
    /// to 256 MiB.
    public static let localState = Limits(maxStringBytes: 256 << 20)
  }

  /// Parses JSON text into a value.
  ///
  /// Throws `.malformedJSON` for empty text, text that is not JSON, text past `limits`, or
  /// text after the value (see the type for the rules).
  public static func read(_ data: Data, limits: Limits = .standard) throws(PlayheadError)
    -> JSONValue
  {
    var workUnits = 0
    return try read(data, limits: limits, workUnits: &workUnits)
  }

  /// Parses JSON text into a value and adds the work it took to `workUnits`.
  ///
  /// A work unit is one step of the parser: one byte examined, one byte copied into a
  /// string, one key byte hashed or one value built. The count is the same on every
  /// machine, so tests and benchmarks can check that the work grows linearly with the
  /// input; a refused document counts the work done up to the refusal.
  public static func read(_ data: Data, limits: Limits = .standard, workUnits: inout Int)
    throws(PlayheadError) -> JSONValue
  {
    let outcome: Result<JSONValue, PlayheadError> = data.withUnsafeBytes { raw in
      var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self), limits: limits)
      defer { workUnits += parser.workUnits }
      do throws(JSONParseFailure) {
        return .success(try parser.document())
      } catch {
        return .failure(error.playheadError(in: parser.bytes))
      }
    }
    return try outcome.get()
  }
}
