/*
 * NAT rebinding (the QUIC interop runner's rebind-port and rebind-addr): from
 * `first` after it was set, and again every `every` (0: once), the client's
 * NAT gives it a new binding: a new source port (kind 1) or a new source
 * address (kind 2: the other host address of the link's /30, which
 * link/namespace.js routes to the forwarder). Packets up are rewritten to the
 * binding of the moment; packets down are mapped back only to a binding the
 * client has used since the last change, as a NAT forgets old bindings: a
 * packet to an old one is dropped. IPv4, TCP and UDP; checksums fixed up
 * (RFC 1624). Before the first change the NAT passes everything unchanged.
 */
#ifndef H2BENCH_NAT_H
#define H2BENCH_NAT_H
#include <stdint.h>
#include "table.h"

enum { NAT_OFF = 0, NAT_PORT = 1, NAT_ADDRESS = 2 };

typedef struct {
  int kind;
  uint64_t first, every, base;  /* ns; base: when it was set */
  table_t bindings;             /* (protocol, client port, generation) the client used */
  uint64_t rewritten, dropped, generation;
} nat_t;

void nat_configure (nat_t *n, int kind, uint64_t first, uint64_t every, uint64_t now);
/* A packet from the client: rewritten to the binding of `now`. */
void nat_up (nat_t *n, unsigned char *p, int len, uint64_t now);
/* A packet to the client: mapped back; 0 to deliver, -1 when its binding is not the client's now (drop it). */
int nat_down (nat_t *n, unsigned char *p, int len, uint64_t now);

#endif
