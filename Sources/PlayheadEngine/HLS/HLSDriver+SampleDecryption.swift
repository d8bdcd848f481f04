import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadMedia
import PlayheadNet

/// Packet-level decryption of a run (decision 0055): fragmented MP4 runs decrypt Common
/// Encryption samples (`cenc`, `cbcs`: DASH ContentProtection, HLS `SAMPLE-AES-CTR` and
/// cbcs `SAMPLE-AES`) with keys by key ID; MPEG-TS runs of a playlist with `SAMPLE-AES`
/// keys decrypt Apple's H.264 and AAC/AC-3 sample layout with each segment's key.
extension HLSDriver {
  /// Sets `demuxer`'s packet decryptor for the run `feed` reads.
  ///
  /// An fMP4 run always gets one (a clear packet passes; an encrypted one with no key
  /// fails naming its key ID, never reaching a decoder as garbage); a TS run gets one when
  /// its level's playlist has sample-encrypted segments.
  func attachDecryptor(to demuxer: Demuxer, feed: HLSRunFeed) throws(PlayheadError) {
    let schedule = feed.keySchedule
    if feed.first.initSection != nil {
      demuxer.packetDecryptor = CENCDecryptor(
        keys: RunSampleKeys(stream: streamSampleKeys(), schedule: schedule), demuxer: demuxer)
      return
    }
    guard levelHasSampleKeys(feed.first.level) || schedule.hasSampleKeys else { return }
    let decryptor = SampleAESDecryptor(demuxer: demuxer)
    demuxer.packetDecryptor = decryptor
    try schedule.attach { entry throws(PlayheadError) in try decryptor.schedule(entry) }
  }

  /// Whether the playlist of `level` has a segment under a sample-encryption method.
  private func levelHasSampleKeys(_ level: Int) -> Bool {
    playlist(level)?.segments.contains { segment in
      segment.key.map { Self.sampleMethods.contains($0.method) } ?? false
    } ?? false
  }

  /// The key source of this stream's Common Encryption runs, made at the first one and
  /// shared by the rest, so that each key is asked for once.
  func streamSampleKeys() -> SampleKeyResolver {
    lock.lock()
    defer { lock.unlock() }
    if let made = sampleKeys { return made }
    let made = makeSampleKeyResolver()
    sampleKeys = made
    return made
  }

  /// Uses `keys` (the main stream's) for this stream's runs: an alternate rendition shares
  /// its stream's keys.
  func adoptSampleKeys(_ keys: SampleKeyResolver) {
    lock.lock()
    sampleKeys = keys
    lock.unlock()
  }

  private func makeSampleKeyResolver() -> SampleKeyResolver {
    // The MPD's licence server counts only over http(s): a local MPD's relative Laurl
    // names no server.
    let named = (configuration.playlistSource as? DASHPlaylistSource)?.clearKeyLicenseURL
    let licenseURL =
      configuration.clearKeyLicenseURL
      ?? named.flatMap { ["http", "https"].contains($0.scheme?.lowercased()) ? $0 : nil }
    let loader = loader
    var license: (@Sendable ([[UInt8]]) throws(PlayheadError) -> [[UInt8]: [UInt8]])?
    if let licenseURL {
      license = { keyIDs throws(PlayheadError) in
        try ClearKeyLicense.keys(for: keyIDs, from: licenseURL, loader: loader)
      }
    }
    return SampleKeyResolver(
      configured: configuration.sampleKeySource, provider: configuration.contentKeyProvider,
      license: license)
  }
}
