import PlayheadCore

/// One element of an ad document (VAST, VMAP): the tree `AdXMLReader` builds is the one
/// XML reader's (`XMLTreeReader`), shared with the MPD reader.
public typealias AdXMLElement = XMLTreeElement
