// Package progress draws the progress of rpshogi's long commands on a
// terminal: a bar with the total, the rate and the time left (ETA) where
// the total is known before the work starts, a spinner otherwise.
package progress

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rpshogi/rpshogi/ingest"
	"github.com/schollz/progressbar/v3"
)

// Bar returns a progress bar on w described by desc: of total units
// (bytes when bytes is set) with the percentage and the estimated time
// left when total > 0, a spinner counting them when total <= 0 (not
// known).
func Bar(w io.Writer, desc string, total int64, bytes bool) *progressbar.ProgressBar {
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowBytes(bytes),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetRenderBlankState(true), // drawn at once, before the first unit
	}
	if total <= 0 {
		return progressbar.NewOptions64(-1, append(opts, progressbar.OptionSpinnerType(14))...)
	}
	opts = append(opts, progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetWidth(20), progressbar.OptionFullWidth())
	return progressbar.NewOptions64(total, opts...)
}

// ETA estimates the time left when done of total units took elapsed, at
// the same rate; 0 when it cannot say (nothing done yet, or all of it).
func ETA(elapsed time.Duration, done, total int64) time.Duration {
	if done <= 0 || done >= total {
		return 0
	}
	return time.Duration(float64(elapsed) / float64(done) * float64(total-done)).Round(time.Second)
}

// InputBytes returns the total size of the record files that ingest will
// read from paths: plain files, and the files of folders whose extension
// is in exts (every file if exts is nil; symbolic links inside folders
// are skipped, as ingest skips them). It returns -1 when the total is not
// known before reading: standard input ("-"), a glob pattern, an archive
// (read decompressed), or a path it cannot read.
func InputBytes(paths []string, exts map[string]bool) int64 {
	var total int64
	for _, p := range paths {
		if p == "-" || strings.ContainsAny(p, "*?[") || isArchive(p) {
			return -1
		}
		fi, err := os.Stat(p)
		if err != nil {
			return -1
		}
		if !fi.IsDir() {
			total += fi.Size()
			continue
		}
		err = filepath.WalkDir(p+string(filepath.Separator), func(f string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() || !d.Type().IsRegular():
				return nil
			case isArchive(f):
				return fs.ErrInvalid
			case exts != nil && !exts[strings.ToLower(filepath.Ext(f))]:
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			total += info.Size()
			return nil
		})
		if err != nil {
			return -1
		}
	}
	return total
}

// isArchive reports whether name is an archive ingest opens.
func isArchive(name string) bool {
	n := strings.ToLower(name)
	for _, ext := range []string{".zip", ".tar", ".tar.gz", ".tgz"} {
		if strings.HasSuffix(n, ext) {
			return true
		}
	}
	return false
}

// IsTerminal reports whether w is a terminal (where bars are drawn).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// InputBar returns a bar of the bytes of record files (extensions
// ingest.RecordExts, or every file with allFiles) read from paths, with
// the total and the time left when the total is known before reading
// (InputBytes), a spinner otherwise.
func InputBar(w io.Writer, desc string, paths []string, allFiles bool) *progressbar.ProgressBar {
	exts := ingest.RecordExts
	if allFiles {
		exts = nil
	}
	return Bar(w, desc, InputBytes(paths, exts), true)
}

// Spinner shows a spinner described by what, with the time elapsed, on w
// from the moment it is called until the returned function is called,
// when on (progress bars are shown); else it does nothing.
func Spinner(on bool, w io.Writer, what string) (stop func()) {
	if !on {
		return func() {}
	}
	spin := progressbar.NewOptions(-1, progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what), progressbar.OptionSpinnerType(14), progressbar.OptionClearOnFinish(),
		progressbar.OptionSetElapsedTime(true), progressbar.OptionSetRenderBlankState(true)) // drawn at once
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				spin.Add(1)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		spin.Finish()
	}
}
