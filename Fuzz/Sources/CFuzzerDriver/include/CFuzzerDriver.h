// libFuzzer's driver, for an executable whose `main` is its own (SwiftPM links executable
// targets with `main` defined as `<Target>_main`, so libFuzzer's `main` is not used).
#ifndef C_FUZZER_DRIVER_H
#define C_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer with the command-line arguments and the test callback.
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));

#endif
