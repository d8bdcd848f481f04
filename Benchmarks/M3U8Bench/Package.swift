// swift-tools-version:6.0
// The parsing benchmark for Benchmarks/m3u8-parse.sh, kept out of the main package.
import Foundation
import PackageDescription

// A path dependency's identity is its folder name, so take it from the repository folder.
let rootIdentity = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
  name: "M3U8Bench",
  dependencies: [.package(path: "../..")],
  targets: [
    .executableTarget(
      name: "M3U8Bench",
      dependencies: [.product(name: "PlayheadHLS", package: rootIdentity)]
    )
  ],
  swiftLanguageModes: [.v6]
)
