@_exported import PlayheadEngine
