// h3get: a small HTTP/3 client for h2bench's tests, on quic-go's http3
// package (a maintained QUIC and HTTP/3 implementation, not the server's).
//
//	h3get [--ca FILE | --insecure] [-H 'name: value']... [--timeout 30s] URL
//	      one GET; prints {status, proto, alpn, headers, body (base64), bodyLength, timings}
//	h3get --repeat N [--parallel] URL
//	      N GETs through one transport (one QUIC connection unless the server
//	      closes it); prints {requests, succeeded, failed, connections, statuses, bodies (sha256 → count), errors}
//	h3get --cancel N URL
//	      on one connection, N requests each cancelled (STOP_SENDING
//	      H3_REQUEST_CANCELLED) right after it is sent: HTTP/3's rapid reset;
//	      then one normal GET on the same connection; prints {opened, cancelled, after, …}
//	h3get --alpn LIST URL
//	      only a QUIC handshake offering the comma-separated ALPN LIST; prints {alpn}
//	h3get --bulk [--every 500ms] URL
//	      GETs URL again and again until stdin closes or a signal, discarding the
//	      bodies; prints {bytes, requests, …} every --every and when it stops (bulk.go)
//
// Every result is one JSON object on stdout; a failure is {"error": "…"} and exit code 1.
package main

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
)

type headerFlags []string

func (h *headerFlags) String() string     { return strings.Join(*h, "; ") }
func (h *headerFlags) Set(v string) error { *h = append(*h, v); return nil }

const requestCancelled = quic.StreamErrorCode(http3.ErrCodeRequestCanceled)

func main() {
	var headers headerFlags
	ca := flag.String("ca", "", "PEM file of the CA (or self-signed certificate) the server's certificate must chain to")
	insecure := flag.Bool("insecure", false, "do not verify the server's certificate")
	timeout := flag.Duration("timeout", 30*time.Second, "limit for the whole run")
	repeat := flag.Int("repeat", 0, "make N requests through one transport and print a summary")
	parallel := flag.Bool("parallel", false, "with --repeat: all N at once (parallel streams)")
	cancel := flag.Int("cancel", 0, "open N request streams on one connection, resetting each at once")
	alpn := flag.String("alpn", "", "only a QUIC handshake offering these ALPN values (comma-separated)")
	bulkFlow := flag.Bool("bulk", false, "GET the URL again and again until stopped, counting the bytes received (a bulk QUIC flow)")
	every := flag.Duration("every", 500*time.Millisecond, "with --bulk: how often to print the count")
	flag.Var(&headers, "H", "request header 'name: value' (repeatable)")
	flag.Parse()
	if flag.NArg() != 1 {
		fail(errors.New("usage: h3get [--ca FILE | --insecure] [-H 'name: value'] [--repeat N [--parallel] | --cancel N | --alpn LIST | --bulk [--every D]] URL"))
	}
	target, err := url.Parse(flag.Arg(0))
	if err != nil || target.Scheme != "https" || target.Host == "" {
		fail(fmt.Errorf("not an https URL: %q", flag.Arg(0)))
	}
	tlsConf, err := tlsConfig(*ca, *insecure)
	if err != nil {
		fail(err)
	}
	if *bulkFlow {
		bulk(target, tlsConf, headers, *every) // runs until stopped, then exits
	}
	ctx, stop := context.WithTimeout(context.Background(), *timeout)
	defer stop()
	var out any
	switch {
	case *alpn != "":
		out, err = handshake(ctx, target, tlsConf, strings.Split(*alpn, ","))
	case *cancel > 0:
		out, err = cancelFlood(ctx, target, tlsConf, headers, *cancel)
	case *repeat > 0:
		out, err = repeated(ctx, target, tlsConf, headers, *repeat, *parallel)
	default:
		out, err = single(ctx, target, tlsConf, headers)
	}
	if err != nil {
		fail(err)
	}
	emit(out)
}

func emit(v any) {
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(v); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

func fail(err error) {
	emit(map[string]string{"error": err.Error()})
	os.Exit(1)
}

func tlsConfig(caFile string, insecure bool) (*tls.Config, error) {
	conf := &tls.Config{InsecureSkipVerify: insecure}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("no PEM certificate in %s", caFile)
		}
		conf.RootCAs = pool
	}
	return conf, nil
}

func quicConfig() *quic.Config {
	return &quic.Config{HandshakeIdleTimeout: 5 * time.Second, MaxIdleTimeout: 30 * time.Second}
}

// A transport that dials QUIC itself, counting its connections.
func newTransport(tlsConf *tls.Config, dials *atomic.Int64) *http3.Transport {
	return &http3.Transport{
		TLSClientConfig:    tlsConf,
		QUICConfig:         quicConfig(),
		DisableCompression: true, // the bytes as sent: no Accept-Encoding added
		Dial: func(ctx context.Context, addr string, tlsCfg *tls.Config, cfg *quic.Config) (*quic.Conn, error) {
			dials.Add(1)
			return quic.DialAddrEarly(ctx, addr, tlsCfg, cfg)
		},
	}
}

func newRequest(ctx context.Context, target *url.URL, headers headerFlags) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target.String(), nil)
	if err != nil {
		return nil, err
	}
	for _, h := range headers {
		name, value, ok := strings.Cut(h, ":")
		if !ok {
			return nil, fmt.Errorf("header %q is not 'name: value'", h)
		}
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if strings.EqualFold(name, "host") {
			req.Host = value
		} else {
			req.Header.Add(name, value)
		}
	}
	return req, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

type response struct {
	Status     int                `json:"status"`
	Proto      string             `json:"proto"`
	ALPN       string             `json:"alpn"`
	Headers    map[string]string  `json:"headers"`
	Body       string             `json:"body"`
	BodyLength int                `json:"bodyLength"`
	Timings    map[string]float64 `json:"timings"`
}

func single(ctx context.Context, target *url.URL, tlsConf *tls.Config, headers headerFlags) (any, error) {
	var dials atomic.Int64
	tr := newTransport(tlsConf, &dials)
	defer tr.Close()
	req, err := newRequest(ctx, target, headers)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	res, err := tr.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	ttfb := time.Since(start)
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, fmt.Errorf("reading the body (%d bytes so far): %w", len(body), err)
	}
	out := response{
		Status:     res.StatusCode,
		Proto:      res.Proto,
		Headers:    map[string]string{},
		Body:       base64.StdEncoding.EncodeToString(body),
		BodyLength: len(body),
		Timings:    map[string]float64{"headersMs": ms(ttfb), "totalMs": ms(time.Since(start))},
	}
	if res.TLS != nil {
		out.ALPN = res.TLS.NegotiatedProtocol
	}
	for name, values := range res.Header {
		out.Headers[strings.ToLower(name)] = strings.Join(values, ", ")
	}
	return out, nil
}

type summary struct {
	Requests    int            `json:"requests"`
	Succeeded   int            `json:"succeeded"`
	Failed      int            `json:"failed"`
	Connections int64          `json:"connections"`
	Statuses    map[int]int    `json:"statuses"`
	Bodies      map[string]int `json:"bodies"` // sha256 (hex) of each body → how many
	Errors      []string       `json:"errors"` // distinct, at most 5
	TotalMs     float64        `json:"totalMs"`
}

func repeated(ctx context.Context, target *url.URL, tlsConf *tls.Config, headers headerFlags, n int, parallel bool) (any, error) {
	var dials atomic.Int64
	tr := newTransport(tlsConf, &dials)
	defer tr.Close()
	out := summary{Requests: n, Statuses: map[int]int{}, Bodies: map[string]int{}, Errors: []string{}}
	var mu sync.Mutex
	record := func(status int, body []byte, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			out.Failed++
			if msg := err.Error(); len(out.Errors) < 5 && !contains(out.Errors, msg) {
				out.Errors = append(out.Errors, msg)
			}
			return
		}
		out.Succeeded++
		out.Statuses[status]++
		sum := sha256.Sum256(body)
		out.Bodies[hex.EncodeToString(sum[:])]++
	}
	one := func() {
		req, err := newRequest(ctx, target, headers)
		if err != nil {
			record(0, nil, err)
			return
		}
		res, err := tr.RoundTrip(req)
		if err != nil {
			record(0, nil, err)
			return
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		record(res.StatusCode, body, err)
	}
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		if parallel {
			wg.Go(one)
		} else {
			one()
		}
	}
	wg.Wait()
	out.TotalMs = ms(time.Since(start))
	out.Connections = dials.Load()
	sort.Strings(out.Errors)
	return out, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

type cancelResult struct {
	Opened      int            `json:"opened"`
	Cancelled   int            `json:"cancelled"`
	Connections int            `json:"connections"`
	FloodMs     float64        `json:"floodMs"`
	Error       string         `json:"floodError,omitempty"` // why the flood stopped early, if it did
	After       map[string]any `json:"after"`                // a normal GET on the same connection afterwards
}

func cancelFlood(ctx context.Context, target *url.URL, tlsConf *tls.Config, headers headerFlags, n int) (any, error) {
	conf := tlsConf.Clone()
	conf.NextProtos = []string{http3.NextProtoH3}
	conf.ServerName = target.Hostname()
	conn, err := quic.DialAddr(ctx, target.Host, conf, quicConfig())
	if err != nil {
		return nil, err
	}
	defer conn.CloseWithError(0, "")
	cc := (&http3.Transport{DisableCompression: true}).NewClientConn(conn)
	out := cancelResult{Connections: 1}
	start := time.Now()
	for i := 0; i < n; i++ {
		// Blocks while the server's MAX_STREAMS allows no more: the server
		// grants more as it closes the reset ones.
		str, err := cc.OpenRequestStream(ctx)
		if err != nil {
			out.Error = err.Error()
			break
		}
		out.Opened++
		req, err := newRequest(ctx, target, headers)
		if err != nil {
			return nil, err
		}
		if err := str.SendRequestHeader(req); err != nil {
			out.Error = err.Error()
			break
		}
		// The request goes out whole (HEADERS and FIN), and at once
		// STOP_SENDING H3_REQUEST_CANCELLED: the server must stop its
		// response (RFC 9000 §3.5, RFC 9114 §4.1.1). A RESET_STREAM as well
		// would let quic-go discard HEADERS not yet sent, so the server
		// would never see the request: the flood would test nothing.
		str.Close()
		str.CancelRead(requestCancelled)
		out.Cancelled++
	}
	out.FloodMs = ms(time.Since(start))
	req, err := newRequest(ctx, target, headers)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	if res, err := cc.RoundTrip(req); err != nil {
		out.After = map[string]any{"error": err.Error(), "ms": ms(time.Since(t0))}
	} else {
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		out.After = map[string]any{"status": res.StatusCode, "bodyLength": len(body), "ms": ms(time.Since(t0))}
		if err != nil {
			out.After["error"] = err.Error()
		}
	}
	return out, nil
}

func handshake(ctx context.Context, target *url.URL, tlsConf *tls.Config, protos []string) (any, error) {
	conf := tlsConf.Clone()
	conf.NextProtos = protos
	conf.ServerName = target.Hostname()
	conn, err := quic.DialAddr(ctx, target.Host, conf, quicConfig())
	if err != nil {
		return nil, err
	}
	defer conn.CloseWithError(0, "")
	return map[string]string{"alpn": conn.ConnectionState().TLS.NegotiatedProtocol}, nil
}
