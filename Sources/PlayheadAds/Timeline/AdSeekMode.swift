/// Which unplayed mid-roll breaks a seek past them plays before landing (snapback).
public enum AdSeekMode: String, Sendable, Hashable, CaseIterable, Codable {
  /// The last break before the target plays, then the content lands at the target (default).
  case last
  /// Every break jumped over plays, in order, then the content lands at the target.
  case all
  /// None plays; they stay unplayed, so playing through them later plays them.
  case none
}
