//go:build unix

package nextmove

import (
	"syscall"
	"time"
)

// processCPUTime returns the CPU time (user and system) this process has
// used so far, and whether it is known.
func processCPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
