#include "csha.h"

#include <string.h>

// T[i] = floor(|sin(i + 1)| * 2^32), and each round's shifts (RFC 1321, 3.4).
static const uint32_t T[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};
static const uint8_t S[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

static void block(uint32_t state[4], const uint8_t *p) {
    uint32_t x[16];
    for (int i = 0; i < 16; i++) {
        x[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    for (int i = 0; i < 64; i++) {
        int round = i / 16;
        uint32_t f;
        int k;
        switch (round) {
        case 0: f = (b & c) | (~b & d); k = i; break;
        case 1: f = (b & d) | (c & ~d); k = (5 * i + 1) % 16; break;
        case 2: f = b ^ c ^ d; k = (3 * i + 5) % 16; break;
        default: f = c ^ (b | ~d); k = (7 * i) % 16; break;
        }
        uint32_t sum = a + f + T[i] + x[k];
        int s = S[round][i % 4];
        uint32_t rotated = (sum << s) | (sum >> (32 - s));
        a = d;
        d = c;
        c = b;
        b = b + rotated;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
}

void cmd5(const void *bytes, size_t count, uint8_t digest[16]) {
    uint32_t state[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    const uint8_t *data = bytes;
    size_t whole = count / 64;
    for (size_t i = 0; i < whole; i++) block(state, data + 64 * i);
    uint8_t tail[128] = {0};
    size_t rest = count % 64;
    memcpy(tail, data + 64 * whole, rest);
    tail[rest] = 0x80;
    size_t tailBlocks = rest < 56 ? 1 : 2;
    uint64_t bits = (uint64_t)count * 8;
    for (int i = 0; i < 8; i++) tail[64 * tailBlocks - 8 + i] = (uint8_t)(bits >> (8 * i));
    for (size_t i = 0; i < tailBlocks; i++) block(state, tail + 64 * i);
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 4; j++) digest[4 * i + j] = (uint8_t)(state[i] >> (8 * j));
    }
}
