// swift-tools-version:6.0
// The trace-driven ABR benchmark. A separate package so that the main package stays free
// of benchmark code; it uses PlayheadEngine through a path dependency on the repository.
import PackageDescription

let package = Package(
  name: "ABRHarness",
  dependencies: [.package(name: "Playhead", path: "../..")],
  targets: [
    .executableTarget(
      name: "ABRHarness",
      dependencies: [
        .product(name: "PlayheadEngine", package: "Playhead"),
        .product(name: "PlayheadCore", package: "Playhead"),
        .product(name: "PlayheadNet", package: "Playhead"),
        .product(name: "PlayheadTesting", package: "Playhead"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
