import PlayheadCore

/// One `<Creative>`: a Linear, NonLinearAds or CompanionAds part (a creative holds one).
public struct VASTCreative: Sendable, Equatable {
  /// The `id` attribute.
  public var id: String?
  /// The `sequence` attribute.
  public var sequence: Int?
  /// The `adId` attribute (`AdID` in VAST 2).
  public var adID: String?
  /// `<UniversalAdId>` elements (VAST 4).
  public var universalAdIDs: [VASTUniversalAdID]
  public var linear: VASTLinear?
  public var nonLinearAds: VASTNonLinearAds?
  public var companionAds: VASTCompanionAds?

  public init(
    id: String? = nil, sequence: Int? = nil, adID: String? = nil,
    universalAdIDs: [VASTUniversalAdID] = [], linear: VASTLinear? = nil,
    nonLinearAds: VASTNonLinearAds? = nil, companionAds: VASTCompanionAds? = nil
  ) {
    self.id = id
    self.sequence = sequence
    self.adID = adID
    self.universalAdIDs = universalAdIDs
    self.linear = linear
    self.nonLinearAds = nonLinearAds
    self.companionAds = companionAds
  }
}

/// `<UniversalAdId idRegistry="…">value</UniversalAdId>`.
public struct VASTUniversalAdID: Sendable, Equatable {
  public var idRegistry: String?
  public var value: String

  public init(idRegistry: String?, value: String) {
    self.idRegistry = idRegistry
    self.value = value
  }
}

/// One `<Tracking event="…">` URL.
public struct VASTTracking: Sendable, Equatable {
  /// The event name as written (`start`, `firstQuartile`, `progress`, `breakStart`, …).
  public var event: String
  /// The URL, trimmed, macros unexpanded; empty when the element was (kept so that counts
  /// match the document; a beacon skips it).
  public var url: String
  /// The `offset` of a `progress` event; nil for other events (an `offset` on them is
  /// ignored) and when unparseable.
  public var offset: VASTOffset?

  public init(event: String, url: String, offset: VASTOffset? = nil) {
    self.event = event
    self.url = url
    self.offset = offset
  }
}

/// `<VideoClicks>` of a Linear (and `<NonLinearClickTracking>`-like lists elsewhere).
public struct VASTVideoClicks: Sendable, Equatable {
  /// `<ClickThrough>`: the page to open.
  public var clickThrough: String?
  /// `<ClickTracking>` URLs to ping on a click.
  public var clickTracking: [String]
  /// `<CustomClick>` URLs.
  public var customClicks: [String]

  public init(
    clickThrough: String? = nil, clickTracking: [String] = [], customClicks: [String] = []
  ) {
    self.clickThrough = clickThrough
    self.clickTracking = clickTracking
    self.customClicks = customClicks
  }
}

/// `<AdParameters>`: opaque data for an interactive creative.
public struct VASTAdParameters: Sendable, Equatable {
  public var value: String
  /// The `xmlEncoded` attribute.
  public var xmlEncoded: Bool

  public init(value: String, xmlEncoded: Bool = false) {
    self.value = value
    self.xmlEncoded = xmlEncoded
  }
}

/// A `<Linear>` creative: the video ad itself.
public struct VASTLinear: Sendable, Equatable {
  /// `<Duration>`; nil when absent or not a clock value (take it from the media then).
  public var duration: MediaTime?
  /// `<Duration>` as written.
  public var durationText: String?
  /// `skipoffset`: when the ad may be skipped; nil when not skippable.
  public var skipOffset: VASTOffset?
  /// `<MediaFiles><MediaFile>` in document order (not Mezzanine nor interactive files).
  public var mediaFiles: [VASTMediaFile]
  /// `<Mezzanine>` files (VAST 4), kept for servers that transcode.
  public var mezzanines: [VASTMezzanine]
  /// `<InteractiveCreativeFile>` elements (VAST 4), kept; Playhead runs no JavaScript.
  public var interactiveCreativeFiles: [VASTInteractiveCreativeFile]
  /// `<TrackingEvents><Tracking>` in document order.
  public var trackingEvents: [VASTTracking]
  public var videoClicks: VASTVideoClicks?
  public var adParameters: VASTAdParameters?
  public var icons: [VASTIcon]

  public init(
    duration: MediaTime? = nil, durationText: String? = nil, skipOffset: VASTOffset? = nil,
    mediaFiles: [VASTMediaFile] = [], mezzanines: [VASTMezzanine] = [],
    interactiveCreativeFiles: [VASTInteractiveCreativeFile] = [],
    trackingEvents: [VASTTracking] = [], videoClicks: VASTVideoClicks? = nil,
    adParameters: VASTAdParameters? = nil, icons: [VASTIcon] = []
  ) {
    self.duration = duration
    self.durationText = durationText
    self.skipOffset = skipOffset
    self.mediaFiles = mediaFiles
    self.mezzanines = mezzanines
    self.interactiveCreativeFiles = interactiveCreativeFiles
    self.trackingEvents = trackingEvents
    self.videoClicks = videoClicks
    self.adParameters = adParameters
    self.icons = icons
  }

  /// The tracking URLs of `event`, in document order.
  public func trackingURLs(for event: String) -> [String] {
    trackingEvents.filter { $0.event == event }.map(\.url)
  }
}

/// One `<MediaFile>`.
public struct VASTMediaFile: Sendable, Equatable {
  /// The URL, trimmed (possibly relative to the VAST response).
  public var url: String
  public var id: String?
  /// `progressive` or `streaming`.
  public var delivery: String?
  /// The MIME type (`video/mp4`, `application/x-mpegURL`, `application/javascript`).
  public var type: String?
  public var width: Int?
  public var height: Int?
  /// `bitrate`, in kbit/s.
  public var bitrateKbps: Int?
  public var minBitrateKbps: Int?
  public var maxBitrateKbps: Int?
  public var codec: String?
  /// `apiFramework` (`VPAID` marks a JavaScript unit a native player cannot run).
  public var apiFramework: String?
  public var scalable: Bool?
  public var maintainAspectRatio: Bool?

  public init(
    url: String, id: String? = nil, delivery: String? = nil, type: String? = nil,
    width: Int? = nil, height: Int? = nil, bitrateKbps: Int? = nil, minBitrateKbps: Int? = nil,
    maxBitrateKbps: Int? = nil, codec: String? = nil, apiFramework: String? = nil,
    scalable: Bool? = nil, maintainAspectRatio: Bool? = nil
  ) {
    self.url = url
    self.id = id
    self.delivery = delivery
    self.type = type
    self.width = width
    self.height = height
    self.bitrateKbps = bitrateKbps
    self.minBitrateKbps = minBitrateKbps
    self.maxBitrateKbps = maxBitrateKbps
    self.codec = codec
    self.apiFramework = apiFramework
    self.scalable = scalable
    self.maintainAspectRatio = maintainAspectRatio
  }

  /// Whether the file needs a JavaScript runtime (VPAID, `application/javascript`), which
  /// Playhead does not have (error 403 when nothing else is there).
  public var needsJavaScript: Bool {
    apiFramework?.uppercased() == "VPAID"
      || (type?.lowercased().contains("javascript") ?? false)
  }
}

/// One `<Mezzanine>` (VAST 4): the high-quality source file, kept, never played.
public struct VASTMezzanine: Sendable, Equatable {
  public var url: String
  public var delivery: String?
  public var type: String?
  public var width: Int?
  public var height: Int?
  public var codec: String?

  public init(
    url: String, delivery: String? = nil, type: String? = nil, width: Int? = nil,
    height: Int? = nil, codec: String? = nil
  ) {
    self.url = url
    self.delivery = delivery
    self.type = type
    self.width = width
    self.height = height
    self.codec = codec
  }
}

/// One `<InteractiveCreativeFile>` (VAST 4, SIMID and the like), kept, never run.
public struct VASTInteractiveCreativeFile: Sendable, Equatable {
  public var url: String
  public var type: String?
  public var apiFramework: String?
  public var variableDuration: Bool?

  public init(
    url: String, type: String? = nil, apiFramework: String? = nil, variableDuration: Bool? = nil
  ) {
    self.url = url
    self.type = type
    self.apiFramework = apiFramework
    self.variableDuration = variableDuration
  }
}

/// One `<Icon>` of a Linear (an AdChoices mark and the like).
public struct VASTIcon: Sendable, Equatable {
  public var program: String?
  public var width: Int?
  public var height: Int?
  /// `xPosition`, `yPosition` as written (`left`, `right`, or pixels).
  public var xPosition: String?
  public var yPosition: String?
  public var duration: MediaTime?
  public var offset: MediaTime?
  public var apiFramework: String?
  public var resources: [VASTResource]
  public var clickThrough: String?
  public var clickTracking: [String]
  public var viewTracking: [String]

  public init(
    program: String? = nil, width: Int? = nil, height: Int? = nil, xPosition: String? = nil,
    yPosition: String? = nil, duration: MediaTime? = nil, offset: MediaTime? = nil,
    apiFramework: String? = nil, resources: [VASTResource] = [], clickThrough: String? = nil,
    clickTracking: [String] = [], viewTracking: [String] = []
  ) {
    self.program = program
    self.width = width
    self.height = height
    self.xPosition = xPosition
    self.yPosition = yPosition
    self.duration = duration
    self.offset = offset
    self.apiFramework = apiFramework
    self.resources = resources
    self.clickThrough = clickThrough
    self.clickTracking = clickTracking
    self.viewTracking = viewTracking
  }
}
