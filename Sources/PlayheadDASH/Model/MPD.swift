import Foundation
import PlayheadCore

/// A DASH Media Presentation Description (ISO/IEC 23009-1), as `MPDParser` reads it:
/// attributes parsed, BaseURLs resolved, segment information inherited down to each
/// Representation, Period starts chained.
public struct MPD: Sendable {
  /// `@type`.
  public enum PresentationType: String, Sendable, Hashable {
    /// On demand: the whole presentation is known.
    case `static`
    /// Live: segments become available over time and the MPD is reloaded.
    case dynamic
  }

  /// Where the MPD was loaded from (relative URLs resolve against it, or a `BaseURL`).
  public var url: URL
  public var type: PresentationType
  public var id: String?
  /// `@profiles`, split at commas.
  public var profiles: [String]
  public var mediaPresentationDuration: MediaTime?
  public var minBufferTime: MediaTime?
  public var minimumUpdatePeriod: MediaTime?
  public var timeShiftBufferDepth: MediaTime?
  public var suggestedPresentationDelay: MediaTime?
  public var maxSegmentDuration: MediaTime?
  public var availabilityStartTime: Date?
  public var availabilityEndTime: Date?
  public var publishTime: Date?
  /// `Location` elements, resolved: where to reload the MPD from.
  public var locations: [URL]
  /// The MPD-level `BaseURL`s, resolved (several: alternatives in order).
  public var baseURLs: [URL]
  /// `UTCTiming` elements (`urn:mpeg:dash:utc:http-iso:2014`, `…http-xsdate…`, `…direct…`).
  public var utcTimings: [MPDDescriptor]
  public var essentialProperties: [MPDDescriptor]
  public var supplementalProperties: [MPDDescriptor]
  /// The Periods in order, each with its start on the presentation timeline.
  public var periods: [MPDPeriod]
}

/// A `Period`: a stretch of the presentation with its own adaptation sets.
public struct MPDPeriod: Sendable {
  public var id: String?
  /// Where it starts on the presentation timeline: `@start`, else the previous Period's
  /// end, else 0 for the first Period of a static MPD.
  public var start: MediaTime
  /// `@duration`, else up to the next Period's start, else up to the presentation's end
  /// (`mediaPresentationDuration`); nil when nothing says (a live Period still open).
  public var duration: MediaTime?
  public var baseURLs: [URL]
  public var adaptationSets: [MPDAdaptationSet]
  public var eventStreams: [MPDEventStream]

  /// Where it ends, when known.
  public var end: MediaTime? { duration.map { start + $0 } }
}

/// An `AdaptationSet`: interchangeable encodings of one component.
public struct MPDAdaptationSet: Sendable {
  public var id: String?
  /// `@contentType`, else the first part of `@mimeType` (`video`, `audio`, `text`,
  /// `image`).
  public var contentType: String?
  public var mimeType: String?
  public var codecs: String?
  public var language: String?
  public var roles: [MPDDescriptor]
  public var accessibilities: [MPDDescriptor]
  public var labels: [String]
  public var frameRate: String?
  public var par: String?
  public var sar: String?
  public var width: Int?
  public var height: Int?
  public var segmentAlignment: Bool
  public var essentialProperties: [MPDDescriptor]
  public var supplementalProperties: [MPDDescriptor]
  public var contentProtections: [MPDContentProtection]
  public var inbandEventStreams: [MPDDescriptor]
  public var representations: [MPDRepresentation]

  /// DASH-IF's trick-mode scheme: an I-frame set for fast seeking, not for playback.
  public var isTrickMode: Bool {
    essentialProperties.contains { $0.schemeIDURI == "http://dashif.org/guidelines/trickmode" }
  }

  /// DASH-IF's thumbnail tiles: an image set whose segments are grids of thumbnails, the
  /// descriptor on the set or on any of its Representations (see `thumbnailTileDescriptor`).
  public var isThumbnailTiles: Bool {
    contentType == "image"
      && ((essentialProperties + supplementalProperties).contains(where: \.isThumbnailTile)
        || representations.contains { representation in
          (representation.essentialProperties + representation.supplementalProperties)
            .contains(where: \.isThumbnailTile)
        })
  }
}

/// A `Representation`: one encoding, with everything inherited from above resolved.
public struct MPDRepresentation: Sendable {
  public var id: String
  public var bandwidth: Int
  public var codecs: String?
  public var mimeType: String?
  public var width: Int?
  public var height: Int?
  public var frameRate: String?
  public var audioSamplingRate: String?
  /// Its BaseURLs, resolved through every level (several: alternatives in order, S7).
  public var baseURLs: [URL]
  /// Its protection, with the AdaptationSet's.
  public var contentProtections: [MPDContentProtection]
  /// How its segments are addressed.
  public var addressing: MPDSegmentAddressing
  /// Its own `EssentialProperty` elements (its AdaptationSet's are on the set).
  public var essentialProperties: [MPDDescriptor] = []
  /// Its own `SupplementalProperty` elements.
  public var supplementalProperties: [MPDDescriptor] = []

  /// The URL segment paths resolve against: the first BaseURL.
  public var baseURL: URL? { baseURLs.first }
}

/// A descriptor element (`Role`, `Accessibility`, `EssentialProperty`, `UTCTiming`, …).
public struct MPDDescriptor: Sendable, Hashable {
  public var schemeIDURI: String
  public var value: String?
  public var id: String?

  public init(schemeIDURI: String, value: String? = nil, id: String? = nil) {
    self.schemeIDURI = schemeIDURI
    self.value = value
    self.id = id
  }
}

/// A `ContentProtection` element.
public struct MPDContentProtection: Sendable, Hashable {
  public var schemeIDURI: String
  public var value: String?
  /// `cenc:default_KID`, lowercased, without dashes (32 hex digits).
  public var defaultKID: String?
  /// `cenc:pssh` boxes, decoded.
  public var pssh: [Data]
  /// A ClearKey licence server (`clearkey:Laurl`, `dashif:laurl`), resolved.
  public var licenseURL: URL?
}

/// An `EventStream` of a Period.
public struct MPDEventStream: Sendable, Hashable {
  public var schemeIDURI: String
  public var value: String?
  public var timescale: Int64
  public var presentationTimeOffset: Int64
  public var events: [MPDEvent]
}

/// An `Event`: its time relative to its Period's start, and its message.
public struct MPDEvent: Sendable, Hashable {
  public var id: String?
  /// `(@presentationTime - @presentationTimeOffset) / @timescale`.
  public var presentationTime: MediaTime
  public var duration: MediaTime?
  /// `@messageData`, else the element's text.
  public var message: String
}
