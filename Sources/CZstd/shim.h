// The system's libzstd, for Zstandard dumps (docs/mapping.md, Dump files).
#include <zstd.h>
