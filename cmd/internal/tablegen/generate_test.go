package tablegen

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateChoosesTheSource: the database when given, else the corpus
// (their errors name the one read).
func TestGenerateChoosesTheSource(t *testing.T) {
	dir := t.TempDir()
	db, corpus := filepath.Join(dir, "none.sqlite"), filepath.Join(dir, "nocorpus")
	for _, tc := range []struct{ db, corpus, want string }{{db, "", db}, {"", corpus, corpus}} {
		_, _, err := Generate(context.Background(), tc.db, tc.corpus)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Generate(%q, %q): %v, want an error naming %s", tc.db, tc.corpus, err, tc.want)
		}
	}
}
