/* NAT rebinding: see nat.h. */
#include "nat.h"

#define STEP 7919 /* a generation's port offset: a prime, so successive bindings of a port differ */

static uint64_t generation (const nat_t *n, uint64_t now) {
  if (n->kind == NAT_OFF || now < n->base + n->first) return 0;
  return 1 + (n->every ? (now - n->base - n->first) / n->every : 0);
}

void nat_configure (nat_t *n, int kind, uint64_t first, uint64_t every, uint64_t now) {
  n->kind = first ? kind : NAT_OFF;
  n->first = first;
  n->every = every;
  n->base = now;
  n->generation = 0;
  table_clear(&n->bindings);
}

/* Port p's binding in generation g (1…65535, a bijection), and back. */
static uint16_t port_of (uint16_t p, uint64_t g) { return (uint16_t)((p - 1 + g * STEP) % 65535 + 1); }
static uint16_t port_back (uint16_t q, uint64_t g) { return (uint16_t)((q - 1 + 65535 - g * STEP % 65535) % 65535 + 1); }

static uint16_t get16 (const unsigned char *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static void put16 (unsigned char *p, uint16_t v) { p[0] = (unsigned char)(v >> 8); p[1] = (unsigned char)(v & 255); }

/* RFC 1624, eqn. 3: the checksum at `sum` after a 16-bit word of what it covers goes from `from` to `to`. */
static void fix (unsigned char *sum, uint16_t from, uint16_t to, int udp) {
  uint16_t old = get16(sum);
  if (udp && old == 0) return; /* an IPv4 UDP datagram without a checksum */
  uint32_t s = (uint16_t)~old + (uint32_t)(uint16_t)~from + to;
  while (s >> 16) s = (s & 0xffff) + (s >> 16);
  uint16_t v = (uint16_t)~s;
  put16(sum, udp && v == 0 ? 0xffff : v);
}

typedef struct { int ok, proto, first_fragment; unsigned char *ports, *transport_sum; } view_t;

static view_t view (unsigned char *p, int len) {
  view_t v = { 0, 0, 0, 0, 0 };
  if (len < 20 || (p[0] >> 4) != 4) return v;
  int hl = (p[0] & 15) * 4;
  v.ok = 1;
  v.proto = p[9];
  v.first_fragment = ((p[6] & 0x1f) | p[7]) == 0;
  if (!v.first_fragment || hl + 8 > len) return v;
  if (v.proto == 6 && hl + 18 <= len) { v.ports = p + hl; v.transport_sum = p + hl + 16; }
  else if (v.proto == 17) { v.ports = p + hl; v.transport_sum = p + hl + 6; }
  return v;
}

/* Changes one 16-bit word of the packet (the IPv4 addresses' halves and the ports count for the transport's
 * pseudo-header checksum; the addresses for the IPv4 header's too). */
static void change (unsigned char *p, const view_t *v, unsigned char *at, uint16_t to, int in_ip_header) {
  uint16_t from = get16(at);
  if (from == to) return;
  put16(at, to);
  if (in_ip_header) fix(p + 10, from, to, 0);
  if (v->transport_sum) fix(v->transport_sum, from, to, v->proto == 17);
}

static uint64_t binding_key (int proto, uint16_t port, uint64_t g) {
  uint64_t k = (uint64_t)proto << 56 ^ (uint64_t)port << 40 ^ g;
  return k ? k : 1;
}

void nat_up (nat_t *n, unsigned char *p, int len, uint64_t now) {
  uint64_t g = generation(n, now);
  if (g == 0) return;
  if (g != n->generation) { table_clear(&n->bindings); n->generation = g; } /* the old bindings are forgotten */
  view_t v = view(p, len);
  if (!v.ok) return;
  uint16_t port = v.ports ? get16(v.ports) : 0;
  table_count(&n->bindings, binding_key(v.proto, port, g));
  if (n->kind == NAT_PORT && v.ports) change(p, &v, v.ports, port_of(port, g), 0);
  if (n->kind == NAT_ADDRESS && g % 2) change(p, &v, p + 14, (uint16_t)(get16(p + 14) ^ 1), 1); /* .2 ↔ .3 of the /30 */
  n->rewritten++;
}

int nat_down (nat_t *n, unsigned char *p, int len, uint64_t now) {
  uint64_t g = generation(n, now);
  if (g == 0) return 0;
  view_t v = view(p, len);
  if (!v.ok) return 0;
  uint16_t port = v.ports ? get16(v.ports + 2) : 0;
  int to_alt = (p[19] & 3) == 3;
  uint16_t orig = n->kind == NAT_PORT && v.ports ? port_back(port, g) : port;
  /* To a binding the client has not used since the change (or to the address it no longer has): dropped. */
  if (g != n->generation || !table_has(&n->bindings, binding_key(v.proto, orig, g)) ||
      (n->kind == NAT_ADDRESS && to_alt != (int)(g % 2))) { n->dropped++; return -1; }
  if (n->kind == NAT_PORT && v.ports) change(p, &v, v.ports + 2, orig, 0);
  if (n->kind == NAT_ADDRESS && to_alt) change(p, &v, p + 18, (uint16_t)(get16(p + 18) ^ 1), 1);
  n->rewritten++;
  return 0;
}
