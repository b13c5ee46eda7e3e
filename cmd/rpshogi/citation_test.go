package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// TestLicenseAndCitation: the repository has an MIT LICENSE and a CFF
// 1.2.0 CITATION.cff whose references hold every paper the project
// implements, as ../shared/papers/README.md lists them (by title).
func TestLicenseAndCitation(t *testing.T) {
	lic, err := os.ReadFile("../../LICENSE")
	if err != nil || !strings.HasPrefix(string(lic), "MIT License\n") {
		t.Fatalf("LICENSE: %v, want the MIT licence", err)
	}
	b, err := os.ReadFile("../../CITATION.cff")
	if err != nil {
		t.Fatal(err)
	}
	cff := string(b)
	for _, want := range []string{"\ncff-version: 1.2.0\n", "\nlicense: MIT\n", "\ntype: software\n", "\nreferences:\n"} {
		if !strings.Contains(cff, want) {
			t.Errorf("CITATION.cff lacks %q", strings.TrimSpace(want))
		}
	}
	if strings.Contains(cff, "doi:") {
		t.Error("CITATION.cff gives a DOI: none is known for these papers")
	}
	papers := filepath.Join(kifutest.SharedDir(t), "..", "..", "papers", "README.md")
	readme, err := os.ReadFile(papers)
	if err != nil {
		t.Fatal(err)
	}
	title := regexp.MustCompile(`(?m)^\| \d{3}_\w+\.txt \| [^|*\n]*\*([^*\n]+)\*`)
	n := 0
	for _, m := range title.FindAllStringSubmatch(string(readme), -1) {
		n++
		if !strings.Contains(strings.ToLower(cff), strings.ToLower(m[1])) {
			t.Errorf("CITATION.cff does not cite %q (%s)", m[1], papers)
		}
	}
	if n < 5 {
		t.Errorf("%d papers found in %s, want 5", n, papers)
	}
}
