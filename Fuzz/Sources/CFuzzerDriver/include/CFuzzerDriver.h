#ifndef OPENMAPS_CFUZZERDRIVER_H
#define OPENMAPS_CFUZZERDRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver entry point (compiler-rt, FuzzerInterface.h), run from our own main.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
