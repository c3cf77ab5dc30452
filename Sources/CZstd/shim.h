#ifndef CZSTD_SHIM_H
#define CZSTD_SHIM_H
// For ZSTD_getFrameHeader (the frame's window and content size before decoding it in one call).
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zstd_errors.h>
#endif
