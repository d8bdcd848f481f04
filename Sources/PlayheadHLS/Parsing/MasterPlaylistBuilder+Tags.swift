import Foundation
import PlayheadCore

/// `EXT-X-MEDIA`, `EXT-X-SESSION-DATA`, `EXT-X-SESSION-KEY`, `EXT-X-CONTENT-STEERING`.
extension MasterPlaylistBuilder {
  /// `EXT-X-MEDIA`. Fatal: a missing or unknown `TYPE`, a missing `GROUP-ID`. A missing
  /// `NAME` is a warning: the `LANGUAGE`, else the `GROUP-ID`, is used (and stands in
  /// `attributes`, so that the written playlist reads back the same).
  mutating func readMedia(_ value: ByteSpan) throws(PlaylistParseError) {
    let list = context.attributes(value, of: .media)
    context.warnUnknownAttributes(
      list,
      known: [
        "TYPE", "URI", "GROUP-ID", "LANGUAGE", "ASSOC-LANGUAGE", "NAME", "STABLE-RENDITION-ID",
        "DEFAULT", "AUTOSELECT", "FORCED", "INSTREAM-ID", "BIT-DEPTH", "SAMPLE-RATE",
        "CHARACTERISTICS", "CHANNELS",
      ], of: .media)
    guard let typeEntry = list.entry("TYPE", in: text) else {
      throw context.error(.missingAttribute, "EXT-X-MEDIA has no TYPE")
    }
    guard let type = RenditionType(rawValue: text.string(typeEntry.value)) else {
      throw context.error(
        .invalidValue,
        "EXT-X-MEDIA TYPE '\(text.string(typeEntry.value))' is not AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS"
      )
    }
    guard let groupID = try context.string("GROUP-ID", in: list) else {
      throw context.error(.missingAttribute, "EXT-X-MEDIA has no GROUP-ID")
    }
    var defaultedName: String?
    let name: String
    if let written = try context.string("NAME", in: list) {
      name = written
    } else {
      // RFC 8216 4.3.4.1 requires NAME; packagers omit it and peers accept that.
      name = try context.string("LANGUAGE", in: list) ?? groupID
      defaultedName = name
      context.warn(
        "EXT-X-MEDIA has no NAME; '\(ParserContext.excerpt(name))' (its LANGUAGE or GROUP-ID) is used"
      )
    }
    guard playlist.renditions.count < context.limits.maxSegments else {
      throw context.error(.limitExceeded, "more than \(context.limits.maxSegments) renditions")
    }
    var rendition = Rendition(type: type, groupID: groupID, name: name, baseURL: context.url)
    if let uriEntry = list.entry("URI", in: text) {
      if type == .closedCaptions {
        context.warn("EXT-X-MEDIA TYPE=CLOSED-CAPTIONS must not have a URI; ignored")
      } else {
        rendition.uriString = try context.uri(uriEntry.value, in: "EXT-X-MEDIA")
      }
    }
    rendition.language = try context.string("LANGUAGE", in: list)
    rendition.assocLanguage = try context.string("ASSOC-LANGUAGE", in: list)
    rendition.isDefault = context.flag("DEFAULT", in: list)
    rendition.autoselect = context.flag("AUTOSELECT", in: list)
    rendition.forced = context.flag("FORCED", in: list)
    rendition.instreamID = try context.string("INSTREAM-ID", in: list)
    if type == .closedCaptions && rendition.instreamID == nil {
      context.warn("EXT-X-MEDIA TYPE=CLOSED-CAPTIONS has no INSTREAM-ID")
    }
    rendition.characteristics = try context.string("CHARACTERISTICS", in: list)
    rendition.channels = try context.string("CHANNELS", in: list)
    rendition.attributes = try context.rawAttributes(list)
    if let defaultedName { rendition.attributes["NAME"] = defaultedName }
    if type == .closedCaptions { rendition.attributes["URI"] = nil }
    playlist.renditions.append(rendition)
  }

  /// `EXT-X-SESSION-DATA`; false (with a warning) without `DATA-ID`.
  mutating func readSessionData(_ value: ByteSpan) throws(PlaylistParseError) -> Bool {
    let list = context.attributes(value, of: .sessionData)
    context.warnUnknownAttributes(
      list, known: ["DATA-ID", "VALUE", "URI", "FORMAT", "LANGUAGE"], of: .sessionData)
    guard let dataID = try context.string("DATA-ID", in: list) else {
      context.warn("EXT-X-SESSION-DATA has no DATA-ID; kept as an unknown tag")
      return false
    }
    guard playlist.sessionData.count < context.limits.maxSegments else {
      throw context.error(.limitExceeded, "more than \(context.limits.maxSegments) session data")
    }
    var data = SessionData(dataID: dataID, baseURL: context.url)
    data.value = try context.string("VALUE", in: list)
    if let uriEntry = list.entry("URI", in: text) {
      data.uriString = try context.uri(uriEntry.value, in: "EXT-X-SESSION-DATA")
    }
    if data.value == nil && data.uriString == nil {
      context.warn("EXT-X-SESSION-DATA has neither VALUE nor URI")
    }
    data.format = try context.string("FORMAT", in: list)
    data.language = try context.string("LANGUAGE", in: list)
    playlist.sessionData.append(data)
    return true
  }

  /// `EXT-X-SESSION-KEY`; false (with a warning) for `METHOD=NONE`.
  mutating func readSessionKey(_ value: ByteSpan) throws(PlaylistParseError) -> Bool {
    let list = context.attributes(value, of: .sessionKey)
    let method = try context.keyMethod(list, of: .sessionKey)
    guard method != .none else {
      context.warn("EXT-X-SESSION-KEY must not have METHOD=NONE; kept as an unknown tag")
      return false
    }
    guard playlist.sessionKeys.count < context.limits.maxSegments else {
      throw context.error(.limitExceeded, "more than \(context.limits.maxSegments) session keys")
    }
    playlist.sessionKeys.append(try context.key(list, method: method, of: .sessionKey))
    return true
  }

  /// `EXT-X-CONTENT-STEERING`; false (with a warning) without `SERVER-URI`.
  mutating func readContentSteering(_ value: ByteSpan) throws(PlaylistParseError) -> Bool {
    let list = context.attributes(value, of: .contentSteering)
    context.warnUnknownAttributes(list, known: ["SERVER-URI", "PATHWAY-ID"], of: .contentSteering)
    guard let uriEntry = list.entry("SERVER-URI", in: text) else {
      context.warn("EXT-X-CONTENT-STEERING has no SERVER-URI; kept as an unknown tag")
      return false
    }
    let uri = try context.uri(uriEntry.value, in: "EXT-X-CONTENT-STEERING")
    let pathway = try context.string("PATHWAY-ID", in: list)
    let canonical = uri + (pathway.map { " PATHWAY-ID=\($0)" } ?? "")
    if try context.firstOccurrence(of: .contentSteering, value: canonical) {
      playlist.contentSteering = ContentSteering(
        serverURIString: uri, baseURL: context.url, pathwayID: pathway)
    }
    return true
  }
}
