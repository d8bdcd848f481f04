import Foundation
import PlayheadCore

extension ListPlayer {
  /// Which bitrate a multi-bitrate (HLS) item is preloaded at and starts on (seed 003's
  /// `AVPMultiBitratesMode`). "The default bitrate" is `ListPlayer.defaultBandwidth` when
  /// set, else the preload configuration's start preference, else the player's.
  public enum MultiBitrateMode: Int, Sendable, Equatable, CaseIterable {
    /// Plays and preloads the default bitrate.
    case `default` = 0
    /// Fast first frame: preloads the default bitrate; an item starts on the bitrate its
    /// preload finished with (the default when it has none).
    case firstFramePriority = 1
    /// Fast first frame and smooth: preloads at the bitrate playing when the window is
    /// planned, and an item starts on the bitrate its preload finished with, else on the
    /// bitrate the previous item played, so the bitrate stays the same across a move.
    case balanced = 2
    /// Smooth: preloads like `balanced`, but an item always starts on the bitrate the
    /// previous item played (the default for the first), preloaded or not.
    case smoothPriority = 3
  }

  /// A list-player strategy that can be switched on and tuned (the seed's
  /// `AVP_STRATEGY_DYNAMIC_PRELOAD`).
  public enum Strategy: String, Sendable, Equatable, CaseIterable {
    /// The further an item is from the current one, the shorter its preload.
    case dynamicPreload
  }

  /// The dynamic preload rule: an item `d` places from the current one is preloaded for
  /// `base − (d − 1) × offsetMs` milliseconds (the seed's algorithm `"sub"`); an item
  /// whose duration comes to 0 or less is not preloaded.
  public struct DynamicPreload: Sendable, Equatable {
    /// The algorithm's name; only `"sub"` (subtract) exists.
    public var algorithm: String
    /// How many milliseconds each step away from the current item takes off.
    public var offsetMs: Int

    /// The seed's default: subtract 200 ms per step.
    public init(offsetMs: Int = 200) {
      algorithm = "sub"
      self.offsetMs = max(0, offsetMs)
    }

    /// Parses the seed's strategy parameter, e.g. `{"algorithm": "sub", "offset": "200"}`
    /// (the offset as a string or a number of milliseconds).
    ///
    /// Throws `.invalidArgument` for text that is not a JSON object (the message gives
    /// `JSONReader`'s reason and position), an algorithm other than `"sub"`, or an offset
    /// that is missing, not a whole number, or negative.
    public init(json: String) throws(PlayheadError) {
      let object: [String: JSONValue]
      do throws(PlayheadError) {
        guard let parsed = try JSONReader.read(Data(json.utf8)).objectValue else {
          throw PlayheadError(
            .invalidArgument, "the strategy parameter is not a JSON object: \(Self.excerpt(json))")
        }
        object = parsed
      } catch  where error.code == .malformedJSON {
        throw PlayheadError(
          .invalidArgument, "the strategy parameter is not JSON: \(error.message)")
      }
      let algorithm = object["algorithm"]?.stringValue ?? "sub"
      guard algorithm == "sub" else {
        throw PlayheadError(
          .invalidArgument,
          "unknown dynamic preload algorithm '\(Self.excerpt(algorithm))' (only \"sub\")")
      }
      let offset: Int?
      switch object["offset"] {
      case .string(let text)?: offset = Int(text.trimmingCharacters(in: .whitespaces))
      case .number(let number)?:
        offset =
          number == number.rounded() && abs(number) < 9.0e15 ? Int(number) : nil
      default: offset = nil
      }
      guard let offset, offset >= 0 else {
        throw PlayheadError(
          .invalidArgument,
          "the dynamic preload offset must be a whole number of milliseconds ≥ 0 in "
            + Self.excerpt(json))
      }
      self.init(offsetMs: offset)
    }

    /// `text` for a message: at most 80 characters, on one line.
    private static func excerpt(_ text: String) -> String {
      let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
      return line.count > 80 ? String(line.prefix(80)) + "…" : line
    }

    /// The preload duration at `distance` (≥ 1) from the current item, from `baseMs`.
    public func durationMs(baseMs: Int, distance: Int) -> Int {
      // Saturates: a huge offset or distance gives a duration of 0 or less, never a trap.
      let (cut, cutOverflow) = (max(1, distance) - 1).multipliedReportingOverflow(by: offsetMs)
      let (duration, overflow) = baseMs.subtractingReportingOverflow(
        cutOverflow ? (offsetMs < 0 ? .min : .max) : cut)
      return overflow ? (baseMs < 0 ? .min : .max) : duration
    }
  }

  /// One item of the preload window, as planned after the last change.
  public struct PreloadEntry: Sendable, Equatable {
    /// The item's ID.
    public var uid: String
    /// How far it is from the current item: positive ahead, negative behind.
    public var offset: Int
    /// How much of it the window wants preloaded, in milliseconds.
    public var durationMs: Int
    /// The rendition preference its preload uses.
    public var startPreference: ABRStartPreference
    /// The preload task serving it (possibly one made for a longer duration earlier).
    public var taskID: String
    /// That task's state when the snapshot was taken.
    public var state: PreloadTaskState
  }
}
