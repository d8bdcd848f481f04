import Foundation
import Playhead
import PlayheadDesktop
import PlayheadUI

/// The window options of `play`: `--no-window`, `--window`, `--keep-open`, `--fullscreen`,
/// `--window-size WxH`, `--gravity fit|fill|stretch`, `--background RRGGBB`,
/// `--renderer auto|gpu|software`, and the controls' `--no-controls`, `--layout KIND`,
/// `--compact`.
struct WindowRequest: OptionGroup, Equatable, Sendable {
  /// The option names this type reads.
  static let names: Set<String> = [
    "--no-window", "--window", "--keep-open", "--fullscreen", "--window-size", "--gravity",
    "--background", "--renderer", "--no-controls", "--layout", "--compact",
  ]

  /// `--no-window`: headless, as without a display.
  var isDisabled = false
  /// `--window`: a window even in fast mode; no display is then an error.
  var isRequired = false
  /// `--keep-open`: at the end the last frame stays up until the window is closed.
  var keepsOpen = false
  var isFullscreen = false
  var size: (width: Int, height: Int)?
  var gravity = VideoGravity.fit
  var background = RGBAColor(r: 0, g: 0, b: 0, a: 255)
  /// `--renderer`: which SDL renderer draws the window.
  var rendering = WindowRendering.automatic
  /// `--no-controls`: no control bar over the picture.
  var hidesControls = false
  /// `--layout`: the controls' layout; nil picks one per media (`auto`, the default).
  var layout: ControlLayout.Kind?
  /// `--compact`: the compact rows at every width.
  var isCompact = false

  static func == (lhs: WindowRequest, rhs: WindowRequest) -> Bool {
    lhs.isDisabled == rhs.isDisabled && lhs.isRequired == rhs.isRequired
      && lhs.keepsOpen == rhs.keepsOpen && lhs.isFullscreen == rhs.isFullscreen
      && lhs.size?.width == rhs.size?.width && lhs.size?.height == rhs.size?.height
      && lhs.gravity == rhs.gravity && lhs.background == rhs.background
      && lhs.rendering == rhs.rendering && lhs.hidesControls == rhs.hidesControls
      && lhs.layout == rhs.layout && lhs.isCompact == rhs.isCompact
  }

  /// Whether an option that shapes the window was given.
  var shapesTheWindow: Bool {
    keepsOpen || isFullscreen || size != nil || gravity != .fit || background.r != 0
      || background.g != 0 || background.b != 0 || rendering != .automatic || hidesControls
      || layout != nil || isCompact
  }

  /// Reads `name` (one of `names`) and its value from `cursor`.
  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    switch name {
    case "--no-window", "--window", "--keep-open", "--fullscreen", "--no-controls", "--compact":
      try cursor.noValue(for: name, inline: inline)
      switch name {
      case "--no-window": isDisabled = true
      case "--window": isRequired = true
      case "--keep-open": keepsOpen = true
      case "--no-controls": hidesControls = true
      case "--compact": isCompact = true
      default: isFullscreen = true
      }
    case "--layout":
      let text = try cursor.value(for: name, inline: inline)
      if text == "auto" {
        layout = nil
      } else if let kind = ControlLayout.Kind(rawValue: text) {
        layout = kind
      } else {
        let names = (["auto"] + ControlLayout.Kind.allCases.map(\.rawValue)).joined(separator: ", ")
        throw UsageError("option '--layout' needs one of \(names), not '\(text)'")
      }
    case "--window-size":
      let text = try cursor.value(for: name, inline: inline)
      let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
      guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
        (16...16_384).contains(width), (16...16_384).contains(height)
      else {
        throw UsageError(
          "option '--window-size' needs WIDTHxHEIGHT in pixels (16 to 16384), not '\(text)'")
      }
      size = (width, height)
    case "--gravity":
      gravity = try ArgumentValue.gravity(cursor.value(for: name, inline: inline), option: name)
    case "--renderer":
      let text = try cursor.value(for: name, inline: inline)
      switch text {
      case "auto": rendering = .automatic
      case "gpu": rendering = .accelerated
      case "software": rendering = .software
      default:
        throw UsageError("option '--renderer' needs auto, gpu or software, not '\(text)'")
      }
    default:
      let text = try cursor.value(for: name, inline: inline)
      let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
      guard hex.count == 6, let value = UInt32(hex, radix: 16) else {
        throw UsageError("option '--background' needs a colour as RRGGBB, not '\(text)'")
      }
      background = RGBAColor(
        r: UInt8(value >> 16 & 0xFF), g: UInt8(value >> 8 & 0xFF), b: UInt8(value & 0xFF), a: 255)
    }
  }

  /// Checks that the options go together.
  func validate(videoDisabled: Bool) throws(UsageError) {
    if isDisabled && isRequired {
      throw UsageError("options '--window' and '--no-window' contradict each other")
    }
    if isDisabled && shapesTheWindow {
      throw UsageError("the window options cannot be used with '--no-window'")
    }
    if hidesControls && (layout != nil || isCompact) {
      throw UsageError("options '--layout' and '--compact' cannot be used with '--no-controls'")
    }
    if videoDisabled && (isRequired || shapesTheWindow) {
      throw UsageError("the window options cannot be used with '--no-video'")
    }
  }

  /// Whether the environment names a display (X11 or Wayland).
  static func hasDisplay(_ environment: [String: String] = ProcessInfo.processInfo.environment)
    -> Bool
  {
    !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
  }

  /// Whether `play` opens a window: asked for, or by default in real time with video and
  /// a display.
  func opensWindow(fast: Bool, videoDisabled: Bool) -> Bool {
    guard !isDisabled, !videoDisabled else { return false }
    return isRequired || (!fast && Self.hasDisplay())
  }
}
