import PlayheadCore

/// Why the ad XML reader refused a document: the one XML reader's error (its kind, line
/// and message). Every kind maps to IAB VAST error 100 (XML parsing error) when a VAST
/// document is concerned, VMAP's 1002 for a VMAP.
public typealias AdXMLError = XMLTreeError
