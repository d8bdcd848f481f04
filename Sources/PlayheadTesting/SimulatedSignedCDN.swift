import Foundation
import PlayheadCore
import PlayheadNet

/// A CDN with URL signing (type A) in front of a `SimulatedNetwork`, for playback on a
/// `ManualClock`: every request must carry a valid `auth_key` whose expiry is not older
/// than `graceSeconds` on the wall time `nowSeconds` (which follows the same clock), or it
/// is refused at `open` with `PlayheadError` `.httpStatus` and `rejectionStatus`, as
/// `HTTPDataSource` throws for such an answer. Accepted requests open the unsigned URL
/// on `upstream`, so network time runs on its clock; the URIs in the playlists it
/// serves are signed as an origin writes them, valid for `playlistValiditySeconds` from
/// the time of the request (as `SignedCDN` does over HTTP).
///
/// Every request that reached it is logged (`requests`), refused ones too (`refusals`).
public final class SimulatedSignedCDN: DataSourceFactory, @unchecked Sendable {
  // Unchecked Sendable: `log` and `refused` are guarded by `lock`; the rest is immutable.

  public let upstream: SimulatedNetwork
  public let signer: CDNTypeASigner
  public let nowSeconds: @Sendable () -> Int64
  public let rejectionStatus: Int
  public let graceSeconds: Int64
  public let playlistValiditySeconds: Int64
  private let lock = NSLock()
  private var log: [URL] = []
  private var refused: [Refusal] = []

  /// One refused request.
  public struct Refusal: Sendable, Equatable {
    public var url: URL
    public var status: Int
    /// The wall time of the refusal.
    public var nowSeconds: Int64
  }

  public init(
    upstream: SimulatedNetwork, signer: CDNTypeASigner,
    nowSeconds: @escaping @Sendable () -> Int64, rejectionStatus: Int = 403,
    graceSeconds: Int64 = 0, playlistValiditySeconds: Int64 = 3
  ) {
    self.upstream = upstream
    self.signer = signer
    self.nowSeconds = nowSeconds
    self.rejectionStatus = rejectionStatus
    self.graceSeconds = graceSeconds
    self.playlistValiditySeconds = playlistValiditySeconds
  }

  /// Every file under the folders `names` (e.g. "hls") of `root`, keyed by its URL under
  /// `base` (`base/name/relative path`), for a `SimulatedNetwork`'s resources.
  public static func resources(_ names: [String], in root: URL, base: URL) throws -> [URL: Data] {
    var files: [URL: Data] = [:]
    for name in names {
      let folder = root.appendingPathComponent(name)
      guard let walker = FileManager.default.enumerator(atPath: folder.path) else {
        throw PlayheadError(.fileNotFound, "no fixture folder \(folder.path)")
      }
      for case let relative as String in walker {
        let file = folder.appendingPathComponent(relative)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory),
          !isDirectory.boolValue
        else { continue }
        files[base.appendingPathComponent("\(name)/\(relative)")] = try Data(contentsOf: file)
      }
    }
    return files
  }

  /// Every URL requested, in order (refused ones included).
  public var requests: [URL] {
    lock.lock()
    defer { lock.unlock() }
    return log
  }

  /// The requests refused so far, in order.
  public var refusals: [Refusal] {
    lock.lock()
    defer { lock.unlock() }
    return refused
  }

  public func makeDataSource() -> any DataSource { SignedCDNSource(cdn: self) }

  /// Checks `url`'s signature now; logs the request, and the refusal when there is one.
  func admit(_ url: URL) throws(PlayheadError) {
    let now = nowSeconds()
    lock.lock()
    log.append(url)
    lock.unlock()
    guard let expiry = signer.expiry(of: url), signer.verifies(url), now <= expiry + graceSeconds
    else {
      lock.lock()
      refused.append(Refusal(url: url, status: rejectionStatus, nowSeconds: now))
      lock.unlock()
      throw PlayheadError(
        .httpStatus, "HTTP \(rejectionStatus) for \(url.absoluteString)", url: url,
        httpStatusCode: rejectionStatus)
    }
  }

  /// The playlist with every URI line and `URI="…"` attribute resolved and signed.
  func signURIs(in body: Data, playlistURL: URL) -> Data {
    let signer = self.signer
    return SignedCDN.signingURIs(
      in: body, playlistURL: playlistURL, expiry: nowSeconds() + playlistValiditySeconds
    ) { url, expiry in try? signer.sign(url, expiry: expiry) }
  }
}

/// One transfer through a `SimulatedSignedCDN`: refused at `open` unless signed; a playlist
/// is read whole from the network and served with its URIs signed.
private final class SignedCDNSource: DataSource, @unchecked Sendable {
  // Unchecked Sendable: `rewritten` is the reading thread's; `upstream` is thread-safe.
  let cdn: SimulatedSignedCDN
  let upstream: any DataSource
  private var rewritten: (data: Data, offset: Int)?

  init(cdn: SimulatedSignedCDN) {
    self.cdn = cdn
    upstream = cdn.upstream.makeDataSource()
  }

  func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    close()
    let url = request.url
    try cdn.admit(url)
    var unsigned = request
    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    components?.query = nil
    unsigned.url = components?.url ?? url
    var head = try upstream.open(unsigned)
    head.url = url
    guard url.pathExtension == "m3u8" else { return head }
    var body = Data()
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
    defer { chunk.deallocate() }
    while true {
      let count = try upstream.read(into: chunk)
      if count == 0 { break }
      body.append(chunk.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
    }
    upstream.close()
    let signed = cdn.signURIs(in: body, playlistURL: unsigned.url)
    rewritten = (signed, 0)
    head.length = Int64(signed.count)
    head.totalLength = Int64(signed.count)
    return head
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    guard let served = rewritten else { return try upstream.read(into: buffer) }
    let count = min(buffer.count, served.data.count - served.offset)
    guard count > 0 else { return 0 }
    served.data.withUnsafeBytes { raw in
      buffer.baseAddress!.copyMemory(from: raw.baseAddress! + served.offset, byteCount: count)
    }
    rewritten = (served.data, served.offset + count)
    return count
  }

  func close() {
    rewritten = nil
    upstream.close()
  }

  func cancel() { upstream.cancel() }
}
