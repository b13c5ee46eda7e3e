package modelrun

import (
	"os"
	"runtime/debug"
)

// fitGCPercent is the collector's GOGC while the fit holds its examples.
// They are up to --in-memory bytes of slices without pointers, which a
// collection marks at almost no cost; with Go's default of 100 the heap
// was let grow to twice them before a collection (2.5 GB of RSS for a
// gigabyte of examples), and at 25 it grows by a quarter.
const fitGCPercent = 25

// tightGC sets the collector's GOGC to fitGCPercent unless the user set
// GOGC, and returns the function that restores it.
func tightGC() (restore func()) {
	if _, set := os.LookupEnv("GOGC"); set {
		return func() {}
	}
	old := debug.SetGCPercent(fitGCPercent)
	return func() { debug.SetGCPercent(old) }
}
