// swift-tools-version:6.0
// The libFuzzer targets for the M3U8 and WebVTT parsers, kept out of the main package so
// that its `swift build` / `swift test` never build them. Build and run them with
// `scripts/fuzz-playlist.sh [seconds]` and `scripts/fuzz-webvtt.sh [seconds]`.
import Foundation
import PackageDescription

// A path dependency's identity is its folder name (`main`, a worktree's name, …), so
// take it from the folder this package sits in.
let rootIdentity = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().lastPathComponent

let package = Package(
  name: "PlayheadFuzz",
  dependencies: [.package(path: "..")],
  targets: [
    .target(name: "CFuzzerDriver"),
    .executableTarget(
      name: "PlaylistFuzzer",
      dependencies: ["CFuzzerDriver", .product(name: "PlayheadHLS", package: rootIdentity)]
    ),
    .executableTarget(
      name: "WebVTTFuzzer",
      dependencies: ["CFuzzerDriver", .product(name: "PlayheadText", package: rootIdentity)]
    ),
  ],
  swiftLanguageModes: [.v6]
)
