/// What `EXT-X-STREAM-INF` and `EXT-X-I-FRAME-STREAM-INF` variants both carry, read and
/// written the same way for either tag.
protocol VariantStream {
  var bandwidth: Int { get set }
  var averageBandwidth: Int? { get set }
  var codecs: String? { get set }
  var resolution: Resolution? { get set }
  var attributes: [String: String] { get set }
}

extension Variant: VariantStream {}
extension IFrameVariant: VariantStream {}
