import Foundation
import PlayheadCore

/// The network fault matrix of issue 11 §4: every fault, on every kind of resource a player
/// loads, with the outcome a correct player must reach.
///
/// Each row names a resource (`Target`), the fault `HTTPTestServer` shows for it, and the
/// outcome: playback to the end, or a typed error with a message fragment and the number
/// of requests for the faulted resource (all attempts: the first try and its retries). A
/// test runs every row over `HTTPTestServer(directory: Fixtures.directory())` through the
/// CLI or the player API and checks all three; counting requests instead of timing them
/// keeps the check exact on a loaded machine (each attempt is bounded by the timeout, so
/// the count bounds the time).
///
/// Example:
/// ```swift
/// for row in FaultMatrix.rows {
///   let server = HTTPTestServer(directory: try Fixtures.directory(), faults: [row.target.faultedPath: row.fault])
///   …
/// }
/// ```
public enum FaultMatrix {
  /// The resource a fault is shown on.
  public enum Target: String, Sendable, CaseIterable {
    /// An HLS media playlist (the one played).
    case playlist
    /// The second segment of that playlist.
    case segment
    /// The AES-128 key of an encrypted HLS stream.
    case key
    /// A progressive MP4 file.
    case progressive

    /// The path played.
    public var playedPath: String {
      switch self {
      case .playlist, .segment: return "/hls/144p/index.m3u8"
      case .key: return "/hls-aes/index.m3u8"
      case .progressive: return "/sample-h264-aac.mp4"
      }
    }

    /// The path that misbehaves.
    public var faultedPath: String {
      switch self {
      case .playlist: return "/hls/144p/index.m3u8"
      case .segment: return "/hls/144p/segment001.ts"
      case .key: return "/hls-aes/key.bin"
      case .progressive: return "/sample-h264-aac.mp4"
      }
    }

    /// The faulted file's size in bytes (the fixtures are committed).
    public var faultedSize: Int {
      switch self {
      case .playlist: return 333
      case .segment: return 38_916
      case .key: return 16
      case .progressive: return 201_617
      }
    }

    /// A byte count inside the faulted file, for faults that stop mid-body.
    public var midBody: Int { faultedSize / 2 }
  }

  /// How many requests the faulted resource gets.
  public enum Attempts: Sendable, Equatable {
    /// One: the error is not retried.
    case once
    /// The first try and every retry: `retries + 1`.
    case everyRetry
    /// Exactly this many.
    case exactly(Int)

    /// The count for `retries` retries.
    public func count(retries: Int) -> Int {
      switch self {
      case .once: return 1
      case .everyRetry: return retries + 1
      case .exactly(let count): return count
      }
    }
  }

  /// How a row must end.
  public enum Outcome: Sendable, Equatable {
    /// The item plays to its end (exit 0).
    case plays
    /// The item fails with `code` (exit 3: every network fault is a source error) and a
    /// message that contains `fragment` (`{url}` stands for the faulted URL, `{ms}` for
    /// the timeout in milliseconds) and no raw Foundation error number.
    case fails(PlayheadError.Code, fragment: String, attempts: Attempts)
  }

  /// One row of the matrix.
  public struct Row: Sendable, CustomStringConvertible {
    public var name: String
    public var target: Target
    public var fault: HTTPTestServer.Fault
    public var outcome: Outcome
    /// When set, only requests with this `Range` header count as attempts (a progressive
    /// read that fails at one offset, after requests elsewhere in the file).
    public var countedRange: String? = nil

    /// The requests that count as attempts, from a server's log.
    public func attempts(in requests: [HTTPTestServer.LoggedRequest]) -> Int {
      requests.filter {
        $0.path == target.faultedPath && (countedRange == nil || $0.range == countedRange)
      }.count
    }

    public var description: String { "\(name) on the \(target.rawValue)" }

    /// The message fragment with `{url}` and `{ms}` filled in.
    public func fragment(url: URL, timeoutMs: Int) -> String? {
      guard case .fails(_, let fragment, _) = outcome else { return nil }
      return fragment.replacingOccurrences(of: "{url}", with: url.absoluteString)
        .replacingOccurrences(of: "{ms}", with: String(timeoutMs))
    }
  }

  /// Every row: each fault on each target.
  public static var rows: [Row] {
    Target.allCases.flatMap(rows(for:))
  }

  /// The rows for one target.
  public static func rows(for target: Target) -> [Row] {
    let size = target.faultedSize
    let middle = target.midBody
    var rows: [Row] = [
      Row(
        name: "HTTP 404", target: target, fault: .status(404),
        outcome: .fails(.httpStatus, fragment: "HTTP 404 Not Found for {url}", attempts: .once)),
      Row(
        name: "HTTP 403", target: target, fault: .status(403),
        outcome: .fails(.httpStatus, fragment: "HTTP 403 Forbidden for {url}", attempts: .once)),
      Row(
        name: "HTTP 500", target: target, fault: .status(500),
        outcome: .fails(
          .httpStatus, fragment: "HTTP 500 Internal Server Error for {url}",
          attempts: .everyRetry)),
      Row(
        name: "HTTP 503", target: target, fault: .status(503),
        outcome: .fails(
          .httpStatus, fragment: "HTTP 503 Service Unavailable for {url}",
          attempts: .everyRetry)),
      Row(
        name: "hang before headers", target: target, fault: .hang,
        outcome: .fails(
          .timedOut, fragment: "no answer from {url} within {ms} ms", attempts: .everyRetry)),
      Row(
        name: "hang after headers", target: target, fault: .hangAfter(bytes: 0),
        outcome: .fails(
          .timedOut, fragment: "no data from {url} for {ms} ms after 0 bytes",
          attempts: .everyRetry)),
      Row(
        name: "redirect loop", target: target,
        fault: .redirect(to: target.faultedPath, status: 302),
        outcome: .fails(
          .tooManyRedirects, fragment: "too many redirects (more than 10) for {url}",
          attempts: .exactly(11))),
      Row(
        name: "redirect to a local file", target: target,
        fault: .redirect(to: "file:///etc/passwd", status: 302),
        outcome: .fails(
          .redirectRefused,
          fragment: "refused the HTTP 302 redirect from {url} to a local file (file:///etc/passwd)",
          attempts: .once)),
      Row(name: "server ignores Range", target: target, fault: .ignoreRange, outcome: .plays),
    ]
    // A connection that breaks at the same byte of the file every time: each retry resumes
    // at that byte, gets the headers and no byte, and the last one's error is reported.
    // The MP4 reader jumps to the `moov` atom at byte 192690 first (a fact of the committed
    // fixture), past the middle: the progressive file fails there.
    let brokenAt = target == .progressive ? 192_690 : middle
    rows.append(
      Row(
        name: "connection closed mid-body", target: target,
        fault: .closeAtByte(offset: middle),
        outcome: .fails(
          .connectionFailed,
          fragment: "connection to {url} closed after \(brokenAt) of \(size) bytes",
          attempts: .everyRetry),
        countedRange: target == .progressive ? "bytes=\(brokenAt)-" : nil))
    // A connection that breaks in the middle of every answer: each retry resumes where
    // the last one stopped and gets further, so the whole file arrives.
    rows.append(
      Row(
        name: "connection closed mid-body on every answer", target: target,
        fault: .closeAfter(bytes: middle), outcome: .plays))
    // The whole body arrives, short of the length announced; the request that resumes at
    // its end finds nothing there, which no retry changes.
    rows.append(
      Row(
        name: "short body with a longer Content-Length", target: target,
        fault: .wrongContentLength(extra: 100),
        outcome: .fails(
          .ioError,
          fragment:
            "{url} announced \(size + 100) bytes, but a request for bytes from \(size) found none",
          attempts: .once), countedRange: "bytes=\(size)-"))
    if size <= 1_000 {
      // A 1 kB/s trickle of a small file completes: the timeout is an idle timeout.
      rows.append(
        Row(
          name: "1 kB/s trickle", target: target, fault: .slow(bytesPerSecond: 1_000),
          outcome: .plays))
    }
    return rows
  }

  /// Whether `message` shows a raw Foundation error number ("URL error -1007", "error -1").
  public static func showsRawErrorNumber(_ message: String) -> Bool {
    message.range(of: #"error -?\d+"#, options: .regularExpression) != nil
      || message.range(of: #"\(-\d+\)"#, options: .regularExpression) != nil
  }
}
