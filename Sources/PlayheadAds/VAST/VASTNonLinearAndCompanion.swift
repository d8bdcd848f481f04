/// A displayable resource of a NonLinear, Companion or Icon.
public enum VASTResource: Sendable, Equatable {
  /// `<StaticResource creativeType="image/png">URL</StaticResource>`.
  case staticResource(url: String, creativeType: String?)
  /// `<IFrameResource>URL</IFrameResource>`.
  case iframe(url: String)
  /// `<HTMLResource>markup</HTMLResource>`.
  case html(String)
}

/// `<NonLinearAds>`: overlays shown over the content, with shared tracking.
public struct VASTNonLinearAds: Sendable, Equatable {
  public var nonLinears: [VASTNonLinear]
  /// `<TrackingEvents><Tracking>` of the NonLinearAds.
  public var trackingEvents: [VASTTracking]

  public init(nonLinears: [VASTNonLinear] = [], trackingEvents: [VASTTracking] = []) {
    self.nonLinears = nonLinears
    self.trackingEvents = trackingEvents
  }
}

/// One `<NonLinear>` overlay.
public struct VASTNonLinear: Sendable, Equatable {
  public var id: String?
  public var width: Int?
  public var height: Int?
  public var minSuggestedDuration: String?
  public var apiFramework: String?
  public var resources: [VASTResource]
  /// `<NonLinearClickThrough>`.
  public var clickThrough: String?
  /// `<NonLinearClickTracking>` URLs.
  public var clickTracking: [String]
  public var adParameters: VASTAdParameters?

  public init(
    id: String? = nil, width: Int? = nil, height: Int? = nil, minSuggestedDuration: String? = nil,
    apiFramework: String? = nil, resources: [VASTResource] = [], clickThrough: String? = nil,
    clickTracking: [String] = [], adParameters: VASTAdParameters? = nil
  ) {
    self.id = id
    self.width = width
    self.height = height
    self.minSuggestedDuration = minSuggestedDuration
    self.apiFramework = apiFramework
    self.resources = resources
    self.clickThrough = clickThrough
    self.clickTracking = clickTracking
    self.adParameters = adParameters
  }
}

/// `<CompanionAds>`: banners shown beside the player.
public struct VASTCompanionAds: Sendable, Equatable {
  /// `required`: `all`, `any` or `none`.
  public var required: String?
  public var companions: [VASTCompanion]

  public init(required: String? = nil, companions: [VASTCompanion] = []) {
    self.required = required
    self.companions = companions
  }
}

/// One `<Companion>` banner.
public struct VASTCompanion: Sendable, Equatable {
  public var id: String?
  public var width: Int?
  public var height: Int?
  public var adSlotID: String?
  public var apiFramework: String?
  public var resources: [VASTResource]
  /// `<CompanionClickThrough>`.
  public var clickThrough: String?
  /// `<CompanionClickTracking>` URLs.
  public var clickTracking: [String]
  /// `<TrackingEvents><Tracking>` (`creativeView` above all).
  public var trackingEvents: [VASTTracking]
  public var altText: String?

  public init(
    id: String? = nil, width: Int? = nil, height: Int? = nil, adSlotID: String? = nil,
    apiFramework: String? = nil, resources: [VASTResource] = [], clickThrough: String? = nil,
    clickTracking: [String] = [], trackingEvents: [VASTTracking] = [], altText: String? = nil
  ) {
    self.id = id
    self.width = width
    self.height = height
    self.adSlotID = adSlotID
    self.apiFramework = apiFramework
    self.resources = resources
    self.clickThrough = clickThrough
    self.clickTracking = clickTracking
    self.trackingEvents = trackingEvents
    self.altText = altText
  }
}

/// One `<Verification>` of `<AdVerifications>` (Open Measurement), kept for a measurement
/// SDK; Playhead runs none of it.
public struct VASTVerification: Sendable, Equatable {
  /// The `vendor` attribute.
  public var vendor: String?
  /// `<JavaScriptResource>` URLs.
  public var javaScriptResources: [String]
  /// `<ExecutableResource>` URLs.
  public var executableResources: [String]
  /// `<VerificationParameters>` text.
  public var parameters: String?
  /// `<TrackingEvents><Tracking>` (`verificationNotExecuted`).
  public var trackingEvents: [VASTTracking]

  public init(
    vendor: String? = nil, javaScriptResources: [String] = [], executableResources: [String] = [],
    parameters: String? = nil, trackingEvents: [VASTTracking] = []
  ) {
    self.vendor = vendor
    self.javaScriptResources = javaScriptResources
    self.executableResources = executableResources
    self.parameters = parameters
    self.trackingEvents = trackingEvents
  }
}
