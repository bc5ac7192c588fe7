/* The counting set of table.h. */
#include "table.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t slot (const table_t *t, uint64_t key) {
  size_t j = key & (t->cap - 1);
  while (t->keys[j] && t->keys[j] != key) j = (j + 1) & (t->cap - 1);
  return j;
}

uint64_t table_count (table_t *t, uint64_t key) {
  if (key == 0) key = 1;
  if (2 * (t->len + 1) > t->cap) {
    table_t bigger = { NULL, NULL, t->cap ? t->cap * 2 : 1024, t->len };
    bigger.keys = calloc(bigger.cap, sizeof *bigger.keys);
    bigger.counts = calloc(bigger.cap, sizeof *bigger.counts);
    if (!bigger.keys || !bigger.counts) { perror("calloc"); exit(1); }
    for (size_t i = 0; i < t->cap; i++) {
      if (!t->keys[i]) continue;
      size_t j = slot(&bigger, t->keys[i]);
      bigger.keys[j] = t->keys[i];
      bigger.counts[j] = t->counts[i];
    }
    free(t->keys);
    free(t->counts);
    *t = bigger;
  }
  size_t j = slot(t, key);
  if (!t->keys[j]) { t->keys[j] = key; t->len++; }
  return t->counts[j]++;
}

int table_has (const table_t *t, uint64_t key) {
  if (key == 0) key = 1;
  return t->cap && t->keys[slot(t, key)] == key;
}

void table_clear (table_t *t) {
  if (t->keys) memset(t->keys, 0, t->cap * sizeof *t->keys);
  if (t->counts) memset(t->counts, 0, t->cap * sizeof *t->counts);
  t->len = 0;
}
