import CSDL2

extension WindowRenderer {
  /// Redraws on exposure and size changes; reports resizes and close requests.
  func handleWindowEvent(_ event: SDL_WindowEvent) {
    switch UInt32(event.event) {
    case SDL_WINDOWEVENT_SIZE_CHANGED.rawValue:
      drawAndPresent()
      deliver(.resized(width: Int(event.data1), height: Int(event.data2)))
    case SDL_WINDOWEVENT_EXPOSED.rawValue:
      drawAndPresent()
    case SDL_WINDOWEVENT_CLOSE.rawValue:
      deliver(.closeRequested)
    case SDL_WINDOWEVENT_LEAVE.rawValue:
      deliver(.pointerLeft)
    default:
      break
    }
  }

  /// Reports keys that type nothing (arrows, Escape, named keys) and keys pressed with
  /// Ctrl, Alt or the logo key; printable keys come as text (`handleText(_:)`).
  func handleKey(_ keysym: SDL_Keysym) {
    let code = UInt32(bitPattern: keysym.sym)
    switch code {
    case SDLK_LEFT.rawValue: return deliver(.key(.left))
    case SDLK_RIGHT.rawValue: return deliver(.key(.right))
    case SDLK_UP.rawValue: return deliver(.key(.up))
    case SDLK_DOWN.rawValue: return deliver(.key(.down))
    case SDLK_ESCAPE.rawValue: return deliver(.key(.escape))
    case SDLK_RETURN.rawValue, SDLK_KP_ENTER.rawValue:
      if Self.commandModifiers(UInt32(keysym.mod)).isEmpty { return deliver(.key(.enter)) }
    case SDLK_TAB.rawValue:
      if Self.commandModifiers(UInt32(keysym.mod)).isEmpty {
        let shifted = UInt32(keysym.mod) & KMOD_SHIFT.rawValue != 0
        return deliver(.key(shifted ? .backTab : .tab))
      }
    default: break
    }
    guard !Self.modifierKeys.contains(code) else { return }
    let name = SDL_GetKeyName(keysym.sym).map { String(cString: $0) } ?? ""
    let held = Self.commandModifiers(UInt32(keysym.mod))
    if !held.isEmpty {
      deliver(.key(.other((held + [name.lowercased()]).joined(separator: "+"))))
      return
    }
    let printable =
      code & UInt32(SDLK_SCANCODE_MASK) == 0 && code >= 0x20 && code != 0x7F
    guard !printable, !name.isEmpty else { return }
    deliver(.key(.other(name)))
  }

  /// Reports typed text as keys, unless Ctrl, Alt or the logo key is held (the key press
  /// reports those).
  func handleText(_ text: String) {
    guard !text.isEmpty, Self.commandModifiers(UInt32(SDL_GetModState().rawValue)).isEmpty
    else { return }
    deliver(.key(Key(typed: text)))
  }

  /// Reports presses of the primary button as clicks and double clicks.
  func handleButton(_ event: SDL_MouseButtonEvent) {
    guard Int32(event.button) == SDL_BUTTON_LEFT else { return }
    let x = Int(event.x)
    let y = Int(event.y)
    deliver(event.clicks == 2 ? .doubleClick(x: x, y: y) : .click(x: x, y: y))
  }

  /// Reports the primary button coming up.
  func handleButtonRelease(_ event: SDL_MouseButtonEvent) {
    guard Int32(event.button) == SDL_BUTTON_LEFT else { return }
    deliver(.buttonReleased(x: Int(event.x), y: Int(event.y)))
  }

  /// Reports the pointer moving over the window.
  func handlePointerMotion(_ event: SDL_MouseMotionEvent) {
    deliver(.pointerMoved(x: Int(event.x), y: Int(event.y)))
  }

  /// Keys that only modify others; pressing one alone reports nothing.
  private static let modifierKeys: Set<UInt32> = [
    SDLK_LSHIFT.rawValue, SDLK_RSHIFT.rawValue, SDLK_LCTRL.rawValue, SDLK_RCTRL.rawValue,
    SDLK_LALT.rawValue, SDLK_RALT.rawValue, SDLK_LGUI.rawValue, SDLK_RGUI.rawValue,
    SDLK_CAPSLOCK.rawValue, SDLK_NUMLOCKCLEAR.rawValue, SDLK_MODE.rawValue,
  ]

  /// The names of the command modifiers held in `mods` (`ctrl`, `alt`, `gui`).
  private static func commandModifiers(_ mods: UInt32) -> [String] {
    var held: [String] = []
    if mods & KMOD_CTRL.rawValue != 0 { held.append("ctrl") }
    if mods & KMOD_ALT.rawValue != 0 { held.append("alt") }
    if mods & KMOD_GUI.rawValue != 0 { held.append("gui") }
    return held
  }
}
