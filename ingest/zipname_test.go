package ingest

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"
)

// TestZipCP932Names walks a zip whose member names are CP932 without the
// UTF-8 flag, as Japanese Windows tools write them, beside a UTF-8 name
// with the flag: both names come out as text, and the records read.
func TestZipCP932Names(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "kifu.zip")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	game := "手合割：平手\n1 ７六歩(77)\n2 ３四歩(33)\n3 投了\n"
	for _, tt := range []struct {
		name string
		sjis bool
	}{{"棋譜/羽生対藤井.kif", true}, {"utf8/竜王戦.kif", false}} {
		name, flags := tt.name, uint16(0x800)
		if tt.sjis {
			if name, err = japanese.ShiftJIS.NewEncoder().String(tt.name); err != nil {
				t.Fatal(err)
			}
			flags = 0
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Flags: flags, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(game))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var names []string
	for _, in := range walkAll(t, &Walker{}, path) {
		if in.Err != nil {
			t.Errorf("%s: %v", in.Name, in.Err)
		}
		names = append(names, in.Name)
	}
	want := path + "!utf8/竜王戦.kif " + path + "!棋譜/羽生対藤井.kif"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("members %q, want %q", got, want)
	}
}
