// Package data embeds rpshogi's bundled default game collection: the
// self-play games in selfplay/ (see README.md for what they are).
package data

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed selfplay/*.csa
var files embed.FS

// Selfplay is the bundled collection: CSA files at the root of the FS.
var Selfplay fs.FS = mustSub(files, "selfplay")

func mustSub(f fs.FS, dir string) fs.FS {
	s, err := fs.Sub(f, dir)
	if err != nil {
		panic(err)
	}
	return s
}

// Extract writes the bundled collection into dir (created if needed) and
// returns the folder holding the files, for tools that read paths.
func Extract(dir string) (string, error) {
	out := filepath.Join(dir, "selfplay")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", err
	}
	err := fs.WalkDir(Selfplay, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(Selfplay, p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(out, p), b, 0o644)
	})
	if err != nil {
		return "", err
	}
	return out, nil
}
