#!/usr/bin/env python3
"""A minimal forwarder in Python, for npm run bench:link's choice of language.

The same design as link/forwarder/forwarder.c, cut down to a fixed delay per
direction: one thread moves IP packets between two TUN devices; each packet
read goes into one heap ordered by release time (arrival + delay), and is
written to the other device once that time has come. The loop waits in
select() (microsecond timeout; Python's epoll takes milliseconds) for a
device, stdin or the next release. Standard library only.

Control is a line protocol on stdin, one reply line each on stdout:
  set up|down delay_us=N   -> ok | error ...
  stats [reset]            -> one JSON line, the fields forwarder.c has for these
  reset                    -> ok (clears the counters without computing the
                              percentiles, which takes a while after many packets)
End of stdin ends it, and with it its TUN devices.

Usage: python-forwarder.py CLIENT_TUN SERVER_TUN
Prints "ready", or "busy NAME" (exit 3) when another process holds that name.
"""
import array
import errno
import fcntl
import heapq
import json
import math
import os
import select
import struct
import sys
import time

TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000
UP, DOWN = 0, 1
NAMES = ('up', 'down')
BATCH = 64  # packets read per wake-up and device, as forwarder.c
MAX_LATE = 4000000  # lateness samples kept between two stats resets


def reply(line):
    sys.stdout.write(line + '\n')
    sys.stdout.flush()


def open_tun(name):
    fd = os.open('/dev/net/tun', os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        fcntl.ioctl(fd, TUNSETIFF, struct.pack('16sH22x', name.encode(), IFF_TUN | IFF_NO_PI))
    except OSError as err:
        if err.errno == errno.EBUSY:
            reply('busy ' + name)
            sys.exit(3)
        reply('error TUNSETIFF %s: %s' % (name, err.strerror))
        sys.exit(2)
    return fd


def new_counters():
    return {'in_packets': 0, 'in_bytes': 0, 'out_packets': 0, 'out_bytes': 0, 'write_errors': 0}


def new_late():
    return [array.array('q'), array.array('q')]  # ns; an array frees at once, a list of ints one by one


def summary(values):
    """n, p50, p90, p99, max of lateness in ns, in ms (forwarder.c's late_ms)."""
    if not values:
        return {'n': 0, 'p50': 0, 'p90': 0, 'p99': 0, 'max': 0}
    values = sorted(values)
    n = len(values)

    def pct(q):
        return values[max(1, math.ceil(q * n)) - 1] / 1e6
    return {'n': n, 'p50': pct(0.5), 'p90': pct(0.9), 'p99': pct(0.99), 'max': values[-1] / 1e6}


def main():
    if len(sys.argv) < 3:
        sys.stderr.write('usage: python-forwarder.py CLIENT_TUN SERVER_TUN\n')
        return 2
    tun = [open_tun(sys.argv[1]), open_tun(sys.argv[2])]
    out = [tun[DOWN], tun[UP]]  # what is read on one side is written on the other
    delay = [0, 0]
    counters = [new_counters(), new_counters()]
    late = new_late()
    heap = []
    seq = 0
    control = b''
    now_ns = time.monotonic_ns
    readable = [tun[UP], tun[DOWN], 0]
    reply('ready')
    while True:
        timeout = max(0.0, (heap[0][0] - now_ns()) / 1e9) if heap else None
        ready, _, _ = select.select(readable, [], [], timeout)
        for fd in ready:
            if fd == 0:
                data = os.read(0, 65536)
                if not data:
                    return 0  # our parent is gone: so are we, and the TUN devices
                control += data
                while b'\n' in control:
                    line, control = control.split(b'\n', 1)
                    words = line.decode(errors='replace').split()
                    if not words:
                        continue
                    if words[0] == 'set' and len(words) >= 2 and words[1] in NAMES:
                        d = NAMES.index(words[1])
                        try:
                            for word in words[2:]:
                                key, value = word.split('=', 1)
                                if key != 'delay_us':
                                    raise ValueError('only delay_us is supported, not ' + key)
                                delay[d] = int(float(value) * 1000)
                            reply('ok')
                        except ValueError as err:
                            reply('error set: %s' % err)
                    elif words[0] == 'stats':
                        stats = {}
                        for d in (UP, DOWN):
                            stats[NAMES[d]] = dict(counters[d], late_ms=summary(late[d]))
                        stats['held_packets'] = len(heap)
                        reply(json.dumps(stats))
                        if words[1:] == ['reset']:
                            counters = [new_counters(), new_counters()]
                            late = new_late()
                    elif words[0] == 'reset':
                        counters = [new_counters(), new_counters()]
                        late = new_late()
                        reply('ok')
                    elif words[0] == 'quit':
                        return 0
                    else:
                        reply('error unknown command: ' + line.decode(errors='replace')[:80])
            else:
                d = UP if fd == tun[UP] else DOWN
                c = counters[d]
                for _ in range(BATCH):
                    try:
                        packet = os.read(fd, 65536)
                    except BlockingIOError:
                        break
                    c['in_packets'] += 1
                    c['in_bytes'] += len(packet)
                    heapq.heappush(heap, (now_ns() + delay[d], seq, d, packet))
                    seq += 1
        now = now_ns()
        while heap and heap[0][0] <= now:
            release, _, d, packet = heapq.heappop(heap)
            c = counters[d]
            try:
                os.write(out[d], packet)
                c['out_packets'] += 1
                c['out_bytes'] += len(packet)
            except OSError:
                c['write_errors'] += 1
            if len(late[d]) < MAX_LATE:
                late[d].append(now - release)


if __name__ == '__main__':
    sys.exit(main())
