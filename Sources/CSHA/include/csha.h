#ifndef CSHA_H
#define CSHA_H

#include <stddef.h>
#include <stdint.h>

// SHA-256 (FIPS 180-4), which names dumps and seeds in their provenance (docs/seed-format.md),
// and MD5 (RFC 1321), for `${md5:...}` in fetch templates (docs/mapping.md). On x86-64 with the
// SHA extensions, SHA-256 uses them (a few times faster); elsewhere it is portable C.

typedef struct {
    uint32_t state[8];
    uint64_t length;      // bytes hashed so far
    uint8_t buffer[64];   // a block's bytes not yet hashed
    size_t buffered;
} csha256_context;

void csha256_init(csha256_context *context);
void csha256_update(csha256_context *context, const void *bytes, size_t count);
void csha256_final(csha256_context *context, uint8_t digest[32]);

// Whether SHA-256 runs on the SHA extensions on this machine.
int csha256_accelerated(void);
// Nonzero: portable C from now on, whatever the machine has (for the tests, which compare both).
void csha256_use_portable(int portable);

void cmd5(const void *bytes, size_t count, uint8_t digest[16]);

#endif
