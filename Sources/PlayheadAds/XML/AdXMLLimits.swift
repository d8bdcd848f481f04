import PlayheadCore

/// Limits that protect the ad XML reader from hostile or broken input: the XML reader's
/// (`XMLTreeLimits.default`: 2 MiB — real VAST responses are a few KiB, a VMAP with inline
/// ads rarely over 200 KiB —, depth 64, 50,000 elements). Exceeding one is an error of kind
/// `.limitExceeded` (IAB VAST error 100).
public typealias AdXMLLimits = XMLTreeLimits
