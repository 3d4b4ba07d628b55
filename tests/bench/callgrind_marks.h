// callgrind's client requests for the one-shot drivers (read_once, dice_once): the real macros
// when valgrind/callgrind.h is installed, no-ops otherwise.
#pragma once

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#define CALLGRIND_DUMP_STATS_AT(s)
#endif
