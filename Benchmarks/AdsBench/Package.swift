// swift-tools-version:6.0
// The ad resolution benchmark for Benchmarks/ads.sh, kept out of the main package.
import Foundation
import PackageDescription

// A path dependency's identity is its folder name, so take it from the repository folder.
let rootIdentity = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
  name: "AdsBench",
  dependencies: [.package(path: "../..")],
  targets: [
    .executableTarget(
      name: "AdsBench",
      dependencies: [
        .product(name: "PlayheadAds", package: rootIdentity),
        .product(name: "PlayheadNet", package: rootIdentity),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
