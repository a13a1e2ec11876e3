// The system's PCRE2, 8-bit code units (UTF-8), for `match:` (docs/mapping.md, Values inside text).
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
