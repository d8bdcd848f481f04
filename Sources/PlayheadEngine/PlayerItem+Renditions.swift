import Foundation
import PlayheadCore

extension PlayerItem {
  /// The audio renditions of the variant being played (its AUDIO group), in master
  /// playlist order; for a progressive file (MP4, MKV, …) with two or more audio streams,
  /// those streams, in stream order.
  ///
  /// Empty until the item is ready, for variants without an AUDIO group and for files
  /// with one audio stream (or none). When the player switches to a variant with another
  /// group, the list becomes that group's. A file's stream has `streamIndex` set (its
  /// container index), GROUP-ID `stream`, no URI, its title (else its language, else
  /// `Audio <n>`) as NAME, and AUTOSELECT; the stream the demuxer picks by default is the
  /// DEFAULT one.
  public var audioRenditions: [RenditionInfo] { read { $0.state.audioRenditions } }

  /// The audio rendition being played, a value from `audioRenditions`; nil when the
  /// variant's own audio plays without a rendition (and for files without a choice).
  ///
  /// At start it is chosen from `preferredAudioLanguages` (an AUTOSELECT or DEFAULT
  /// rendition in the first preferred language that has one), else the DEFAULT
  /// rendition, else the first. A rendition with a media playlist (URI) of its own plays
  /// as a second stream, and the audio in the variant's segments, if any, is ignored. A
  /// variant switch keeps the selection: the rendition of the new variant's group with
  /// the same GROUP-ID and NAME, else the same NAME. A file plays the chosen stream
  /// instead of the default one.
  public var selectedAudioRendition: RenditionInfo? { read { $0.state.selectedAudioRendition } }

  /// Languages (BCP 47 tags such as "fr" or "pt-BR"), most preferred first, that choose
  /// the audio rendition when the item starts.
  ///
  /// A tag matches a rendition's LANGUAGE exactly (ignoring case, and with ISO 639-2
  /// codes read as their two-letter form: "fr" matches a file's "fra" or "fre"), else by
  /// its primary subtag ("pt" matches "pt-BR"). Only AUTOSELECT or DEFAULT renditions are
  /// chosen this way; with no match the DEFAULT rendition plays. Set it before the item
  /// starts loading; later changes apply only to a resume.
  public var preferredAudioLanguages: [String] {
    get { readSettings { $0.preferredAudioLanguages } }
    set { updateSettings { $0.preferredAudioLanguages = newValue } }
  }

  /// Plays `rendition`'s audio (a value from `audioRenditions`), or the variant's own
  /// audio for nil, from the current position.
  ///
  /// A rendition with a media playlist of its own is fetched from the segment that holds
  /// the current time; the audio decoded ahead is dropped and the video goes on (the
  /// audio may pause for a moment; it is not seamless). An audio stream of a file is
  /// decoded from the current position by the same demuxer (nil: the file's DEFAULT
  /// stream); the video is not decoded again and no frame is lost. An
  /// `audioRenditionChanged` event follows once the selection changed. Returns false, and
  /// changes nothing, when the item is not the current item of a player or `rendition` is
  /// not in `audioRenditions`. A rendition whose playlist (or a stream whose decoder)
  /// cannot be opened adds an error-log entry and the audio that was playing goes on.
  @discardableResult
  public func selectAudioRendition(_ rendition: RenditionInfo?) -> Bool {
    guard let owner, status == .readyToPlay else { return false }
    if let rendition, !audioRenditions.contains(rendition) { return false }
    owner.audioRenditionSelected(rendition, for: self)
    return true
  }

  /// The subtitle renditions of the variant being played (its SUBTITLES group), in
  /// master playlist order; empty until ready and without a group.
  public var subtitleRenditions: [RenditionInfo] { read { $0.state.subtitleRenditions } }

  /// The selected subtitle rendition, a value from `subtitleRenditions`; nil (the
  /// default) when none is selected.
  public var selectedSubtitleRendition: RenditionInfo? {
    read { $0.state.selectedSubtitleRendition }
  }

  /// The segments of the selected subtitle rendition and where they lie on the item
  /// timeline; nil when none is selected.
  ///
  /// The player fetches the rendition's media playlist when it is selected; its text
  /// renderer then reads the segments (`textCues`, `textCueEntered` events).
  public var subtitleSegments: SubtitleSegmentList? { read { $0.state.subtitleSegments } }

  /// Selects `rendition` (a value from `subtitleRenditions` with a URI), or no subtitles
  /// for nil, and fetches its media playlist; the player then renders its cues (as
  /// `selectTextTrack(_:)` does, which can select a sidecar track too).
  ///
  /// A `subtitleRenditionChanged` event follows once the playlist is loaded (and
  /// `subtitleSegments` holds it). Returns false, and changes nothing, when the item is
  /// not the current item of a player, or `rendition` is not in `subtitleRenditions` or
  /// has no URI. A playlist that cannot be loaded adds an error-log entry and a
  /// `textTrackFailed` event, and `selectedSubtitleRendition` stays as it was.
  @discardableResult
  public func selectSubtitleRendition(_ rendition: RenditionInfo?) -> Bool {
    guard owner != nil, status == .readyToPlay else { return false }
    if let rendition,
      !subtitleRenditions.contains(rendition)
        || (rendition.uri == nil && rendition.streamIndex == nil)
    {
      return false
    }
    return selectTextTrack(rendition)
  }
}
