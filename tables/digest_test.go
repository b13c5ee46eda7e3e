package tables

import (
	"regexp"
	"testing"
)

// TestDigest checks the form of Digest, that it is stable, and that it
// changes with any compiled number: a table entry or a model weight.
func TestDigest(t *testing.T) {
	d := Digest()
	if !regexp.MustCompile(`^sha256:[0-9a-f]{64}$`).MatchString(d) {
		t.Fatalf("Digest() = %q", d)
	}
	if Digest() != d {
		t.Error("Digest changed between calls")
	}
	digest := func() string { return digestOnce() }
	for _, tt := range []struct {
		name   string
		change func() func()
	}{
		{"entry cost", func() func() { old := entries[3].Cost; entries[3].Cost++; return func() { entries[3].Cost = old } }},
		{"model weight", func() func() {
			old := model.Weights[7]
			model.Weights[7] += 0.5
			return func() { model.Weights[7] = old }
		}},
	} {
		restore := tt.change()
		digestOnce = newDigest()
		changed := digest()
		restore()
		digestOnce = newDigest()
		if changed == d {
			t.Errorf("%s changed, the digest did not", tt.name)
		}
		if digest() != d {
			t.Errorf("%s restored, the digest is %s, want %s", tt.name, digest(), d)
		}
	}
}
