package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorsNameTheCommand: the errors of model fit, model gen, model
// eval and evalfit start with the command's name, not with the package
// that failed ("train: ").
func TestErrorsNameTheCommand(t *testing.T) {
	dir := t.TempDir()
	none := filepath.Join(dir, "none.sqlite")
	rec := filepath.Join(testdata, "csa", "multi.csa")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"model", "fit", "--db", none}, "rpshogi: model fit: "},
		{[]string{"model", "gen", "--db", none, "--out", filepath.Join(dir, "m.go")}, "rpshogi: model gen: "},
		{[]string{"model", "eval", rec, "--db", none}, "rpshogi: model eval: "},
		{[]string{"evalfit", "--db", none}, "rpshogi: evalfit: "},
	} {
		code, _, errOut := runCmd(tt.args...)
		if code != exitError || !strings.HasPrefix(errOut, tt.want) || strings.Contains(errOut, "train: ") {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and a message starting %q", tt.args, code, errOut, tt.want)
		}
	}
}
