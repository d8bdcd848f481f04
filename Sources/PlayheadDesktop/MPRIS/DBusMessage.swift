import CDBus
import Foundation

/// A value MPRIS sends or receives over D-Bus.
enum DBusValue: Sendable, Equatable {
  case string(String)
  case objectPath(String)
  case bool(Bool)
  case double(Double)
  case int64(Int64)
  case strings([String])
  /// A dictionary of variants (`a{sv}`), written in key order.
  case dictionary([String: DBusValue])

  /// The D-Bus signature of the value.
  var signature: String {
    switch self {
    case .string: return "s"
    case .objectPath: return "o"
    case .bool: return "b"
    case .double: return "d"
    case .int64: return "x"
    case .strings: return "as"
    case .dictionary: return "a{sv}"
    }
  }
}

/// One D-Bus message, owned here (unreferenced in deinit); built or read on one thread
/// (a call and its reply on the D-Bus thread, a signal where it is sent), so not Sendable.
final class DBusMessage {
  let raw: OpaquePointer

  /// Takes over a reference libdbus gave (popped or newly made).
  init(adopting raw: OpaquePointer) {
    self.raw = raw
  }

  deinit { dbus_message_unref(raw) }

  /// A method return for `call`.
  static func methodReturn(to call: DBusMessage) -> DBusMessage? {
    dbus_message_new_method_return(call.raw).map(DBusMessage.init(adopting:))
  }

  /// An error reply for `call`, named like `org.freedesktop.DBus.Error.UnknownMethod`.
  static func error(to call: DBusMessage, name: String, message: String) -> DBusMessage? {
    dbus_message_new_error(call.raw, name, message).map(DBusMessage.init(adopting:))
  }

  /// A signal from `path` on `interface`.
  static func signal(path: String, interface: String, member: String) -> DBusMessage? {
    dbus_message_new_signal(path, interface, member).map(DBusMessage.init(adopting:))
  }

  /// Whether this is a method call (not a signal, reply or error).
  var isMethodCall: Bool { dbus_message_get_type(raw) == CDBus_MESSAGE_TYPE_METHOD_CALL() }
  var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
  var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
  var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
  /// Whether the caller asked for no reply.
  var expectsReply: Bool { dbus_message_get_no_reply(raw) == 0 }

  // MARK: Reading

  /// The call's arguments, as far as they are of types `DBusValue` has (a variant gives
  /// its content); reading stops at the first other type.
  func arguments() -> [DBusValue] {
    var iterator = DBusMessageIter()
    guard dbus_message_iter_init(raw, &iterator) != 0 else { return [] }
    var values: [DBusValue] = []
    repeat {
      guard let value = Self.read(&iterator) else { break }
      values.append(value)
    } while dbus_message_iter_next(&iterator) != 0
    return values
  }

  private static func read(_ iterator: inout DBusMessageIter) -> DBusValue? {
    let type = dbus_message_iter_get_arg_type(&iterator)
    switch type {
    case CDBus_TYPE_STRING(), CDBus_TYPE_OBJECT_PATH():
      var text: UnsafePointer<CChar>?
      dbus_message_iter_get_basic(&iterator, &text)
      let string = text.map { String(cString: $0) } ?? ""
      return type == CDBus_TYPE_STRING() ? .string(string) : .objectPath(string)
    case CDBus_TYPE_BOOLEAN():
      var flag: dbus_bool_t = 0
      dbus_message_iter_get_basic(&iterator, &flag)
      return .bool(flag != 0)
    case CDBus_TYPE_DOUBLE():
      var number = 0.0
      dbus_message_iter_get_basic(&iterator, &number)
      return .double(number)
    case CDBus_TYPE_INT64():
      var number: Int64 = 0
      dbus_message_iter_get_basic(&iterator, &number)
      return .int64(number)
    case CDBus_TYPE_VARIANT():
      var inner = DBusMessageIter()
      dbus_message_iter_recurse(&iterator, &inner)
      return read(&inner)
    default:
      return nil
    }
  }

  // MARK: Writing

  /// Appends `values` to the message's arguments.
  func append(_ values: [DBusValue]) {
    var iterator = DBusMessageIter()
    dbus_message_iter_init_append(raw, &iterator)
    for value in values { Self.write(value, into: &iterator) }
  }

  /// Appends `value` wrapped in a variant.
  func appendVariant(_ value: DBusValue) {
    var iterator = DBusMessageIter()
    dbus_message_iter_init_append(raw, &iterator)
    Self.writeVariant(value, into: &iterator)
  }

  private static func writeVariant(_ value: DBusValue, into iterator: inout DBusMessageIter) {
    var variant = DBusMessageIter()
    dbus_message_iter_open_container(&iterator, CDBus_TYPE_VARIANT(), value.signature, &variant)
    write(value, into: &variant)
    dbus_message_iter_close_container(&iterator, &variant)
  }

  private static func write(_ value: DBusValue, into iterator: inout DBusMessageIter) {
    switch value {
    case .string(let text):
      appendString(text, type: CDBus_TYPE_STRING(), into: &iterator)
    case .objectPath(let path):
      appendString(path, type: CDBus_TYPE_OBJECT_PATH(), into: &iterator)
    case .bool(let flag):
      var raw: dbus_bool_t = flag ? 1 : 0
      dbus_message_iter_append_basic(&iterator, CDBus_TYPE_BOOLEAN(), &raw)
    case .double(let number):
      var raw = number
      dbus_message_iter_append_basic(&iterator, CDBus_TYPE_DOUBLE(), &raw)
    case .int64(let number):
      var raw = number
      dbus_message_iter_append_basic(&iterator, CDBus_TYPE_INT64(), &raw)
    case .strings(let texts):
      var array = DBusMessageIter()
      dbus_message_iter_open_container(&iterator, CDBus_TYPE_ARRAY(), "s", &array)
      for text in texts { appendString(text, type: CDBus_TYPE_STRING(), into: &array) }
      dbus_message_iter_close_container(&iterator, &array)
    case .dictionary(let entries):
      var array = DBusMessageIter()
      dbus_message_iter_open_container(&iterator, CDBus_TYPE_ARRAY(), "{sv}", &array)
      for key in entries.keys.sorted() {
        guard let entryValue = entries[key] else { continue }
        var entry = DBusMessageIter()
        dbus_message_iter_open_container(&array, CDBus_TYPE_DICT_ENTRY(), nil, &entry)
        appendString(key, type: CDBus_TYPE_STRING(), into: &entry)
        writeVariant(entryValue, into: &entry)
        dbus_message_iter_close_container(&array, &entry)
      }
      dbus_message_iter_close_container(&iterator, &array)
    }
  }

  /// Appends a string or object path; text that is not valid for D-Bus (embedded NUL)
  /// is cut at the NUL, as C strings are.
  private static func appendString(
    _ text: String, type: Int32, into iterator: inout DBusMessageIter
  ) {
    text.withCString { pointer in
      var raw: UnsafePointer<CChar>? = pointer
      dbus_message_iter_append_basic(&iterator, type, &raw)
    }
  }
}
