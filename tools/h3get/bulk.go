package main

// h3get --bulk URL: a bulk QUIC flow, the link's `cross=quic` cross traffic
// (link/cross-quic.js). It GETs URL again and again through one transport
// (one QUIC connection while the server keeps it), throwing the bodies away,
// until its stdin closes or SIGINT/SIGTERM arrives. What it counts is what it
// received: the body bytes read, as the receiver of a flow should count them
// (iperf3 does the same for the TCP flows). It prints one JSON line every
// --every and a last one when it stops:
//
//	{"bytes": N, "requests": K, "connections": C, "ms": T, "firstByteMs": F, "lastError": "…"}
//
// ms is the time since it started, firstByteMs when the first body byte came
// (-1 before), lastError the last failed request's error, if any. --timeout
// does not apply: a bulk flow runs until it is stopped.

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net/url"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

type bulkLine struct {
	Bytes       int64   `json:"bytes"`
	Requests    int64   `json:"requests"`
	Connections int64   `json:"connections"`
	Ms          float64 `json:"ms"`
	FirstByteMs float64 `json:"firstByteMs"`
	LastError   string  `json:"lastError,omitempty"`
	Final       bool    `json:"final,omitempty"`
}

func bulk(target *url.URL, tlsConf *tls.Config, headers headerFlags, every time.Duration) {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	// Stopped by whoever started it: stdin closed (it died, or is done) or a signal.
	go func() {
		buf := make([]byte, 512)
		for {
			if _, err := os.Stdin.Read(buf); err != nil {
				stop()
				return
			}
		}
	}()
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	go func() { <-signals; stop() }()

	start := time.Now()
	var dials, bytes, requests, firstByteNs atomic.Int64
	firstByteNs.Store(-1)
	var mu sync.Mutex
	lastError := ""
	line := func(final bool) bulkLine {
		mu.Lock()
		defer mu.Unlock()
		first := float64(-1)
		if f := firstByteNs.Load(); f >= 0 {
			first = ms(time.Duration(f))
		}
		return bulkLine{Bytes: bytes.Load(), Requests: requests.Load(), Connections: dials.Load(), Ms: ms(time.Since(start)), FirstByteMs: first, LastError: lastError, Final: final}
	}

	tr := newTransport(tlsConf, &dials)
	go func() {
		buf := make([]byte, 64*1024)
		for ctx.Err() == nil {
			err := func() error {
				req, err := newRequest(ctx, target, headers)
				if err != nil {
					return err
				}
				res, err := tr.RoundTrip(req)
				if err != nil {
					return err
				}
				defer res.Body.Close()
				requests.Add(1)
				for {
					n, err := res.Body.Read(buf)
					if n > 0 {
						firstByteNs.CompareAndSwap(-1, int64(time.Since(start)))
						bytes.Add(int64(n))
					}
					if err != nil {
						if errors.Is(err, io.EOF) {
							return nil
						}
						return err
					}
				}
			}()
			if err != nil && ctx.Err() == nil {
				mu.Lock()
				lastError = err.Error()
				mu.Unlock()
				time.Sleep(200 * time.Millisecond) // a server not there yet, or gone: try again, not in a busy loop
			}
		}
	}()

	ticker := time.NewTicker(every)
	defer ticker.Stop()
	for {
		select {
		case <-ticker.C:
			emit(line(false))
		case <-ctx.Done():
			emit(line(true)) // counted up to now; the transport is not closed first (closing could block on the peer)
			os.Exit(0)
		}
	}
}
