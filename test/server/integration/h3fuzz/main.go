// h3fuzz: the HTTP/3 client of test/server/integration/fuzz.test.js, on
// quic-go's http3 package (as tools/h3get, whose module versions it pins).
// One burst of requests, all at once, on one QUIC connection, then a plain
// GET on that same connection:
//
//	h3fuzz --ca FILE < burst.json
//
// burst.json: {"url": "https://HOST:PORT", "timeoutMs": N, "plain": "/lane",
// "requests": [{"method": "POST", "path": "/x?y=1", "headers": [["name", "value"]], "body": BYTES}]}
//
// Prints one JSON object: {"results": [outcome…], "plain": outcome,
// "connections": dials, "closed": why the first connection ended, or null}.
// An outcome is {status, bodyBytes, ms} for an answer, or {error, code, remote,
// kind} for a request that got none: kind "stream" (the stream was reset:
// code is the HTTP/3 error code), "connection" (the connection was closed),
// "timeout" (no answer within timeoutMs) or "other".
package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
)

type request struct {
	Method  string      `json:"method"`
	Path    string      `json:"path"`
	Headers [][2]string `json:"headers"`
	Body    int         `json:"body"`
}

type burst struct {
	URL       string    `json:"url"`
	TimeoutMs int       `json:"timeoutMs"`
	Plain     string    `json:"plain"`
	Requests  []request `json:"requests"`
}

type outcome struct {
	Status    int     `json:"status,omitempty"`
	BodyBytes int     `json:"bodyBytes"`
	Ms        float64 `json:"ms"`
	Error     string  `json:"error,omitempty"`
	Code      *uint64 `json:"code,omitempty"`
	Remote    bool    `json:"remote,omitempty"`
	Kind      string  `json:"kind,omitempty"`
}

type closeCause struct {
	Error  string  `json:"error"`
	Code   *uint64 `json:"code,omitempty"`
	Remote bool    `json:"remote"`
}

func main() {
	ca := flag.String("ca", "", "PEM file of the CA the server's certificate must chain to")
	flag.Parse()
	var b burst
	if err := json.NewDecoder(os.Stdin).Decode(&b); err != nil {
		fail(fmt.Errorf("reading the burst: %w", err))
	}
	target, err := url.Parse(b.URL)
	if err != nil || target.Scheme != "https" {
		fail(fmt.Errorf("not an https URL: %q", b.URL))
	}
	conf := &tls.Config{NextProtos: []string{http3.NextProtoH3}, ServerName: target.Hostname()}
	if *ca != "" {
		pem, err := os.ReadFile(*ca)
		if err != nil {
			fail(err)
		}
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(pem)
		conf.RootCAs = pool
	}
	timeout := time.Duration(b.TimeoutMs) * time.Millisecond
	ctx, stop := context.WithTimeout(context.Background(), 3*timeout)
	defer stop()
	qconf := &quic.Config{HandshakeIdleTimeout: 5 * time.Second, MaxIdleTimeout: 30 * time.Second}
	conn, err := quic.DialAddr(ctx, target.Host, conf, qconf)
	if err != nil {
		fail(err)
	}
	tr := &http3.Transport{DisableCompression: true}
	cc := tr.NewClientConn(conn)
	out := struct {
		Results     []outcome   `json:"results"`
		Plain       outcome     `json:"plain"`
		Connections int         `json:"connections"`
		Closed      *closeCause `json:"closed"`
	}{Results: make([]outcome, len(b.Requests)), Connections: 1}
	var wg sync.WaitGroup
	for i, r := range b.Requests {
		wg.Go(func() { out.Results[i] = roundTrip(cc, target, r, timeout) })
	}
	wg.Wait()
	plain := request{Method: http.MethodGet, Path: b.Plain}
	select {
	case <-conn.Context().Done():
		// Closed during the burst: a plain request needs a connection of its own.
		out.Closed = causeOf(context.Cause(conn.Context()))
		out.Connections++
		conn2, err := quic.DialAddr(ctx, target.Host, conf, qconf)
		if err != nil {
			out.Plain = failed(err, 0)
			break
		}
		defer conn2.CloseWithError(0, "")
		out.Plain = roundTrip(tr.NewClientConn(conn2), target, plain, timeout)
	default:
		out.Plain = roundTrip(cc, target, plain, timeout)
		if out.Plain.Error != "" {
			select {
			case <-conn.Context().Done():
				out.Closed = causeOf(context.Cause(conn.Context()))
			default:
			}
		}
	}
	conn.CloseWithError(0, "")
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

func roundTrip(cc *http3.ClientConn, target *url.URL, r request, timeout time.Duration) outcome {
	ctx, stop := context.WithTimeout(context.Background(), timeout)
	defer stop()
	start := time.Now()
	var body io.Reader
	if r.Body > 0 {
		body = bytes.NewReader(bytes.Repeat([]byte("x"), r.Body))
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, target.Scheme+"://"+target.Host+r.Path, body)
	if err != nil {
		return outcome{Error: err.Error(), Kind: "other"}
	}
	for _, h := range r.Headers {
		req.Header.Add(h[0], h[1])
	}
	res, err := cc.RoundTrip(req)
	if err != nil {
		return failed(err, time.Since(start))
	}
	defer res.Body.Close()
	n, err := io.Copy(io.Discard, res.Body)
	o := outcome{Status: res.StatusCode, BodyBytes: int(n), Ms: ms(time.Since(start))}
	if err != nil {
		// Answered, then the body was cut short: the status stays, the error says how.
		f := failed(err, time.Since(start))
		o.Error, o.Code, o.Remote, o.Kind = f.Error, f.Code, f.Remote, f.Kind
	}
	return o
}

func failed(err error, d time.Duration) outcome {
	o := outcome{Error: err.Error(), Ms: ms(d), Kind: "other"}
	if errors.Is(err, context.DeadlineExceeded) {
		o.Kind = "timeout"
		return o
	}
	if e, ok := errors.AsType[*quic.StreamError](err); ok {
		code := uint64(e.ErrorCode)
		o.Code, o.Remote, o.Kind = &code, e.Remote, "stream"
		return o
	}
	if e, ok := errors.AsType[*quic.ApplicationError](err); ok {
		code := uint64(e.ErrorCode)
		o.Code, o.Remote, o.Kind = &code, e.Remote, "connection"
		return o
	}
	if e, ok := errors.AsType[*http3.Error](err); ok {
		code := uint64(e.ErrorCode)
		o.Code, o.Remote, o.Kind = &code, e.Remote, "stream"
		if strings.Contains(err.Error(), "connection") {
			o.Kind = "connection"
		}
	}
	return o
}

func causeOf(err error) *closeCause {
	if err == nil {
		return nil
	}
	c := &closeCause{Error: err.Error()}
	if e, ok := errors.AsType[*quic.ApplicationError](err); ok {
		code := uint64(e.ErrorCode)
		c.Code, c.Remote = &code, e.Remote
	}
	return c
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func fail(err error) {
	json.NewEncoder(os.Stdout).Encode(map[string]string{"error": err.Error()})
	os.Exit(1)
}
