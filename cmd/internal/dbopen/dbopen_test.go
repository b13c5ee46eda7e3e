package dbopen

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadOnlyNamesTheCause checks ReadOnly's error for each kind of bad
// path, and that a good database opens without creating any file beside
// it and refuses writes.
func TestReadOnlyNamesTheCause(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.sqlite")
	db, err := sql.Open("sqlite3", good)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE t (x INTEGER)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	empty := filepath.Join(dir, "empty.sqlite")
	text := filepath.Join(dir, "text.sqlite")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(text, []byte("not a database\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "none.sqlite"), "step: " + filepath.Join(dir, "none.sqlite") + " does not exist"},
		{"folder", dir, "is a folder, not a database"},
		{"empty", empty, "is empty, not a database"},
		{"not sqlite", text, "is not an SQLite database"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, err := ReadOnly("step", tt.path)
			if err == nil {
				db.Close()
				t.Fatal("no error")
			}
			if !strings.HasPrefix(err.Error(), "step: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want %q", err, tt.want)
			}
		})
	}
	before, _ := os.ReadDir(dir)
	h, err := ReadOnly("step", good)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if _, err := h.Exec("INSERT INTO t VALUES (1)"); err == nil {
		t.Error("a write through ReadOnly succeeded")
	}
	if after, _ := os.ReadDir(dir); len(after) != len(before) {
		t.Errorf("ReadOnly created files: %d entries before, %d after", len(before), len(after))
	}
}

// TestAsStep checks that the package prefix becomes the step, once.
func TestAsStep(t *testing.T) {
	base := errors.New("train: no such table: runs")
	tests := []struct {
		err  error
		want string
	}{
		{base, "tables: no such table: runs"},
		{errors.New("ingest: bad"), "tables: bad"},
		{errors.New("tables: already"), "tables: already"},
		{errors.New("plain"), "tables: plain"},
	}
	for _, tt := range tests {
		got := AsStep("tables", tt.err)
		if got.Error() != tt.want || !errors.Is(got, tt.err) {
			t.Errorf("AsStep(%q) = %q, want %q wrapping it", tt.err, got, tt.want)
		}
	}
	if AsStep("x", nil) != nil {
		t.Error("AsStep(nil) is not nil")
	}
}

// TestCheckWritable checks the causes CheckWritable names.
func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	if err := CheckWritable("train", filepath.Join(dir, "new.sqlite")); err != nil {
		t.Errorf("new file in a writable folder: %v", err)
	}
	if err := CheckWritable("train", filepath.Join(dir, "no", "new.sqlite")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing folder: %v", err)
	}
	if err := CheckWritable("train", dir); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("folder: %v", err)
	}
}
