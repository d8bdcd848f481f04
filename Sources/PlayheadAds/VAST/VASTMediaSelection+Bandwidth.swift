import Foundation

extension VASTMediaSelection {
  /// The file to play among `files`, preferring those whose bit rate fits
  /// `bandwidthBitsPerSecond` (the player's estimate; nil when none), then as
  /// `choose(from:)` does; error 403 when none is playable, saying so when every file
  /// needs a script runtime (VPAID, SIMID).
  public func choose(
    from files: [VASTMediaFile], bandwidthBitsPerSecond: Double?
  ) -> Result<VASTMediaFile, VASTAdFailure> {
    let linear = VASTLinear(mediaFiles: files)
    guard let bandwidth = bandwidthBitsPerSecond, bandwidth > 0 else {
      return choose(from: linear)
    }
    let fitting = files.filter { file in
      file.bitrateKbps.map { Double($0) * 1000 <= bandwidth } ?? true
    }
    if case .success(let file) = choose(from: VASTLinear(mediaFiles: fitting)) {
      return .success(file)
    }
    return choose(from: linear)
  }
}
