// swift-tools-version:6.0
// The MPD parsing benchmark for Benchmarks/dash.sh, kept out of the main package.
import Foundation
import PackageDescription

// A path dependency's identity is its folder name, so take it from the repository folder.
let rootIdentity = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
  name: "MPDBench",
  dependencies: [.package(path: "../..")],
  targets: [
    .executableTarget(
      name: "MPDBench",
      dependencies: [.product(name: "PlayheadDASH", package: rootIdentity)]
    )
  ],
  swiftLanguageModes: [.v6]
)
