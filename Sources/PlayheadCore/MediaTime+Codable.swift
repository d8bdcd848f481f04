extension MediaTime: Codable {
  private enum CodingKeys: String, CodingKey {
    case value
    case timescale
    case flags
  }

  /// Decodes `{"value", "timescale", "flags"}`, with `flags` the raw `Flags` bits.
  ///
  /// The fields are kept as decoded; contradictory flags read as documented on `Flags`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      value: try container.decode(Int64.self, forKey: .value),
      timescale: try container.decode(Int32.self, forKey: .timescale),
      flags: Flags(rawValue: try container.decode(UInt32.self, forKey: .flags)))
  }

  /// Encodes `{"value", "timescale", "flags"}`, with `flags` the raw `Flags` bits.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(value, forKey: .value)
    try container.encode(timescale, forKey: .timescale)
    try container.encode(flags.rawValue, forKey: .flags)
  }
}
