// swift-tools-version:6.0
// The JSON decoding benchmark for Benchmarks/json-decode.sh, kept out of the main package.
import Foundation
import PackageDescription

// A path dependency's identity is its folder name, so take it from the repository folder.
let rootIdentity = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
  name: "JSONBench",
  dependencies: [.package(path: "../..")],
  targets: [
    .executableTarget(
      name: "JSONBench",
      dependencies: [.product(name: "PlayheadCore", package: rootIdentity)]
    )
  ],
  swiftLanguageModes: [.v6]
)
