#ifndef CSHA_H
#define CSHA_H

#include <stddef.h>
#include <stdint.h>

// SHA-256 (FIPS 180-4), which names dumps and seeds in their provenance (docs/seed-format.md),
// and MD5 (RFC 1321), for `${md5:...}` in fetch templates (docs/mapping.md). On x86-64 with the
// SHA extensions, SHA-256 can use them (a few times faster); the portable C runs everywhere.
// Each context is started with the code it runs: nothing is switched for the whole process.

// The code that hashes a context's blocks.
#define CSHA256_PORTABLE 1
#define CSHA256_SHA_EXTENSIONS 2

typedef struct {
    uint32_t state[8];
    uint64_t length;      // bytes hashed so far
    uint8_t buffer[64];   // a block's bytes not yet hashed
    size_t buffered;
    int implementation;   // CSHA256_PORTABLE or CSHA256_SHA_EXTENSIONS
} csha256_context;

// Starts `context` on `implementation`; 0 (and nothing started) when this machine cannot run it.
int csha256_init(csha256_context *context, int implementation);
void csha256_update(csha256_context *context, const void *bytes, size_t count);
void csha256_final(csha256_context *context, uint8_t digest[32]);

// Whether this machine can run `implementation`.
int csha256_available(int implementation);
// The fastest implementation this machine runs.
int csha256_fastest(void);

void cmd5(const void *bytes, size_t count, uint8_t digest[16]);

#endif
