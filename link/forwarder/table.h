/*
 * A counting set of 64-bit keys (open addressing, grows by doubling): the
 * forwarder's per-flow packet counts (dropflow) and the NAT's bindings.
 * Key 0 is stored as 1 (0 marks a free slot).
 */
#ifndef H2BENCH_TABLE_H
#define H2BENCH_TABLE_H
#include <stddef.h>
#include <stdint.h>

typedef struct { uint64_t *keys, *counts; size_t cap, len; } table_t;

/* How many times `key` was counted before, then counts it once more. */
uint64_t table_count (table_t *t, uint64_t key);
/* Whether `key` was ever counted. */
int table_has (const table_t *t, uint64_t key);
/* Forgets every key. */
void table_clear (table_t *t);

#endif
