//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package evalfit

import "os"

// tryLock cannot lock here: it reports every folder of examples as free
// (where files are open, as on Windows, removing a live run's fails).
func tryLock(*os.File) (bool, error) { return true, nil }
