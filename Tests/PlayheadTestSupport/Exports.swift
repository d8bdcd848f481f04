// The project's tests use the fakes that applications get from `PlayheadTesting` (test
// servers, simulated network, recorders) through this target.
@_exported import PlayheadTesting
