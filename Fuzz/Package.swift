// swift-tools-version:6.0
// The libFuzzer targets, kept out of the main package so that its `swift build` /
// `swift test` never build them: the M3U8 and WebVTT parsers, the demuxer path, the catalog
// JSON reader, the playlist JSON reader and the XML reader (`scripts/fuzz.sh
// playlist|webvtt|demuxer|catalog-json|playlist-json|xml|mpd [seconds]`). See Fuzz/README.md.
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
    // What several targets check alike: round trips, one-line typed errors.
    .target(name: "FuzzSupport"),
    .executableTarget(
      name: "PlaylistFuzzer",
      dependencies: [
        "CFuzzerDriver", "FuzzSupport", .product(name: "PlayheadHLS", package: rootIdentity),
      ]
    ),
    .executableTarget(
      name: "WebVTTFuzzer",
      dependencies: [
        "CFuzzerDriver", "FuzzSupport", .product(name: "PlayheadText", package: rootIdentity),
      ]
    ),
    .executableTarget(
      name: "DemuxerFuzzer",
      dependencies: [
        "CFuzzerDriver", .product(name: "PlayheadCore", package: rootIdentity),
        .product(name: "PlayheadNet", package: rootIdentity),
        .product(name: "PlayheadMedia", package: rootIdentity),
      ]
    ),
    .executableTarget(
      name: "CatalogJSONFuzzer",
      dependencies: [
        "CFuzzerDriver", "FuzzSupport", .product(name: "PlayheadCore", package: rootIdentity),
        .product(name: "PlayheadSDK", package: rootIdentity),
      ]
    ),
    .executableTarget(
      name: "MPDFuzzer",
      dependencies: [
        "CFuzzerDriver", "FuzzSupport", .product(name: "PlayheadDASH", package: rootIdentity),
      ]
    ),
    .executableTarget(
      name: "XMLFuzzer",
      dependencies: [
        "CFuzzerDriver", "FuzzSupport", .product(name: "PlayheadCore", package: rootIdentity),
        .product(name: "PlayheadAds", package: rootIdentity),
      ]
    ),
    .executableTarget(
      name: "PlaylistJSONFuzzer",
      dependencies: [
        "CFuzzerDriver", "FuzzSupport", .product(name: "PlayheadCore", package: rootIdentity),
        .product(name: "PlayheadSDK", package: rootIdentity),
        .product(name: "PlayheadEngine", package: rootIdentity),
        .product(name: "PlayheadNet", package: rootIdentity),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
