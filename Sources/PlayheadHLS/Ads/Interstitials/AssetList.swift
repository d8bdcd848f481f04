import Foundation
import PlayheadCore

/// An HLS Interstitials asset list: the JSON document an `X-ASSET-LIST` URL returns,
/// `{"ASSETS": [{"URI": "…", "DURATION": 10.0}, …]}`.
///
/// Read it with `AssetList(data:url:limits:)`, which bounds the size, nesting and number
/// of assets, resolves each `URI` against the list's URL under the origin rule, and throws
/// an `AssetListError` for anything else. Fields other than `ASSETS`, `URI` and
/// `DURATION` (such as `SKIP-CONTROL`) are kept as JSON.
public struct AssetList: Sendable, Hashable {
  /// One asset to play, in order.
  public struct Asset: Sendable, Hashable {
    /// The asset's playlist, resolved.
    public var uri: URL
    /// `DURATION`, in seconds, as a time with microsecond precision.
    public var duration: MediaTime
    /// The asset object's other fields.
    public var otherFields: [String: JSONValue]

    public init(uri: URL, duration: MediaTime, otherFields: [String: JSONValue] = [:]) {
      self.uri = uri
      self.duration = duration
      self.otherFields = otherFields
    }
  }

  /// The bounds a document must stay within.
  public struct Limits: Sendable, Hashable {
    /// The largest document, in bytes (default 1 MiB).
    public var maxBytes: Int
    /// The most assets (default 1,000).
    public var maxAssets: Int
    /// How deep arrays and objects may nest (default 16).
    public var maxDepth: Int

    public init(maxBytes: Int = 1 << 20, maxAssets: Int = 1_000, maxDepth: Int = 16) {
      self.maxBytes = maxBytes
      self.maxAssets = maxAssets
      self.maxDepth = maxDepth
    }

    /// 1 MiB, 1,000 assets, 16 levels.
    public static let `default` = Limits()
  }

  /// The assets, in play order.
  public var assets: [Asset]
  /// The document's other top-level fields.
  public var otherFields: [String: JSONValue]

  public init(assets: [Asset], otherFields: [String: JSONValue] = [:]) {
    self.assets = assets
    self.otherFields = otherFields
  }

  /// The sum of the assets' durations.
  public var totalDuration: MediaTime {
    assets.reduce(MediaTime.zero) { $0 + $1.duration }
  }
}

/// Why an asset list could not be read.
public enum AssetListError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The document is larger than `Limits.maxBytes`.
  case tooLarge(byteCount: Int, limit: Int)
  /// The text is not JSON, or nests deeper than `Limits.maxDepth` (the reader's message).
  case malformedJSON(String)
  /// The document is not an object with an `ASSETS` array.
  case missingAssets
  /// More assets than `Limits.maxAssets`.
  case tooManyAssets(count: Int, limit: Int)
  /// Asset `index` is wrong: not an object, no string `URI`, a refused URI, or a
  /// `DURATION` that is not a non-negative finite number.
  case invalidAsset(index: Int, reason: String)

  /// A one-line description.
  public var description: String {
    switch self {
    case .tooLarge(let count, let limit):
      return "the asset list is \(count) bytes, more than the limit of \(limit)"
    case .malformedJSON(let message): return "the asset list is not JSON: \(message)"
    case .missingAssets: return "the asset list is not an object with an ASSETS array"
    case .tooManyAssets(let count, let limit):
      return "the asset list has \(count) assets, more than the limit of \(limit)"
    case .invalidAsset(let index, let reason): return "asset \(index): \(reason)"
    }
  }
}

extension AssetList {
  /// Reads the asset list in `data`, fetched from `url` (relative URIs resolve against it).
  ///
  /// Throws `.tooLarge` before reading anything past `limits.maxBytes`; then the JSON is
  /// read by the one bounded reader (`JSONReader`, linear in the input, nesting limited to
  /// `limits.maxDepth`). An empty `ASSETS` array is valid (nothing to play).
  public init(data: Data, url: URL, limits: Limits = .default) throws(AssetListError) {
    guard data.count <= limits.maxBytes else {
      throw .tooLarge(byteCount: data.count, limit: limits.maxBytes)
    }
    let value: JSONValue
    do throws(PlayheadError) {
      value = try JSONReader.read(data, limits: JSONReader.Limits(maxDepth: limits.maxDepth))
    } catch {
      throw .malformedJSON(error.message)
    }
    guard var fields = value.objectValue, let items = fields["ASSETS"]?.arrayValue else {
      throw .missingAssets
    }
    guard items.count <= limits.maxAssets else {
      throw .tooManyAssets(count: items.count, limit: limits.maxAssets)
    }
    fields["ASSETS"] = nil
    var assets: [Asset] = []
    assets.reserveCapacity(items.count)
    for (index, item) in items.enumerated() {
      assets.append(try Self.asset(item, index: index, base: url))
    }
    self.init(assets: assets, otherFields: fields)
  }

  private static func asset(_ item: JSONValue, index: Int, base: URL) throws(AssetListError)
    -> Asset
  {
    guard var fields = item.objectValue else {
      throw .invalidAsset(index: index, reason: "not an object")
    }
    guard let text = fields["URI"]?.stringValue else {
      throw .invalidAsset(index: index, reason: "no string URI")
    }
    let uri: URL
    switch AssetURIRule.resolve(text, against: base) {
    case .success(let url): uri = url
    case .failure(let problem): throw .invalidAsset(index: index, reason: "URI " + problem.message)
    }
    guard let seconds = fields["DURATION"]?.numberValue, seconds.isFinite, seconds >= 0,
      seconds < 1e12
    else {
      throw .invalidAsset(index: index, reason: "DURATION is not a non-negative number of seconds")
    }
    fields["URI"] = nil
    fields["DURATION"] = nil
    return Asset(
      uri: uri, duration: MediaTime(seconds: seconds, preferredTimescale: 1_000_000),
      otherFields: fields)
  }
}
