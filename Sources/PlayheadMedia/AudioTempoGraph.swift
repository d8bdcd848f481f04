import CFFmpeg
import Foundation
import PlayheadCore

/// Owns an `AVFilterGraph` of `abuffer → <chain> → aformat → abuffersink` for one
/// interleaved format (the chain's output is converted back to it), plus the two frames it
/// feeds and drains through: `atempo…` for the rate stage, the enhancement filters for
/// `AudioEnhancementProcessor`.
final class AudioTempoGraph {
  /// What the graph is for, in its error messages ("tempo", "audio enhancement").
  private let purpose: String
  private let graph: FilterGraph
  private let source: UnsafeMutablePointer<AVFilterContext>
  private let sink: UnsafeMutablePointer<AVFilterContext>
  private var inputFrame: UnsafeMutablePointer<AVFrame>?
  private var outputFrame: UnsafeMutablePointer<AVFrame>?
  private let format: AudioOutputFormat
  private let layout: ChannelLayout
  private var samplesIn: Int64 = 0
  /// libavfilter's functions (the library is loaded on first use).
  private let api: CFFmpegFilterFunctions
  private(set) var isFinished = false

  /// The `atempo` factors whose product is `rate`, each within 0.5...2.0 (the range where
  /// the filter sounds best).
  static func tempoFactors(for rate: Double) -> [Double] {
    var remaining = rate
    var factors: [Double] = []
    while remaining > 2.0 {
      factors.append(2.0)
      remaining /= 2.0
    }
    while remaining < 0.5 {
      factors.append(0.5)
      remaining /= 0.5
    }
    factors.append(remaining)
    return factors
  }

  convenience init(format: AudioOutputFormat, rate: Double) throws(PlayheadError) {
    let tempo = Self.tempoFactors(for: rate).map { "atempo=\($0)" }.joined(separator: ",")
    try self.init(format: format, chain: tempo, purpose: "tempo")
  }

  /// A graph running the filters of `chain` (libavfilter's syntax, one linear chain).
  init(format: AudioOutputFormat, chain: String, purpose: String) throws(PlayheadError) {
    self.purpose = purpose
    self.format = format
    layout = ChannelLayout(channels: format.channels)
    api = try FilterLibrary.functions()
    // The graph's owner frees it (and the filters in it) even when this init throws.
    graph = try FilterGraph(api)
    let layoutName = layout.description
    let arguments =
      "time_base=1/\(format.sampleRate):sample_rate=\(format.sampleRate):"
      + "sample_fmt=\(format.sampleFormat.filterName):channel_layout=\(layoutName)"
    source = try graph.addFilter("abuffer", name: "in", arguments: arguments)
    sink = try graph.addFilter("abuffersink", name: "out", arguments: nil)
    inputFrame = av_frame_alloc()
    outputFrame = av_frame_alloc()
    let description =
      "\(chain),aformat=sample_fmts=\(format.sampleFormat.filterName):"
      + "sample_rates=\(format.sampleRate):channel_layouts=\(layoutName)"
    try link(description, graph: graph.raw)
    let result = api.graph_config(graph.raw, nil)
    if result < 0 {
      throw FFmpegError.make(
        .decodeFailed, "Could not configure the \(purpose) filter", code: result)
    }
  }

  deinit {
    av_frame_free(&inputFrame)
    av_frame_free(&outputFrame)
  }

  /// Parses `description` between the graph's input and output.
  private func link(_ description: String, graph: UnsafeMutablePointer<AVFilterGraph>)
    throws(PlayheadError)
  {
    // avfilter_graph_parse_ptr updates both lists in place to what stays unlinked; the
    // lists in these two variables are freed once, here.
    var outputs = api.inout_alloc()
    var inputs = api.inout_alloc()
    defer {
      api.inout_free(&outputs)
      api.inout_free(&inputs)
    }
    guard let outputList = outputs, let inputList = inputs else {
      throw PlayheadError(.decodeFailed, "Could not allocate audio filter links")
    }
    outputList.pointee.name = av_strdup("in")
    outputList.pointee.filter_ctx = source
    outputList.pointee.pad_idx = 0
    outputList.pointee.next = nil
    inputList.pointee.name = av_strdup("out")
    inputList.pointee.filter_ctx = sink
    inputList.pointee.pad_idx = 0
    inputList.pointee.next = nil
    let result = api.graph_parse_ptr(graph, description, &inputs, &outputs, nil)
    if result < 0 {
      throw FFmpegError.make(.decodeFailed, "Could not build the \(purpose) filter", code: result)
    }
  }

  /// Feeds interleaved `samples` (`frameCount` frames); appends what comes out to `output`.
  func push(_ samples: Data, frameCount: Int, into output: inout Data) throws(PlayheadError) {
    guard let frame = inputFrame, frameCount > 0 else { return }
    frame.pointee.nb_samples = Int32(frameCount)
    frame.pointee.format = format.sampleFormat.avSampleFormat.rawValue
    frame.pointee.sample_rate = Int32(format.sampleRate)
    var result = av_channel_layout_copy(&frame.pointee.ch_layout, &layout.layout)
    if result >= 0 { result = av_frame_get_buffer(frame, 0) }
    if result < 0 {
      av_frame_unref(frame)
      throw FFmpegError.make(.decodeFailed, "Could not allocate an audio frame", code: result)
    }
    let byteCount = frameCount * format.bytesPerFrame
    samples.withUnsafeBytes { raw in
      if let base = raw.baseAddress, let plane = frame.pointee.data.0 {
        plane.update(
          from: base.assumingMemoryBound(to: UInt8.self), count: min(byteCount, raw.count))
      }
    }
    frame.pointee.pts = samplesIn
    samplesIn += Int64(frameCount)
    // The source takes the frame's buffers and leaves `frame` blank for reuse.
    result = api.buffersrc_add_frame_flags(source, frame, 0)
    if result < 0 {
      av_frame_unref(frame)
      throw FFmpegError.make(.decodeFailed, "The \(purpose) filter refused audio", code: result)
    }
    try pull(into: &output)
  }

  /// Signals the end of input and appends everything left to `output`.
  func finish(into output: inout Data) throws(PlayheadError) {
    guard !isFinished else { return }
    isFinished = true
    let result = api.buffersrc_add_frame_flags(source, nil, 0)
    if result < 0 {
      throw FFmpegError.make(.decodeFailed, "Could not flush the \(purpose) filter", code: result)
    }
    try pull(into: &output)
  }

  private func pull(into output: inout Data) throws(PlayheadError) {
    guard let frame = outputFrame else { return }
    while true {
      let result = api.buffersink_get_frame(sink, frame)
      if result == FFmpegError.again || result == FFmpegError.eof { return }
      if result < 0 {
        throw FFmpegError.make(.decodeFailed, "The \(purpose) filter failed", code: result)
      }
      let byteCount = Int(frame.pointee.nb_samples) * format.bytesPerFrame
      if let plane = frame.pointee.data.0, byteCount > 0 {
        output.append(plane, count: byteCount)
      }
      av_frame_unref(frame)
    }
  }
}

/// Owns one `AVFilterGraph` (freed with `avfilter_graph_free`, which frees its filters).
final class FilterGraph {
  private(set) var raw: UnsafeMutablePointer<AVFilterGraph>
  private let api: CFFmpegFilterFunctions

  init(_ api: CFFmpegFilterFunctions) throws(PlayheadError) {
    self.api = api
    guard let graph = api.graph_alloc() else {
      throw PlayheadError(.decodeFailed, "Could not allocate an audio filter graph")
    }
    raw = graph
  }

  deinit {
    var pointer: UnsafeMutablePointer<AVFilterGraph>? = raw
    api.graph_free(&pointer)
  }

  /// Adds an instance of the filter `filterName`, owned by the graph.
  func addFilter(_ filterName: String, name: String, arguments: String?) throws(PlayheadError)
    -> UnsafeMutablePointer<AVFilterContext>
  {
    guard let filter = api.get_by_name(filterName) else {
      throw PlayheadError(.decoderUnavailable, "This FFmpeg has no \(filterName) filter")
    }
    var created: UnsafeMutablePointer<AVFilterContext>?
    let result = api.graph_create_filter(&created, filter, name, arguments, nil, raw)
    guard result >= 0, let created else {
      throw FFmpegError.make(
        .decodeFailed, "Could not create the \(filterName) filter", code: result)
    }
    return created
  }
}
