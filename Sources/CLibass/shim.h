#ifndef PLAYHEAD_CLIBASS_SHIM_H
#define PLAYHEAD_CLIBASS_SHIM_H
#include <ass/ass.h>
#endif
