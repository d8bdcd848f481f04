// The umbrella module: `import Playhead` gives the whole public API, from times and
// errors (PlayheadCore) through data sources (PlayheadNet) and demuxing (PlayheadMedia)
// to players and items (PlayheadEngine), with captions (PlayheadText).
@_exported import PlayheadAds
@_exported import PlayheadCore
@_exported import PlayheadDASH
@_exported import PlayheadEngine
@_exported import PlayheadHLS
@_exported import PlayheadMedia
@_exported import PlayheadNet
@_exported import PlayheadSDK
@_exported import PlayheadText
