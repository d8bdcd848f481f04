import Foundation
import PlayheadCore
import PlayheadNet

/// What the application asks of an item's text tracks (part of `ItemSettings`; the cues
/// are the text renderer's, published in the item's snapshot).
struct ItemTextSettings: Sendable {
  var sidecarTracks: [RenditionInfo] = []
  /// The text track the application selected (a subtitle rendition or a sidecar track).
  var selectedTrack: RenditionInfo?
  /// Counts the selections, so that selecting a track again restarts its renderer.
  var selectionCount = 0
  var lookAhead: MediaTime?
  var network: (any DataSourceFactory)?
}

extension RenditionInfo {
  /// The GROUP-ID of the sidecar text tracks an application adds to an item.
  public static let sidecarGroupID = "sidecar"

  /// Whether this is a sidecar text track (`PlayerItem.addSidecarTextTrack`).
  public var isSidecarTextTrack: Bool { groupID == Self.sidecarGroupID && type == "subtitles" }
}

extension PlayerItem {
  /// Adds a sidecar WebVTT file as a text track of this item and returns the track, to
  /// select with `selectTextTrack(_:)`; adding the same file with the same language and
  /// label again returns the track already added.
  ///
  /// The track is a `RenditionInfo` of type `subtitles` with GROUP-ID `sidecar`, the
  /// label (else the language, else `Subtitles <n>`) as NAME and `url` as URI. The file is
  /// read whole when the track is selected, through the item's data source, and its cue
  /// times are item times. Containment: a `file:` URL is read only when the item's media
  /// is a local file itself; for network media its selection ends in `textTrackFailed`
  /// with `.unsupportedScheme`.
  @discardableResult
  public func addSidecarTextTrack(
    url: URL, language: String?, label: String? = nil, isDefault: Bool = false,
    forced: Bool = false
  ) -> RenditionInfo {
    var result: RenditionInfo?
    updateSettings { state in
      let count = state.text.sidecarTracks.count
      let track = RenditionInfo(
        type: "subtitles", groupID: RenditionInfo.sidecarGroupID,
        name: label ?? language ?? "Subtitles \(count + 1)", language: language,
        isDefault: isDefault, autoselect: true, forced: forced, uri: url.absoluteString)
      if let known = state.text.sidecarTracks.first(where: { $0 == track }) {
        result = known
      } else {
        state.text.sidecarTracks.append(track)
        result = track
      }
    }
    return result!
  }

  /// The sidecar text tracks added with `addSidecarTextTrack`, in the order added.
  public var sidecarTextTracks: [RenditionInfo] { readSettings { $0.text.sidecarTracks } }

  /// Selects the text track whose cues the player renders: a value of
  /// `subtitleRenditions` with a URI, a value of `sidecarTextTracks`, or none for nil.
  ///
  /// The player then reads the track's cues on a thread of its own through the item's
  /// data source, and announces them as `textCueEntered` / `textCueExited` events at
  /// their item times (`activeTextCues` holds the active ones); `textTrackLoaded` follows
  /// once everything up to the look-ahead is in, `textTrackFailed` for each load that
  /// failed (playback goes on). The cues of the previous track that were active exit
  /// first; selecting the selected track again reads it afresh. A subtitle rendition is
  /// selected as `selectSubtitleRendition` does (its playlist is loaded first; a sidecar
  /// selection releases it). A sidecar track (or none) may be selected before the item
  /// is ready or current: it applies once the item plays. In fast mode
  /// (`PlayerConfiguration.timing == .fast`) playback starts (and restarts after a seek)
  /// only once the selected track's cues at the position are in or failed; in real time
  /// text never holds playback. Returns false, changing nothing, for a rendition when the
  /// item is not the ready current item of a player, or for a track that is neither of
  /// the item's.
  @discardableResult
  public func selectTextTrack(_ track: RenditionInfo?) -> Bool {
    let owner = self.owner
    if let track {
      if track.isSidecarTextTrack {
        guard sidecarTextTracks.contains(track) else { return false }
      } else {
        guard owner != nil, status == .readyToPlay, subtitleRenditions.contains(track),
          track.uri != nil || track.streamIndex != nil
        else { return false }
      }
    }
    var previous: RenditionInfo?
    updateSettings { state in
      previous = state.text.selectedTrack
      state.text.selectedTrack = track
      state.text.selectionCount += 1
    }
    owner?.textTrackSelected(track, previous: previous, for: self)
    return true
  }

  /// The text track selected with `selectTextTrack(_:)` (or `selectSubtitleRendition`);
  /// nil when none.
  public var selectedTextTrack: RenditionInfo? { readSettings { $0.text.selectedTrack } }

  /// Every cue of the selected text track read so far, in start order (item times).
  public var textCues: [TimedTextCue] { read { $0.textCues } }

  /// The cues of the selected text track active at the play position, in start order.
  public var activeTextCues: [TimedTextCue] { read { $0.activeTextCues } }

  /// How far ahead of the play position the segments of a subtitle rendition are read;
  /// nil (the default) reads the whole rendition, nearest segments first. Applies to the
  /// next selection.
  public var subtitleLookAhead: MediaTime? {
    get { readSettings { $0.text.lookAhead } }
    set { updateSettings { $0.text.lookAhead = newValue } }
  }

  /// Where the text tracks' files are loaded from instead of the player's data-source
  /// stack (nil, the default: the HLS stream's loader, else the player's stack). Applies to
  /// the next selection; the containment rule applies to it too.
  public var textNetwork: (any DataSourceFactory)? {
    get { readSettings { $0.text.network } }
    set { updateSettings { $0.text.network = newValue } }
  }
}
