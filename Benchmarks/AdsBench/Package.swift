// swift-tools-version:6.0
// The ad benchmarks for Benchmarks/ads.sh, kept out of the main package: AdsBench (resolving
// a VMAP and its wrappers) and AdSwitchBench (content -> ad -> content switch time).
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
    ),
    .executableTarget(
      name: "AdSwitchBench",
      dependencies: [
        .product(name: "PlayheadAds", package: rootIdentity),
        .product(name: "PlayheadCore", package: rootIdentity),
        .product(name: "PlayheadEngine", package: rootIdentity),
        .product(name: "PlayheadMedia", package: rootIdentity),
        .product(name: "PlayheadNet", package: rootIdentity),
        .product(name: "PlayheadSDK", package: rootIdentity),
        .product(name: "PlayheadTesting", package: rootIdentity),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
