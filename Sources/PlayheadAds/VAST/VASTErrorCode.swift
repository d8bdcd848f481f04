/// An IAB VAST error code: what a player puts in `[ERRORCODE]` when it pings an `<Error>`
/// URL, and what every ad failure in Playhead carries.
///
/// The named codes are the ones VAST 4.x lists; any other integer is kept as is (a server
/// may define its own). `description` is `NNN (meaning)`.
public struct VASTErrorCode: RawRepresentable, Sendable, Hashable, Comparable,
  CustomStringConvertible
{
  public let rawValue: Int

  public init(rawValue: Int) { self.rawValue = rawValue }

  public init(_ rawValue: Int) { self.rawValue = rawValue }

  public static func < (lhs: VASTErrorCode, rhs: VASTErrorCode) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  /// 100: XML parsing error.
  public static let xmlParsing = VASTErrorCode(100)
  /// 101: VAST schema validation error (a wrong root, a required element missing).
  public static let schemaValidation = VASTErrorCode(101)
  /// 102: VAST version of the response not supported.
  public static let versionNotSupported = VASTErrorCode(102)
  /// 200: Trafficking error: the player received an ad type it was not expecting.
  public static let trafficking = VASTErrorCode(200)
  /// 201: The player expects a different linearity.
  public static let unexpectedLinearity = VASTErrorCode(201)
  /// 202: The player expects a different duration.
  public static let unexpectedDuration = VASTErrorCode(202)
  /// 203: The player expects a different size.
  public static let unexpectedSize = VASTErrorCode(203)
  /// 204: Ad category was required but not provided.
  public static let categoryRequired = VASTErrorCode(204)
  /// 205: Inline category violates the wrapper's BlockedAdCategories.
  public static let blockedCategory = VASTErrorCode(205)
  /// 206: Ad break shortened; the ad was not served.
  public static let breakShortened = VASTErrorCode(206)
  /// 300: General wrapper error.
  public static let wrapperGeneral = VASTErrorCode(300)
  /// 301: Timeout of the VAST URI of a wrapper (unavailable or timed out).
  public static let wrapperTimeout = VASTErrorCode(301)
  /// 302: Wrapper limit reached (too many wrappers, or a loop).
  public static let wrapperLimit = VASTErrorCode(302)
  /// 303: No VAST response after one or more wrappers (an empty response).
  public static let noAd = VASTErrorCode(303)
  /// 304: InLine response returned an ad unit that failed to result in an ad display
  /// within the defined time limit.
  public static let inlineDisplayTimeout = VASTErrorCode(304)
  /// 400: General linear error: the player cannot display the linear ad.
  public static let linearGeneral = VASTErrorCode(400)
  /// 401: File not found: the media file URI cannot be found.
  public static let fileNotFound = VASTErrorCode(401)
  /// 402: Timeout of the media file URI.
  public static let mediaTimeout = VASTErrorCode(402)
  /// 403: No supported media file: none matches the player's capabilities.
  public static let unsupportedMedia = VASTErrorCode(403)
  /// 405: Problem displaying the media file (a decode error).
  public static let mediaDisplay = VASTErrorCode(405)
  /// 406: Mezzanine was required but not provided.
  public static let mezzanineRequired = VASTErrorCode(406)
  /// 407: Mezzanine is being downloaded for the first time.
  public static let mezzanineDownloading = VASTErrorCode(407)
  /// 408: Conditional ad rejected.
  public static let conditionalAdRejected = VASTErrorCode(408)
  /// 409: Interactive unit in the InteractiveCreativeFile node was not executed.
  public static let interactiveNotExecuted = VASTErrorCode(409)
  /// 410: Verification unit in the Verification node was not executed.
  public static let verificationNotExecuted = VASTErrorCode(410)
  /// 500: General non-linear ad error.
  public static let nonLinearGeneral = VASTErrorCode(500)
  /// 501: The non-linear ad's size does not fit the display area.
  public static let nonLinearSize = VASTErrorCode(501)
  /// 502: Unable to fetch the non-linear resource.
  public static let nonLinearFetch = VASTErrorCode(502)
  /// 503: Could not find a non-linear resource with a supported type.
  public static let nonLinearUnsupported = VASTErrorCode(503)
  /// 600: General companion ad error.
  public static let companionGeneral = VASTErrorCode(600)
  /// 601: The companion's size does not fit the display area.
  public static let companionSize = VASTErrorCode(601)
  /// 602: Unable to display a required companion.
  public static let companionRequired = VASTErrorCode(602)
  /// 603: Unable to fetch the companion resource.
  public static let companionFetch = VASTErrorCode(603)
  /// 604: Could not find a companion resource with a supported type.
  public static let companionUnsupported = VASTErrorCode(604)
  /// 900: Undefined error.
  public static let undefined = VASTErrorCode(900)
  /// 901: General VPAID error.
  public static let vpaidGeneral = VASTErrorCode(901)
  /// 902: General interactive creative file error.
  public static let interactiveGeneral = VASTErrorCode(902)

  /// Every code VAST 4.x names, in numeric order.
  public static let allKnown: [VASTErrorCode] = [
    .xmlParsing, .schemaValidation, .versionNotSupported, .trafficking, .unexpectedLinearity,
    .unexpectedDuration, .unexpectedSize, .categoryRequired, .blockedCategory, .breakShortened,
    .wrapperGeneral, .wrapperTimeout, .wrapperLimit, .noAd, .inlineDisplayTimeout,
    .linearGeneral, .fileNotFound, .mediaTimeout, .unsupportedMedia, .mediaDisplay,
    .mezzanineRequired, .mezzanineDownloading, .conditionalAdRejected,
    .interactiveNotExecuted, .verificationNotExecuted, .nonLinearGeneral, .nonLinearSize,
    .nonLinearFetch, .nonLinearUnsupported, .companionGeneral, .companionSize,
    .companionRequired, .companionFetch, .companionUnsupported, .undefined, .vpaidGeneral,
    .interactiveGeneral,
  ]

  /// A short meaning for the named codes; "unknown error code" for others.
  public var meaning: String {
    switch rawValue {
    case 100: return "XML parsing error"
    case 101: return "VAST schema validation error"
    case 102: return "VAST version not supported"
    case 200: return "unexpected ad type"
    case 201: return "unexpected linearity"
    case 202: return "unexpected duration"
    case 203: return "unexpected size"
    case 204: return "ad category required"
    case 205: return "ad category blocked"
    case 206: return "ad break shortened"
    case 300: return "general wrapper error"
    case 301: return "wrapper VAST URI unavailable or timed out"
    case 302: return "wrapper limit reached"
    case 303: return "no ad in the VAST response"
    case 304: return "ad unit not displayed in time"
    case 400: return "general linear error"
    case 401: return "media file not found"
    case 402: return "media file timed out"
    case 403: return "no supported media file"
    case 405: return "problem displaying the media file"
    case 406: return "mezzanine required"
    case 407: return "mezzanine downloading"
    case 408: return "conditional ad rejected"
    case 409: return "interactive unit not executed"
    case 410: return "verification unit not executed"
    case 500: return "general non-linear error"
    case 501: return "non-linear size does not fit"
    case 502: return "non-linear resource unavailable"
    case 503: return "no supported non-linear resource"
    case 600: return "general companion error"
    case 601: return "companion size does not fit"
    case 602: return "required companion not displayed"
    case 603: return "companion resource unavailable"
    case 604: return "no supported companion resource"
    case 900: return "undefined error"
    case 901: return "general VPAID error"
    case 902: return "general interactive creative error"
    default: return "unknown error code"
    }
  }

  /// `NNN (meaning)`.
  public var description: String { "\(rawValue) (\(meaning))" }
}
