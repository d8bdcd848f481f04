/// Traps unless `first`, written and parsed again, gives the same value, and writing that
/// value gives the same text.
///
/// `compared` picks what must be equal (a model without its warnings, which describe the
/// text rather than the model). `text` and `model` name the two in the trap's message
/// ("playlist" and "model", "file" and "document").
public func checkRoundTrip<Value, Compared: Equatable, Failure: Error>(
  _ first: Value, text: String, model: String, write: (Value) -> String,
  parse: (String) throws(Failure) -> Value, compared: (Value) -> Compared
) {
  let written = write(first)
  let second: Value
  do {
    second = try parse(written)
  } catch {
    fatalError(
      "the written \(text) does not parse: \(error)\n--- written ---\n\(written.debugDescription)")
  }
  if compared(second) != compared(first) {
    fatalError(
      "round trip changed the \(model)\n--- written ---\n\(written.debugDescription)"
        + "\n--- first ---\n\(compared(first))\n--- second ---\n\(compared(second))")
  }
  let rewritten = write(second)
  if rewritten != written {
    fatalError(
      "writing is not stable\n--- first ---\n\(written.debugDescription)\n--- second ---\n"
        + rewritten.debugDescription)
  }
}
