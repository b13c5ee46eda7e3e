package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/cmd/internal/version"
	"github.com/rpshogi/rpshogi/tables"
)

// TestVersion checks --version (the compiled tables' digest included),
// that the USI name carries the short version, and that another argument
// is refused.
func TestVersion(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"--version"}, nil, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "rpshogi-engine ") ||
		!strings.Contains(out.String(), "\ntables  "+tables.Digest()+"\n") {
		t.Errorf("--version: exit %d: %q %q", code, out.String(), errOut.String())
	}
	out.Reset()
	if code := run(nil, strings.NewReader("usi\nquit\n"), &out, &errOut); code != 0 ||
		!strings.Contains(out.String(), "id name rpshogi (table "+strings.TrimPrefix(tables.Source, "sha256:")[:8]+") "+version.Get().Short()+"\n") {
		t.Errorf("usi: exit %d: %q", code, out.String())
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{"--help-me"}, nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "unknown argument") {
		t.Errorf("bad argument: exit %d: %q", code, errOut.String())
	}
}
