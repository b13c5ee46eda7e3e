//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package evalfit

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an exclusive advisory lock (flock) on f without waiting:
// false if another open file holds it. The lock lasts until f is closed
// or its process dies, which is how a run's folder of examples tells a
// live run from a killed one (workDir).
func tryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
