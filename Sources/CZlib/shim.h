// The system's zlib, for gzipped dumps (docs/mapping.md, Dump files).
#include <zlib.h>
