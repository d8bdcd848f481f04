// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Playhead",
  products: [
    .library(name: "Playhead", targets: ["Playhead"]),
    .library(name: "PlayheadCore", targets: ["PlayheadCore"]),
    .library(name: "PlayheadHLS", targets: ["PlayheadHLS"]),
    .library(name: "PlayheadAds", targets: ["PlayheadAds"]),
    .library(name: "PlayheadDASH", targets: ["PlayheadDASH"]),
    .library(name: "PlayheadText", targets: ["PlayheadText"]),
    .library(name: "PlayheadNet", targets: ["PlayheadNet"]),
    .library(name: "PlayheadMedia", targets: ["PlayheadMedia"]),
    .library(name: "PlayheadEngine", targets: ["PlayheadEngine"]),
    .library(name: "PlayheadSDK", targets: ["PlayheadSDK"]),
    .library(name: "PlayheadTesting", targets: ["PlayheadTesting"]),
    .library(name: "PlayheadOverlay", targets: ["PlayheadOverlay"]),
    .library(name: "PlayheadDesktop", targets: ["PlayheadDesktop"]),
    .library(name: "PlayheadUI", targets: ["PlayheadUI"]),
    .executable(name: "playhead", targets: ["playhead"]),
  ],
  targets: [
    .systemLibrary(
      name: "CFFmpeg",
      // libavfilter's headers only: the library is loaded when a filter graph is first built
      // (CFFmpeg_loadFilterFunctions; decision 0042).
      pkgConfig: "libavformat libavcodec libavutil libswscale libswresample",
      providers: [
        .apt([
          "libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev",
          "libswresample-dev", "libavfilter-dev",
        ])
      ]
    ),
    .systemLibrary(
      name: "CLibass",
      pkgConfig: "libass",
      providers: [.apt(["libass-dev"])]
    ),
    .systemLibrary(name: "CSDL2", pkgConfig: "sdl2", providers: [.apt(["libsdl2-dev"])]),
    .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
    .target(name: "PlayheadCore"),
    .target(name: "PlayheadHLS", dependencies: ["PlayheadCore"]),
    // MPD model and parser (issue 33), Foundation and Core only, like PlayheadHLS.
    .target(name: "PlayheadDASH", dependencies: ["PlayheadCore"]),
    .target(name: "PlayheadText", dependencies: ["PlayheadCore"]),
    .target(name: "PlayheadNet", dependencies: ["PlayheadCore"]),
    .target(name: "PlayheadAds", dependencies: ["PlayheadCore", "PlayheadNet"]),
    .target(name: "PlayheadMedia", dependencies: ["PlayheadCore", "PlayheadNet", "CFFmpeg"]),
    .target(
      name: "PlayheadEngine",
      dependencies: [
        "PlayheadCore", "PlayheadHLS", "PlayheadDASH", "PlayheadNet", "PlayheadMedia",
        "PlayheadText",
      ]
    ),
    .target(
      name: "PlayheadSDK",
      dependencies: [
        "PlayheadEngine", "PlayheadNet", "PlayheadCore", "PlayheadMedia", "PlayheadText",
        "PlayheadHLS", "PlayheadAds", "PlayheadDASH",
      ]
    ),
    .target(
      name: "PlayheadDesktop",
      dependencies: [
        "PlayheadCore", "PlayheadMedia", "PlayheadEngine", "PlayheadOverlay", "PlayheadSDK",
        "PlayheadUI", "CSDL2", "CDBus",
      ]
    ),
    .target(name: "PlayheadUI", dependencies: ["PlayheadCore", "PlayheadEngine", "PlayheadSDK"]),
    .target(
      name: "Playhead",
      dependencies: [
        "PlayheadAds", "PlayheadDASH", "PlayheadEngine", "PlayheadSDK", "PlayheadText",
      ]
    ),
    .target(
      name: "PlayheadOverlay",
      dependencies: ["PlayheadCore", "PlayheadMedia", "PlayheadText", "PlayheadUI", "CLibass"]
    ),
    .executableTarget(
      name: "playhead",
      dependencies: [
        "Playhead", "PlayheadAds", "PlayheadOverlay", "PlayheadDesktop", "PlayheadUI",
      ]
    ),
    .target(
      name: "PlayheadTesting",
      dependencies: ["PlayheadCore", "PlayheadNet", "PlayheadMedia", "PlayheadEngine"]
    ),
    .target(
      name: "PlayheadTestSupport",
      dependencies: ["PlayheadCore", "PlayheadMedia", "PlayheadEngine", "PlayheadTesting"],
      path: "Tests/PlayheadTestSupport"
    ),
    .testTarget(name: "PlayheadCoreTests", dependencies: ["PlayheadCore", "PlayheadTestSupport"]),
    .testTarget(name: "PlayheadHLSTests", dependencies: ["PlayheadHLS", "PlayheadTestSupport"]),
    .testTarget(name: "PlayheadDASHTests", dependencies: ["PlayheadDASH", "PlayheadTestSupport"]),
    .testTarget(
      name: "PlayheadAdsTests",
      dependencies: ["PlayheadAds", "PlayheadTesting", "PlayheadTestSupport"]
    ),
    .testTarget(name: "PlayheadTextTests", dependencies: ["PlayheadText", "PlayheadTestSupport"]),
    .testTarget(
      name: "PlayheadNetTests",
      dependencies: ["PlayheadNet", "PlayheadTesting", "PlayheadTestSupport"]
    ),
    .testTarget(
      name: "PlayheadMediaTests",
      dependencies: ["PlayheadMedia", "PlayheadNet", "PlayheadTestSupport"]
    ),
    .testTarget(
      name: "PlayheadEngineTests",
      dependencies: ["PlayheadEngine", "PlayheadTestSupport"]
    ),
    .testTarget(
      name: "PlayheadDesktopTests",
      dependencies: [
        "PlayheadDesktop", "PlayheadSDK", "PlayheadAds", "PlayheadTestSupport", "PlayheadTesting",
      ]
    ),
    .testTarget(name: "PlayheadUITests", dependencies: ["PlayheadUI", "PlayheadTestSupport"]),
    .testTarget(name: "PlayheadSDKTests", dependencies: ["PlayheadSDK", "PlayheadTestSupport"]),
    .testTarget(
      name: "PlayheadOverlayTests",
      dependencies: [
        "PlayheadOverlay", "PlayheadMedia", "PlayheadText", "PlayheadUI", "PlayheadTestSupport",
      ]
    ),
    .testTarget(
      name: "PlayheadTests", dependencies: ["Playhead", "PlayheadTesting", "PlayheadTestSupport"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
