// h2spec, the HTTP/2 conformance tests (github.com/summerwind/h2spec), as
// the tests build it: its test runner behind the command line of its own
// cmd/h2spec (the flags the tests use), without that command's cobra.
// Built by ./build.js; test/server/integration/h2spec.test.js runs it.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/summerwind/h2spec"
	"github.com/summerwind/h2spec/config"
)

func main() {
	host := flag.String("h", "127.0.0.1", "Target host")
	port := flag.Int("p", 0, "Target port")
	path := flag.String("P", "/", "Target path")
	timeout := flag.Int("o", 2, "Time seconds to test timeout")
	maxHeaderLen := flag.Int("max-header-length", 4000, "Maximum length of HTTP header")
	junit := flag.String("j", "", "Path for JUnit test report")
	strict := flag.Bool("S", false, "Run all test cases including strict test cases")
	useTLS := flag.Bool("t", false, "Connect over TLS")
	insecure := flag.Bool("k", false, "Don't verify server's certificate")
	verbose := flag.Bool("v", false, "Output verbose log")
	flag.Parse()

	c := &config.Config{
		Host:         *host,
		Port:         *port,
		Path:         *path,
		Timeout:      time.Duration(*timeout) * time.Second,
		MaxHeaderLen: *maxHeaderLen,
		JUnitReport:  *junit,
		Strict:       *strict,
		TLS:          *useTLS,
		Insecure:     *insecure,
		Verbose:      *verbose,
		Sections:     flag.Args(),
	}
	success, err := h2spec.Run(c)
	if err != nil {
		fmt.Fprintln(os.Stderr, "h2spec:", err)
		os.Exit(2)
	}
	if !success {
		os.Exit(1)
	}
}
