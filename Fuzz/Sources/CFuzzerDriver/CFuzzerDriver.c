// Declarations only; libFuzzer provides LLVMFuzzerRunDriver.
#include "CFuzzerDriver.h"
