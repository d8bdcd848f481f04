import Foundation

/// What to ask the Playback API for: a video or playlist by ID or reference ID, with the
/// playback-authorization token, a bumper, paging and ad / delivery configurations.
///
/// The seed's configuration dictionary (`ConfigurationKeyAssetID`, `…ReferenceID`,
/// `…AuthToken`, `…BumperID`, `…BumperReferenceID`) as a typed value. When both `assetID`
/// and `referenceID` are given, the ID wins; likewise `bumperID` over `bumperReferenceID`.
/// Empty strings count as absent.
public struct PlaybackServiceRequest: Sendable, Equatable, Hashable {
  /// The video or playlist ID. One that starts with `ref:` is read as a reference ID.
  public var assetID: String?
  /// The reference ID (without the `ref:` prefix the API path uses).
  public var referenceID: String?
  /// A playback-authorization token (a JWT), sent as `Authorization: Bearer <token>`.
  public var authToken: String?
  /// The ID of a bumper video to fetch with the content.
  public var bumperID: String?
  /// The reference ID of a bumper video (used when `bumperID` is absent).
  public var bumperReferenceID: String?
  /// Playlists: how many videos to return (`limit`, the API allows 1…100); nil = the
  /// API's default (20).
  public var limit: Int?
  /// Playlists: how many videos to skip (`offset`); nil = 0.
  public var offset: Int?
  /// An SSAI ad configuration (`ad_config_id`).
  public var adConfigID: String?
  /// A delivery-rules configuration (`config_id`).
  public var deliveryConfigID: String?
  /// Header fields for this request only; they replace the service's extra headers of the
  /// same name (the policy key and token headers are the service's own and win).
  public var headers: [String: String]

  /// Creates a request; every part is optional (a request with no ID is refused when sent).
  public init(
    assetID: String? = nil, referenceID: String? = nil, authToken: String? = nil,
    bumperID: String? = nil, bumperReferenceID: String? = nil, limit: Int? = nil,
    offset: Int? = nil, adConfigID: String? = nil, deliveryConfigID: String? = nil,
    headers: [String: String] = [:]
  ) {
    self.assetID = assetID
    self.referenceID = referenceID
    self.authToken = authToken
    self.bumperID = bumperID
    self.bumperReferenceID = bumperReferenceID
    self.limit = limit
    self.offset = offset
    self.adConfigID = adConfigID
    self.deliveryConfigID = deliveryConfigID
    self.headers = headers
  }

  /// A request for `identifier`: an ID, or `ref:REF` for a reference ID.
  public init(identifier: String, authToken: String? = nil) {
    if identifier.hasPrefix(Self.referencePrefix) {
      self.init(
        referenceID: String(identifier.dropFirst(Self.referencePrefix.count)),
        authToken: authToken)
    } else {
      self.init(assetID: identifier, authToken: authToken)
    }
  }

  /// The prefix that marks a reference ID in the API's paths.
  public static let referencePrefix = "ref:"

  /// The API path segment for the asset (`ID` or `ref:REF`, percent-encoded); nil when the
  /// request names neither.
  var pathIdentifier: String? {
    Self.pathIdentifier(id: assetID, reference: referenceID)
  }

  /// The API path segment for the bumper; nil when no bumper was asked for.
  var bumperPathIdentifier: String? {
    Self.pathIdentifier(id: bumperID, reference: bumperReferenceID)
  }

  /// `id` wins over `reference`; an `id` that starts with `ref:` is a reference.
  static func pathIdentifier(id: String?, reference: String?) -> String? {
    if let id, !id.isEmpty {
      if id.hasPrefix(referencePrefix) {
        let rest = String(id.dropFirst(referencePrefix.count))
        return rest.isEmpty ? nil : referencePrefix + PlaybackServiceURL.encode(rest)
      }
      return PlaybackServiceURL.encode(id)
    }
    if let reference, !reference.isEmpty {
      return referencePrefix + PlaybackServiceURL.encode(reference)
    }
    return nil
  }
}
