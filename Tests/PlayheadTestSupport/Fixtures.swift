import Foundation

/// Locates the committed media fixtures under `<repo>/Fixtures` and decodes their manifest.
///
/// A missing fixture throws ``FixtureError``, so a test that needs it fails instead of
/// skipping. The files are made by `scripts/make-fixtures.sh`; `manifest.json` holds the facts
/// ffprobe measured when they were made, so tests never depend on the ffmpeg installed now.
///
///     let url = try Fixtures.url("sample-h264-aac.mp4")
///     let facts = try Fixtures.manifest().file("sample-h264-aac.mp4")
public enum Fixtures {
  /// The URL of `<repo>/Fixtures/<name>`, where `name` may contain subfolders (`hls/master.m3u8`).
  ///
  /// Throws ``FixtureError`` naming the missing path and the calling test's location when the
  /// file does not exist or when `name` tries to leave the fixtures folder.
  public static func url(
    _ name: String, file: StaticString = #filePath, line: UInt = #line
  ) throws -> URL {
    let caller = "\(file):\(line)"
    let parts = name.split(separator: "/", omittingEmptySubsequences: true)
    guard !parts.isEmpty, !parts.contains(".."), !name.hasPrefix("/") else {
      throw FixtureError(
        "fixture name '\(name)' must be a relative path inside Fixtures/ (at \(caller))")
    }
    let url = try directory(file: file, line: line).appendingPathComponent(name)
    guard FileManager.default.fileExists(atPath: url.path) else {
      throw FixtureError(
        "fixture '\(name)' is missing at \(url.path); run `make fixtures` (at \(caller))")
    }
    return url
  }

  /// The `<repo>/Fixtures` folder, found by walking up from this source file to `Package.swift`.
  ///
  /// Throws ``FixtureError`` when no package root or no `Fixtures` folder is found.
  /// The bytes of the six TS segments of the `hls/144p` fixture (2 s each), for live
  /// streams a test publishes (`LiveHLSPublisher`).
  public static func hlsSegments() throws -> [Data] {
    try (0..<6).map { index in
      try Data(contentsOf: try url(String(format: "hls/144p/segment%03d.ts", index)))
    }
  }

  public static func directory(
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> URL {
    let caller = "\(file):\(line)"
    var folder = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent()
    while folder.path != "/" {
      let package = folder.appendingPathComponent("Package.swift")
      if FileManager.default.fileExists(atPath: package.path) {
        let fixtures = folder.appendingPathComponent("Fixtures", isDirectory: true)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: fixtures.path, isDirectory: &isDirectory),
          isDirectory.boolValue
        else {
          throw FixtureError("no Fixtures/ folder in package root \(folder.path) (at \(caller))")
        }
        return fixtures
      }
      folder.deleteLastPathComponent()
    }
    throw FixtureError("no Package.swift above \(#filePath) (at \(caller))")
  }

  /// Decodes `Fixtures/manifest.json`.
  ///
  /// Throws ``FixtureError`` when the manifest is missing or does not decode.
  public static func manifest(
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> FixtureManifest {
    let url = try url("manifest.json", file: file, line: line)
    do {
      return try JSONDecoder().decode(FixtureManifest.self, from: Data(contentsOf: url))
    } catch {
      throw FixtureError("cannot decode \(url.path): \(error) (at \(file):\(line))")
    }
  }
}

/// Why a fixture could not be found or read; its description is one line for the test log.
public struct FixtureError: Error, Sendable, CustomStringConvertible, LocalizedError {
  /// What is missing or broken, with the calling test's location.
  public let description: String

  /// Makes an error with a one-line description.
  public init(_ description: String) {
    self.description = description
  }

  public var errorDescription: String? { description }
}

/// The facts ffprobe measured about every fixture when `scripts/make-fixtures.sh` made them.
public struct FixtureManifest: Codable, Sendable, Equatable {
  /// The script and the ffmpeg version that made the fixtures.
  public var generatedBy: String
  /// One entry per fixture, media and non-media alike.
  public var files: [FixtureFile]

  /// The entry named `name` (a path relative to `Fixtures/`).
  ///
  /// Throws ``FixtureError`` when the manifest has no such entry.
  public func file(
    _ name: String, file: StaticString = #filePath, line: UInt = #line
  ) throws -> FixtureFile {
    guard let entry = files.first(where: { $0.name == name }) else {
      throw FixtureError("manifest.json has no entry '\(name)' (at \(file):\(line))")
    }
    return entry
  }
}

/// What ffprobe measured about one fixture file.
public struct FixtureFile: Codable, Sendable, Equatable {
  /// The path relative to `Fixtures/`, such as `hls/720p/index.m3u8`.
  public var name: String
  /// Whether FFmpeg can open it; `false` for `truncated.mp4` and `not-a-video.mp4`.
  public var opens: Bool
  /// The file's size in bytes.
  public var sizeBytes: Int
  /// FFmpeg's `format_name`, such as `mov,mp4,m4a,3gp,3g2,mj2` or `mpegts`; `nil` if unopenable.
  public var container: String?
  /// The container duration in seconds.
  public var durationSeconds: Double?
  /// The container start time in seconds (about 1.46 for MPEG-TS, negative is possible).
  public var startTimeSeconds: Double?
  /// What the fixture shows or why it is broken.
  public var description: String?
  /// The streams in container order; empty when the file does not open.
  public var streams: [FixtureStream]
  /// Every segment's `EXTINF` duration in seconds, in playlist order (media playlists of the
  /// streaming fixtures `hls-*/` only).
  public var segmentDurationsSeconds: [Double]?
  /// The segments as the fixture script wrote them, in playlist order (media playlists of the
  /// streaming fixtures `hls-*/` only).
  public var segments: [FixtureSegment]?

  /// The streams whose `codecType` is `video`.
  public var videoStreams: [FixtureStream] { streams.filter { $0.codecType == "video" } }
  /// The streams whose `codecType` is `audio`.
  public var audioStreams: [FixtureStream] { streams.filter { $0.codecType == "audio" } }
}

/// What ffprobe measured about one stream; fields that do not apply to its type are `nil`.
public struct FixtureStream: Codable, Sendable, Equatable {
  /// The stream index in the container.
  public var index: Int
  /// `video`, `audio`, or another FFmpeg media type name.
  public var codecType: String
  /// FFmpeg's codec name: `h264`, `aac`, `mp3`, `vp9`, `opus`.
  public var codecName: String?
  /// The codec profile name, such as `High`, `Main` or `LC`.
  public var profile: String?
  /// The stream time base as `num/den`, such as `1/12800` or `1/90000`.
  public var timeBase: String?
  /// The stream start time in seconds.
  public var startTimeSeconds: Double?
  /// The stream duration in seconds, when the container records one.
  public var durationSeconds: Double?
  /// Frames the decoder produced (`ffprobe -count_frames`).
  public var nbReadFrames: Int?
  /// Packets the demuxer read (`ffprobe -count_packets`).
  public var nbReadPackets: Int?
  /// The coded width in pixels (video).
  public var width: Int?
  /// The coded height in pixels (video).
  public var height: Int?
  /// FFmpeg's pixel format name, such as `yuv420p` (video).
  public var pixelFormat: String?
  /// The frame rate as `num/den`, such as `25/1` (video).
  public var rFrameRate: String?
  /// The decoder's reorder depth; greater than 0 when B-frames make PTS differ from DTS (video).
  public var hasBFrames: Int?
  /// Every decoded frame's PTS in `timeBase` units, in presentation order (sample-h264-aac only).
  public var framePTS: [Int64]?
  /// Every decoded frame's PTS in seconds, in presentation order (sample-h264-aac only).
  public var framePTSSeconds: [Double]?
  /// The PTS in seconds of every decoded keyframe (sample-h264-aac only).
  public var keyFramePTSSeconds: [Double]?
  /// The sample rate in hertz (audio).
  public var sampleRate: Int?
  /// The channel count (audio).
  public var channels: Int?
  /// The sum of `nb_samples` over all decoded frames, per channel (audio).
  public var decodedSampleCount: Int?
}

/// One segment of a streaming fixture's media playlist, with inherited values resolved.
public struct FixtureSegment: Codable, Sendable, Equatable {
  /// The URI as written in the playlist, relative to the playlist (`segment003.ts`).
  public var uri: String
  /// The media sequence number: `EXT-X-MEDIA-SEQUENCE` plus the segment's position.
  public var sequenceNumber: Int
  /// The `EXTINF` duration in seconds.
  public var durationSeconds: Double
  /// The bytes a client fetches: the byte range's length, otherwise the file's size.
  public var sizeBytes: Int
  /// The `EXT-X-BYTERANGE` length, when the segment is a range of its file.
  public var byteRangeLength: Int?
  /// The `EXT-X-BYTERANGE` offset, filled in when the tag omits it.
  public var byteRangeOffset: Int?
  /// The `EXT-X-MAP` URI in effect (`init.mp4` for fMP4), relative to the playlist.
  public var mapURI: String?
  /// The AES-128 key file's URI in effect, relative to the playlist.
  public var keyURI: String?
  /// The 16 key bytes of `keyURI` as 32 lowercase hex digits.
  public var keyHex: String?
  /// The IV used, as 32 lowercase hex digits without `0x`: the tag's `IV` or, without one, the
  /// media sequence number.
  public var ivHex: String?
}
