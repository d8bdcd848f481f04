import Foundation

/// The one error type that every Playhead layer throws.
///
/// `code` says what went wrong; `message` is a one-line, human-readable reason that the
/// command line prints as it is. `category` groups codes the way the CLI maps them to
/// exit codes (3 for sources that cannot be opened, 4 for media that cannot be played).
public struct PlayheadError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Code: String, Sendable, Equatable, Codable {
    /// A local path does not exist.
    case fileNotFound
    /// A local path names a directory, not a file.
    case isDirectory
    /// A local path names something other than a regular file or a directory: a
    /// character or block device (`/dev/zero`), a FIFO or a socket. Such a path is refused
    /// before it is opened, because reading it may never end or block for ever.
    case notRegularFile
    /// The source has no bytes at all.
    case emptySource
    /// The URL's scheme is not one Playhead can load (only `file`, `http`, `https`).
    case unsupportedScheme
    /// An HTTP server answered with a non-success status.
    case httpStatus
    /// An HTTP redirect pointed to a scheme other than `http` or `https` (a `file:` URL,
    /// for one) and was refused: a network resource may never lead to a local one.
    case redirectRefused
    /// An HTTP request was redirected too many times (a redirect loop).
    case tooManyRedirects
    /// No answer within the configured timeout.
    case timedOut
    /// The connection could not be made or broke.
    case connectionFailed
    /// The operation was cancelled (the player closed, or the caller cancelled).
    case cancelled
    /// A read or write failed for another I/O reason.
    case ioError
    /// The bytes are not a container FFmpeg recognises, or they are truncated past use.
    case unsupportedFormat
    /// JSON text that `JSONReader` refuses: not well-formed, not UTF-8, nested deeper than
    /// its depth limit, or past one of its other limits. `message` names the problem and
    /// where it is (line, column and byte offset).
    case malformedJSON
    /// The container opened but holds no stream Playhead can play.
    case noPlayableStreams
    /// No decoder exists for a stream's codec.
    case decoderUnavailable
    /// A decoder, converter or encoder failed.
    case decodeFailed
    /// Encrypted bytes could not be decrypted: a wrong key or IV, or bytes that are not
    /// whole cipher blocks.
    case decryptionFailed
    /// A segment or initialization section is encrypted with a key method Playhead cannot
    /// decrypt (`SAMPLE-AES`, `AES-256`, an unknown one: the message names it), or its key
    /// is for a key system no content-key provider answered for.
    case unsupportedEncryption
    /// A playlist is empty or has a fatal parse error (the message names the line).
    case invalidPlaylist
    /// A caller passed an argument out of range.
    case invalidArgument
    /// The object was used after it was closed or discarded.
    case invalidState
    /// A URL expired (HTTP 403 or 410, or a signature past its expiry) and no fresh one
    /// was had: the application's refresh handler reported an error (its message is in
    /// `message`), did not answer in time, or kept returning URLs that were expired too.
    case sourceExpired
    /// Playback made no progress for `PlayerConfiguration.noProgressTimeoutMs` of the
    /// player's clock while it should have been playing, with no network request pending
    /// that could end the wait (the message says what stalled).
    case noProgress
    /// The media ended far short of its declared duration, or its selected video track
    /// gave no frame: the file or stream is corrupt or cut short.
    case mediaEndedEarly
    /// A session recording that cannot be read: cut short, edited, or not one at all (the
    /// message names the line and what is wrong there).
    case invalidRecording
    /// A replay asked for a transfer the recording does not hold (the message names the
    /// request), or for more of one than the recorded session read.
    case notInRecording
    /// An ad or an ad break could not be played (the message carries the IAB VAST code).
    case adFailed
  }

  /// How the command line groups errors into exit codes.
  public enum Category: Sendable, Equatable {
    /// The source could not be opened or read (exit code 3).
    case source
    /// The media is unsupported or undecodable (exit code 4).
    case media
    /// A caller error (exit code 2).
    case usage
  }

  public var code: Code
  public var message: String
  /// The URL involved, when there is one.
  public var url: URL?
  /// The HTTP status code for `.httpStatus`.
  public var httpStatusCode: Int?
  /// FFmpeg's negative error code, when the error came from FFmpeg.
  public var ffmpegErrorCode: Int32?

  public init(
    _ code: Code, _ message: String, url: URL? = nil, httpStatusCode: Int? = nil,
    ffmpegErrorCode: Int32? = nil
  ) {
    self.code = code
    self.message = message
    self.url = url
    self.httpStatusCode = httpStatusCode
    self.ffmpegErrorCode = ffmpegErrorCode
  }

  public var category: Category {
    switch code {
    case .fileNotFound, .isDirectory, .notRegularFile, .emptySource, .unsupportedScheme,
      .httpStatus, .redirectRefused, .tooManyRedirects, .timedOut, .connectionFailed, .cancelled,
      .ioError, .sourceExpired, .invalidRecording, .notInRecording:
      return .source
    case .unsupportedFormat, .malformedJSON, .noPlayableStreams, .decoderUnavailable,
      .decodeFailed, .decryptionFailed, .unsupportedEncryption, .invalidPlaylist, .noProgress,
      .mediaEndedEarly, .adFailed:
      return .media
    case .invalidArgument, .invalidState:
      return .usage
    }
  }

  public var description: String { message }
}
