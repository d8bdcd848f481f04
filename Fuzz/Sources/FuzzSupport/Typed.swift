/// The value of `body`, or nil after checking that its error has a one-line message.
///
/// Traps when the error's description is empty or spans more than one line.
public func typed<Value, Failure: Error & CustomStringConvertible>(
  _ body: () throws(Failure) -> Value
) -> Value? {
  do {
    return try body()
  } catch {
    precondition(!error.description.isEmpty, "an error without a message")
    precondition(!error.description.contains("\n"), "a message on two lines: \(error)")
    return nil
  }
}
