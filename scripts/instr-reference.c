/* An independent timer for `aeslab instr`'s chains (scripts/check-instr.sh builds and runs it).
 *
 * It shares only the chain bodies with aeslab (gen/chains.py --reference writes them as plain
 * assembly functions); the clock, the calibration and the statistics are its own and as plain
 * as they can be: for each chain named on the command line, calibrate cycles per TSC tick on a
 * dependent chain of 1-cycle `add reg, reg`, then time the chain — each the best of REPEATS
 * timings at n and at 2n iterations, the difference cancelling the call and the clock reads.
 * Prints `name cycles`.
 *
 * Usage: instr-reference [-r REPEATS] [-c INSTRUCTIONS] NAME...   (defaults: 15, 1000000)
 * On a shared VM, timings of a million instructions (a millisecond) are often stretched by the
 * other tenant; shorter ones, more often repeated, find an undisturbed one (check-instr.sh uses
 * -r 201 -c 20000).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chains.h"

static inline uint64_t ticks(void) {
    uint32_t lo, hi;
    __asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}

/* 100 dependent adds per iteration. */
static void add_chain(uint64_t iters) {
    uint64_t x = 0, one = 1;
    __asm__ volatile("1:\n\t.rept 100\n\tadd %0, %2\n\t.endr\n\tdec %1\n\tjnz 1b"
                     : "+r"(x), "+r"(iters) : "r"(one) : "cc");
}

static int repeats = 15;

/* Ticks per iteration of `run`: best of `repeats` at n and at 2n iterations, differenced. */
static double ticks_per_iter(void (*run)(uint64_t), uint64_t n) {
    uint64_t best[2] = {UINT64_MAX, UINT64_MAX};
    run(n); /* warm up */
    for (int i = 0; i < repeats; i++)
        for (int k = 0; k < 2; k++) {
            uint64_t t0 = ticks();
            run(n << k);
            uint64_t t = ticks() - t0;
            if (t < best[k]) best[k] = t;
        }
    return (double)(best[1] - best[0]) / (double)n;
}

int main(int argc, char **argv) {
    uint64_t count = 1000000;
    int a = 1;
    for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
        if (strcmp(argv[a], "-r") == 0) repeats = atoi(argv[a + 1]);
        else if (strcmp(argv[a], "-c") == 0) count = strtoull(argv[a + 1], NULL, 10);
        else { fprintf(stderr, "unknown option %s\n", argv[a]); return 2; }
    }
    if (repeats < 1 || count < 200) { fprintf(stderr, "need -r >= 1 and -c >= 200\n"); return 2; }
    for (; a < argc; a++) {
        const struct chain *c = NULL;
        for (size_t i = 0; i < sizeof CHAINS / sizeof CHAINS[0]; i++)
            if (strcmp(CHAINS[i].name, argv[a]) == 0) c = &CHAINS[i];
        if (!c) { fprintf(stderr, "unknown chain %s\n", argv[a]); return 2; }
        double cycles_per_tick = 100.0 / ticks_per_iter(add_chain, count / 100);
        double t = ticks_per_iter(c->run, count / c->per_iter);
        printf("%s %.4f\n", c->name, t * cycles_per_tick / (double)c->per_iter);
    }
    return 0;
}
