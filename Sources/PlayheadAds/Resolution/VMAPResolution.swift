import Foundation

/// A VMAP playlist with each break's ads resolved.
public struct VMAPResolution: Sendable, Equatable {
  public var document: VMAPDocument
  /// One entry per break of `document`, in its order.
  public var breaks: [ResolvedAdBreak]

  public init(document: VMAPDocument, breaks: [ResolvedAdBreak]) {
    self.document = document
    self.breaks = breaks
  }
}

/// One VMAP break and what its ad source gave.
public struct ResolvedAdBreak: Sendable, Equatable {
  public var adBreak: VMAPAdBreak
  /// The ads of the break; nil when it has no ad source or one Playhead does not take
  /// (`sourceError` then says why).
  public var resolution: VASTResolution?
  /// Why the ad source could not be used (a VMAP error: 1005 for a template type other
  /// than VAST, custom ad data); the break's `error` tracking is then pinged.
  public var sourceError: VMAPError?

  public init(
    adBreak: VMAPAdBreak, resolution: VASTResolution? = nil, sourceError: VMAPError? = nil
  ) {
    self.adBreak = adBreak
    self.resolution = resolution
    self.sourceError = sourceError
  }
}

/// An ad tag resolved, whichever kind it turned out to be.
public enum AdTagResolution: Sendable, Equatable {
  case vast(VASTResolution)
  case vmap(VMAPResolution)
}

/// Why an ad tag gave nothing at all: the tag could not be loaded, or is not a VAST or VMAP
/// document.
public struct AdTagError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The VAST code when one applies (301 for a load failure, 100, 101, 102).
  public var vastCode: VASTErrorCode?
  /// The VMAP code when the document was a VMAP playlist that could not be used.
  public var vmapCode: Int?
  public var message: String

  public init(vastCode: VASTErrorCode? = nil, vmapCode: Int? = nil, message: String) {
    self.vastCode = vastCode
    self.vmapCode = vmapCode
    self.message = message
  }

  public var description: String { message }
}
