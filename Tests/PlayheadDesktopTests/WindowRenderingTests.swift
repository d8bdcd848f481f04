import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadTestSupport
import XCTest

@testable import PlayheadDesktop

/// Which renderer draws a window (`WindowRendering`): Xvfb's OpenGL is Mesa's llvmpipe, a
/// software rasteriser, so `.automatic` draws with SDL's software renderer there.
final class WindowRenderingTests: WindowTestCase {
  private func open(_ rendering: WindowRendering) throws -> WindowVideoSink {
    try WindowVideoSink(
      options: WindowOptions(
        title: "playhead-rendering-\(UUID().uuidString.prefix(8))",
        size: WindowSize(width: 320, height: 240), background: .blue, rendering: rendering))
  }

  func testAutomaticAvoidsTheSoftwareRasterisedOpenGL() throws {
    let accelerated = try open(.accelerated)
    defer { accelerated.close() }
    XCTAssertEqual(
      accelerated.rendererName?.hasPrefix("opengl"), true,
      "Xvfb offers OpenGL (llvmpipe): \(accelerated.rendererName ?? "nil")")
    let automatic = try open(.automatic)
    defer { automatic.close() }
    XCTAssertEqual(automatic.rendererName, "software")
    let software = try open(.software)
    defer { software.close() }
    XCTAssertEqual(software.rendererName, "software")
  }

  func testEachRendererDrawsThePictureAndTheBackground() throws {
    for rendering in WindowRendering.allCases {
      let sink = try open(rendering)
      defer { sink.close() }
      try sink.present(
        try VideoFrame.solid(width: 160, height: 240, color: .red), itemTime: .zero)
      let image = sink.snapshot()
      XCTAssertEqual(image?.width, 320, "\(rendering)")
      assertPixel(image, x: 160, y: 120, is: .red, "(\(rendering): the picture)")
      assertPixel(image, x: 20, y: 120, is: .blue, "(\(rendering): a bar)")
    }
  }

  func testAGPUIsOnlyTriedWithAGPUDeviceNode() throws {
    let dev = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-dev-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dev) }
    try FileManager.default.createDirectory(
      at: dev.appendingPathComponent("dri"), withIntermediateDirectories: true)
    XCTAssertFalse(WindowRenderer.mayHaveGPU(environment: [:], devDirectory: dev.path))
    for node in ["dri/renderD128", "nvidia0"] {
      let path = dev.appendingPathComponent(node).path
      XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
      XCTAssertTrue(WindowRenderer.mayHaveGPU(environment: [:], devDirectory: dev.path), node)
      XCTAssertFalse(
        WindowRenderer.mayHaveGPU(
          environment: ["LIBGL_ALWAYS_SOFTWARE": "1"], devDirectory: dev.path), node)
      XCTAssertTrue(
        WindowRenderer.mayHaveGPU(
          environment: ["LIBGL_ALWAYS_SOFTWARE": "0"], devDirectory: dev.path), node)
      try FileManager.default.removeItem(atPath: path)
    }
  }

  func testSoftwareRasterisersAreRecognisedByName() {
    for name in [
      "llvmpipe (LLVM 15.0.6, 256 bits)", "softpipe", "Software Rasterizer", "Mesa swrast",
    ] {
      XCTAssertTrue(WindowRenderer.isSoftwareRasteriser(name), name)
    }
    for name in ["Mesa Intel(R) UHD Graphics 620 (KBL GT2)", "NVIDIA GeForce RTX 3060/PCIe/SSE2"] {
      XCTAssertFalse(WindowRenderer.isSoftwareRasteriser(name), name)
    }
  }
}
