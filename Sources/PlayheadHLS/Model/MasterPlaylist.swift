import Foundation
import PlayheadCore

/// A master (multivariant) playlist: the variant streams of one presentation, their
/// alternative renditions and the session-wide data.
public struct MasterPlaylist: Sendable, Equatable {
  /// The URL the playlist was loaded from; relative URIs resolve against it.
  public var url: URL
  /// `EXT-X-VERSION`, when present.
  public var version: Int?
  /// `EXT-X-INDEPENDENT-SEGMENTS`: every segment of every media playlist starts with a
  /// key frame.
  public var independentSegments: Bool
  /// `EXT-X-START`, when present.
  public var start: StartPoint?
  /// `EXT-X-STREAM-INF` variants, in playlist order.
  public var variants: [Variant]
  /// `EXT-X-I-FRAME-STREAM-INF` variants, in playlist order.
  public var iFrameVariants: [IFrameVariant]
  /// `EXT-X-MEDIA` renditions, in playlist order.
  public var renditions: [Rendition]
  /// `EXT-X-SESSION-DATA` entries, in playlist order.
  public var sessionData: [SessionData]
  /// `EXT-X-SESSION-KEY` keys, in playlist order.
  public var sessionKeys: [EncryptionKey]
  /// `EXT-X-CONTENT-STEERING`, when present.
  public var contentSteering: ContentSteering?
  /// Variables defined by `EXT-X-DEFINE` (name to value); media playlists may import them.
  public var definitions: [String: String]
  /// Tags kept verbatim, in order.
  public var unknownTags: [UnknownTag]
  /// Recoverable oddities found while parsing.
  public var warnings: [ParseWarning]
  /// The source text of substituted values, for the writer (not compared).
  var substitutionSources = SubstitutionSources()

  public init(
    url: URL, version: Int? = nil, independentSegments: Bool = false, start: StartPoint? = nil,
    variants: [Variant] = [], iFrameVariants: [IFrameVariant] = [],
    renditions: [Rendition] = [], sessionData: [SessionData] = [],
    sessionKeys: [EncryptionKey] = [], contentSteering: ContentSteering? = nil,
    definitions: [String: String] = [:], unknownTags: [UnknownTag] = [],
    warnings: [ParseWarning] = []
  ) {
    self.url = url
    self.version = version
    self.independentSegments = independentSegments
    self.start = start
    self.variants = variants
    self.iFrameVariants = iFrameVariants
    self.renditions = renditions
    self.sessionData = sessionData
    self.sessionKeys = sessionKeys
    self.contentSteering = contentSteering
    self.definitions = definitions
    self.unknownTags = unknownTags
    self.warnings = warnings
  }

  /// The renditions of `type` whose `GROUP-ID` is `groupID`, in playlist order.
  public func renditions(ofType type: RenditionType, groupID: String) -> [Rendition] {
    renditions.filter { $0.type == type && $0.groupID == groupID }
  }
}

/// A picture size in pixels (`RESOLUTION=1920x1080`).
public struct Resolution: Sendable, Hashable, CustomStringConvertible {
  public var width: Int
  public var height: Int

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// `width × height`, saturating instead of overflowing.
  public var pixelCount: Int {
    let (product, overflow) = width.multipliedReportingOverflow(by: height)
    return overflow ? Int.max : product
  }

  /// `WxH`, as written in playlists.
  public var description: String { "\(width)x\(height)" }
}

/// An `EXT-X-STREAM-INF` variant stream: one media playlist and the renditions it uses.
public struct Variant: Sendable, Equatable {
  /// The media playlist's URI as written, after variable substitution.
  public var uriString: String
  /// The URL `uriString` is relative to (the master playlist's URL).
  public var baseURL: URL
  /// `BANDWIDTH`: the peak bit rate, in bits per second.
  public var bandwidth: Int
  /// `AVERAGE-BANDWIDTH`, in bits per second.
  public var averageBandwidth: Int?
  /// `CODECS`, e.g. `avc1.64001f,mp4a.40.2`.
  public var codecs: String?
  /// `RESOLUTION`.
  public var resolution: Resolution?
  /// `FRAME-RATE`, in frames per second.
  public var frameRate: Double?
  /// `HDCP-LEVEL` (`TYPE-0`, `TYPE-1` or `NONE`).
  public var hdcpLevel: String?
  /// `AUDIO`: the `GROUP-ID` of the audio renditions.
  public var audioGroup: String?
  /// `VIDEO`: the `GROUP-ID` of the video renditions.
  public var videoGroup: String?
  /// `SUBTITLES`: the `GROUP-ID` of the subtitle renditions.
  public var subtitlesGroup: String?
  /// `CLOSED-CAPTIONS`: the `GROUP-ID` of the closed-caption renditions, or `NONE`.
  public var closedCaptions: String?
  /// `PATHWAY-ID` (content steering).
  public var pathwayID: String?
  /// `STABLE-VARIANT-ID`.
  public var stableVariantID: String?
  /// Every attribute of the tag as written (quotes removed, variables substituted),
  /// including those not modelled above (`SCORE`, `VIDEO-RANGE`, …).
  public var attributes: [String: String]

  public init(
    uri: URL, bandwidth: Int, averageBandwidth: Int? = nil, codecs: String? = nil,
    resolution: Resolution? = nil, frameRate: Double? = nil, hdcpLevel: String? = nil,
    audioGroup: String? = nil, videoGroup: String? = nil, subtitlesGroup: String? = nil,
    closedCaptions: String? = nil, pathwayID: String? = nil, stableVariantID: String? = nil,
    attributes: [String: String] = [:]
  ) {
    (self.uriString, self.baseURL) = URIResolution.parts(of: uri)
    self.bandwidth = bandwidth
    self.averageBandwidth = averageBandwidth
    self.codecs = codecs
    self.resolution = resolution
    self.frameRate = frameRate
    self.hdcpLevel = hdcpLevel
    self.audioGroup = audioGroup
    self.videoGroup = videoGroup
    self.subtitlesGroup = subtitlesGroup
    self.closedCaptions = closedCaptions
    self.pathwayID = pathwayID
    self.stableVariantID = stableVariantID
    self.attributes = attributes
  }

  /// The media playlist's absolute URL (`uriString` resolved against `baseURL`).
  ///
  /// Setting it stores the URL's absolute string.
  public var uri: URL {
    get { URIResolution.resolve(uriString, against: baseURL) ?? baseURL }
    set { (uriString, baseURL) = URIResolution.parts(of: newValue) }
  }
}

/// An `EXT-X-I-FRAME-STREAM-INF` variant: a media playlist of key frames only, for trick
/// play and thumbnails.
public struct IFrameVariant: Sendable, Equatable {
  /// The I-frame playlist's URI as written, after variable substitution.
  public var uriString: String
  /// The URL `uriString` is relative to.
  public var baseURL: URL
  /// `BANDWIDTH`, in bits per second.
  public var bandwidth: Int
  /// `AVERAGE-BANDWIDTH`, in bits per second.
  public var averageBandwidth: Int?
  /// `CODECS`.
  public var codecs: String?
  /// `RESOLUTION`.
  public var resolution: Resolution?
  /// `VIDEO`: the `GROUP-ID` of the video renditions.
  public var videoGroup: String?
  /// Every attribute of the tag as written (quotes removed, variables substituted).
  public var attributes: [String: String]

  public init(
    uri: URL, bandwidth: Int, averageBandwidth: Int? = nil, codecs: String? = nil,
    resolution: Resolution? = nil, videoGroup: String? = nil, attributes: [String: String] = [:]
  ) {
    (self.uriString, self.baseURL) = URIResolution.parts(of: uri)
    self.bandwidth = bandwidth
    self.averageBandwidth = averageBandwidth
    self.codecs = codecs
    self.resolution = resolution
    self.videoGroup = videoGroup
    self.attributes = attributes
  }

  /// The I-frame playlist's absolute URL.
  public var uri: URL {
    get { URIResolution.resolve(uriString, against: baseURL) ?? baseURL }
    set { (uriString, baseURL) = URIResolution.parts(of: newValue) }
  }
}

/// The `TYPE` of an `EXT-X-MEDIA` rendition.
public enum RenditionType: String, Sendable, CaseIterable {
  case audio = "AUDIO"
  case video = "VIDEO"
  case subtitles = "SUBTITLES"
  case closedCaptions = "CLOSED-CAPTIONS"
}

/// An `EXT-X-MEDIA` rendition: an alternative audio, video, subtitle or caption track.
public struct Rendition: Sendable, Equatable {
  /// `TYPE`.
  public var type: RenditionType
  /// `GROUP-ID`: variants name the group they use.
  public var groupID: String
  /// `NAME`: a human-readable description.
  public var name: String
  /// `LANGUAGE` (RFC 5646 tag).
  public var language: String?
  /// `ASSOC-LANGUAGE`.
  public var assocLanguage: String?
  /// `DEFAULT=YES`.
  public var isDefault: Bool
  /// `AUTOSELECT=YES`.
  public var autoselect: Bool
  /// `FORCED=YES` (subtitles only).
  public var forced: Bool
  /// `INSTREAM-ID` (closed captions only), e.g. `CC1` or `SERVICE3`.
  public var instreamID: String?
  /// `CHARACTERISTICS`: comma-separated UTIs.
  public var characteristics: String?
  /// `CHANNELS`, e.g. `6` or `16/JOC`.
  public var channels: String?
  /// The rendition's media playlist URI as written, or nil when the rendition is carried
  /// in the variant's own stream.
  public var uriString: String?
  /// The URL `uriString` is relative to.
  public var baseURL: URL
  /// Every attribute of the tag as written (quotes removed, variables substituted).
  public var attributes: [String: String]

  public init(
    type: RenditionType, groupID: String, name: String, language: String? = nil,
    assocLanguage: String? = nil, isDefault: Bool = false, autoselect: Bool = false,
    forced: Bool = false, instreamID: String? = nil, characteristics: String? = nil,
    channels: String? = nil, uri: URL? = nil, baseURL: URL, attributes: [String: String] = [:]
  ) {
    self.type = type
    self.groupID = groupID
    self.name = name
    self.language = language
    self.assocLanguage = assocLanguage
    self.isDefault = isDefault
    self.autoselect = autoselect
    self.forced = forced
    self.instreamID = instreamID
    self.characteristics = characteristics
    self.channels = channels
    self.uriString = uri?.absoluteString
    self.baseURL = baseURL
    self.attributes = attributes
  }

  /// The rendition's media playlist as an absolute URL, or nil.
  public var uri: URL? {
    get { uriString.flatMap { URIResolution.resolve($0, against: baseURL) } }
    set { uriString = newValue?.absoluteString }
  }
}

/// `EXT-X-SESSION-DATA`: arbitrary session data, inline or by URI.
public struct SessionData: Sendable, Equatable {
  /// `DATA-ID`, reverse-DNS, e.g. `com.example.title`.
  public var dataID: String
  /// `VALUE`, when the data is inline.
  public var value: String?
  /// `URI` as written, when the data is a resource.
  public var uriString: String?
  /// The URL `uriString` is relative to.
  public var baseURL: URL
  /// `FORMAT`: `JSON` (the default) or `RAW`.
  public var format: String?
  /// `LANGUAGE`.
  public var language: String?

  public init(
    dataID: String, value: String? = nil, uriString: String? = nil, baseURL: URL,
    format: String? = nil, language: String? = nil
  ) {
    self.dataID = dataID
    self.value = value
    self.uriString = uriString
    self.baseURL = baseURL
    self.format = format
    self.language = language
  }

  /// The resource's absolute URL, or nil.
  public var uri: URL? {
    uriString.flatMap { URIResolution.resolve($0, against: baseURL) }
  }
}

/// `EXT-X-CONTENT-STEERING`: the steering server that orders pathways.
public struct ContentSteering: Sendable, Equatable {
  /// `SERVER-URI` as written.
  public var serverURIString: String
  /// The URL `serverURIString` is relative to.
  public var baseURL: URL
  /// `PATHWAY-ID`: the pathway to use until the server answers.
  public var pathwayID: String?

  public init(serverURIString: String, baseURL: URL, pathwayID: String? = nil) {
    self.serverURIString = serverURIString
    self.baseURL = baseURL
    self.pathwayID = pathwayID
  }

  /// The steering server's absolute URL.
  public var serverURI: URL {
    URIResolution.resolve(serverURIString, against: baseURL) ?? baseURL
  }
}
