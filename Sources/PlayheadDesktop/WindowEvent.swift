/// What the user did to a window, as a `WindowVideoSink` reports it.
///
/// The sink only reports; what a key or a click means (pause, seek, fullscreen) is the
/// application's choice.
public enum WindowEvent: Sendable, Equatable {
  /// A key was pressed (repeats while held).
  case key(Key)
  /// The primary mouse button was pressed at (`x`, `y`), window pixels from the top left.
  case click(x: Int, y: Int)
  /// The second press of a double click; the first press came as `click`.
  case doubleClick(x: Int, y: Int)
  /// The primary mouse button came up at (`x`, `y`), window pixels from the top left.
  case buttonReleased(x: Int, y: Int)
  /// The pointer moved to (`x`, `y`) over the window (also while a button is held).
  case pointerMoved(x: Int, y: Int)
  /// The pointer left the window.
  case pointerLeft
  /// The window's drawable size changed (by the user, fullscreen, or the first frame).
  case resized(width: Int, height: Int)
  /// The user asked to close the window (its close button, the window manager). The
  /// window stays open until `close()`.
  case closeRequested
}

/// A key a player's controls use, or any other as `.other`.
///
/// Printable keys are what the keyboard layout types (`#` and `L` are characters, not key
/// positions); other keys are named by SDL (`Return`, `F1`) or, with Ctrl, Alt or the
/// logo key held, as `ctrl+q` and the like.
public enum Key: Sendable, Hashable {
  case space
  case p
  case left
  case right
  case up
  case down
  case f
  case m
  /// The digit 9.
  case nine
  /// The digit 0.
  case zero
  case j
  /// `#`.
  case hash
  /// Lower-case `l`.
  case l
  /// Upper-case `L` (Shift+L).
  case capitalL
  /// `.`.
  case period
  case q
  case escape
  case i
  /// Tab (moves the keyboard focus forward).
  case tab
  /// Shift+Tab (moves the keyboard focus back).
  case backTab
  /// Return or the keypad's Enter (presses the focused control).
  case enter
  /// Any other key: the character typed, or the key's name.
  case other(String)

  /// The key that types `text` (one character; longer text, as an input method sends it,
  /// is `.other`).
  public init(typed text: String) {
    switch text {
    case " ": self = .space
    case "p": self = .p
    case "f": self = .f
    case "m": self = .m
    case "9": self = .nine
    case "0": self = .zero
    case "j": self = .j
    case "#": self = .hash
    case "l": self = .l
    case "L": self = .capitalL
    case ".": self = .period
    case "q": self = .q
    case "i": self = .i
    default: self = .other(text)
    }
  }
}
