#include "csha.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define CSHA_X86 1
#endif

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static uint32_t load_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void blocks_portable(uint32_t state[8], const uint8_t *data, size_t blocks) {
    while (blocks--) {
        uint32_t w[64];
        for (int t = 0; t < 16; t++) w[t] = load_be32(data + 4 * t);
        for (int t = 16; t < 64; t++) {
            uint32_t s0 = ROTR(w[t - 15], 7) ^ ROTR(w[t - 15], 18) ^ (w[t - 15] >> 3);
            uint32_t s1 = ROTR(w[t - 2], 17) ^ ROTR(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int t = 0; t < 64; t++) {
            uint32_t t1 = h + (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
            uint32_t t2 = (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
        state[5] += f;
        state[6] += g;
        state[7] += h;
        data += 64;
    }
}

#ifdef CSHA_X86
// The SHA extensions keep the state as two registers, ABEF and CDGH (A in the highest lane), and
// each sha256rnds2 does two rounds; sha256msg1 and sha256msg2 extend the message four words at a
// time.
__attribute__((target("sha,sse4.1,ssse3"))) static void blocks_sha_ni(uint32_t state[8], const uint8_t *data, size_t blocks) {
    const __m128i byteswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
    __m128i badc = _mm_shuffle_epi32(dcba, 0xB1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(badc, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, badc, 0xF0);

    while (blocks--) {
        const __m128i abef_before = abef, cdgh_before = cdgh;
        __m128i m[4];
        // Unrolled, the four message registers stay in registers.
#if defined(__clang__)
#pragma clang loop unroll(full)
#elif defined(__GNUC__)
#pragma GCC unroll 16
#endif
        for (int group = 0; group < 16; group++) {
            __m128i words;
            if (group < 4) {
                words = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * group)), byteswap);
            } else {
                // W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], four at a time.
                __m128i sums = _mm_sha256msg1_epu32(m[group % 4], m[(group + 1) % 4]);
                sums = _mm_add_epi32(sums, _mm_alignr_epi8(m[(group + 3) % 4], m[(group + 2) % 4], 4));
                words = _mm_sha256msg2_epu32(sums, m[(group + 3) % 4]);
            }
            m[group % 4] = words;
            __m128i wk = _mm_add_epi32(words, _mm_loadu_si128((const __m128i *)&K[4 * group]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
        }
        abef = _mm_add_epi32(abef, abef_before);
        cdgh = _mm_add_epi32(cdgh, cdgh_before);
        data += 64;
    }

    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

static int has_sha_ni(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    int ssse3 = (ecx >> 9) & 1, sse41 = (ecx >> 19) & 1;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    return ssse3 && sse41 && ((ebx >> 29) & 1);
}
#endif

// Whether the processor has the SHA extensions, asked once: 0 not yet, 1 no, 2 yes. Two first
// calls at once write the same answer.
static volatile int extensions = 0;

int csha256_available(int implementation) {
    if (implementation == CSHA256_PORTABLE) return 1;
#ifdef CSHA_X86
    if (implementation == CSHA256_SHA_EXTENSIONS) {
        if (extensions == 0) extensions = has_sha_ni() ? 2 : 1;
        return extensions == 2;
    }
#endif
    return 0;
}

int csha256_fastest(void) {
    return csha256_available(CSHA256_SHA_EXTENSIONS) ? CSHA256_SHA_EXTENSIONS : CSHA256_PORTABLE;
}

// Each context keeps the code it was started with, so a test can run both side by side.
static void blocks(csha256_context *context, const uint8_t *data, size_t count) {
#ifdef CSHA_X86
    if (context->implementation == CSHA256_SHA_EXTENSIONS) {
        blocks_sha_ni(context->state, data, count);
        return;
    }
#endif
    blocks_portable(context->state, data, count);
}

int csha256_init(csha256_context *context, int implementation) {
    if (!csha256_available(implementation)) return 0;
    static const uint32_t initial[8] = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    };
    memcpy(context->state, initial, sizeof initial);
    context->length = 0;
    context->buffered = 0;
    context->implementation = implementation;
    return 1;
}

void csha256_update(csha256_context *context, const void *bytes, size_t count) {
    const uint8_t *data = bytes;
    context->length += count;
    if (context->buffered > 0) {
        size_t taken = 64 - context->buffered < count ? 64 - context->buffered : count;
        memcpy(context->buffer + context->buffered, data, taken);
        context->buffered += taken;
        data += taken;
        count -= taken;
        if (context->buffered < 64) return;
        blocks(context, context->buffer, 1);
        context->buffered = 0;
    }
    if (count >= 64) {
        blocks(context, data, count / 64);
        data += count / 64 * 64;
        count %= 64;
    }
    memcpy(context->buffer, data, count);
    context->buffered = count;
}

void csha256_final(csha256_context *context, uint8_t digest[32]) {
    uint64_t bits = context->length * 8;
    uint8_t padding[72] = {0x80};
    size_t pad = context->buffered < 56 ? 56 - context->buffered : 120 - context->buffered;
    for (int i = 0; i < 8; i++) padding[pad + i] = (uint8_t)(bits >> (56 - 8 * i));
    uint64_t length = context->length;
    csha256_update(context, padding, pad + 8);
    context->length = length;
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(context->state[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(context->state[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(context->state[i] >> 8);
        digest[4 * i + 3] = (uint8_t)context->state[i];
    }
}
