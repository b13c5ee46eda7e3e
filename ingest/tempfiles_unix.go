//go:build unix

package ingest

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process pid exists (signal 0).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
