package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEmptyRecordFile: show and convert reject an empty file (no bytes,
// or only blank lines) with exit 1 and a message saying so, as ingest
// rejects it.
func TestEmptyRecordFile(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"empty.kif": "", "blank.csa": "\n \r\n\n", "bom.kif": "\uFEFF\n"}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"show", path}, {"convert", "--to", "csa", path}} {
			code, out, errOut := runCmd(args...)
			if code != exitError || out != "" || !strings.Contains(errOut, path+": empty file") {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1 and \"empty file\"", args, code, out, errOut)
			}
		}
	}
}

// TestShowBadVariation: an illegal move in a variation is a warning for
// show, as for ingest; the game is shown and the exit status is 0.
func TestShowBadVariation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "badvar.kif")
	kif := "手合割：平手\n手数----指手---------消費時間--\n" +
		"   1 ７六歩(77)\n   2 ３四歩(33)+\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 投了\n\n" +
		"変化：2手\n   2 ５五角(22)\n"
	if err := os.WriteFile(path, []byte(kif), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd("show", path)
	if code != exitOK || !strings.Contains(out, "  moves: 4\n") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "rpshogi: warning: ") || !strings.Contains(errOut, "variation ply 2") || !strings.Contains(errOut, "the variations after it were not read") {
		t.Errorf("no warning naming the variation: %q", errOut)
	}
}
