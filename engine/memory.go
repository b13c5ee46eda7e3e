package engine

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

// availableMemoryMB returns how many megabytes the process may still
// take without running the machine (or its control group) out of memory:
// the kernel's MemAvailable, less for a control group whose limit is
// nearer. It returns 0 when it cannot tell (not Linux).
func availableMemoryMB() int {
	const mb = 1 << 20
	avail := int64(-1)
	low := func(n int64) {
		if n >= 0 && (avail < 0 || n < avail) {
			avail = n
		}
	}
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
				if kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64); err == nil {
					low(kb << 10)
				}
			}
		}
		f.Close()
	}
	// A control group's limit less its usage (cgroup v2, then v1).
	for _, pair := range [][2]string{
		{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
		{"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"},
	} {
		limit, ok1 := readInt(pair[0])
		used, ok2 := readInt(pair[1])
		if ok1 && ok2 && limit < 1<<60 {
			low(limit - used)
		}
	}
	if avail < 0 {
		return 0
	}
	return int(max(avail/mb, 1))
}

// readInt reads a file holding one number ("max" is not one).
func readInt(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
	return n, err == nil
}

// fitTables returns the sizes in megabytes to give the transposition
// table and the mate table when the options ask for tt and mate, the
// tables now held take held megabytes (freed before the new ones are
// made) and avail megabytes are available (0: unknown, no limit). The
// two tables together take at most three quarters of what is available:
// the mate table keeps its size up to a quarter of that, the
// transposition table gets the rest.
func fitTables(tt, mate, held, avail int) (ttMB, mateMB int) {
	if avail <= 0 {
		return tt, mate
	}
	usable := max((avail+held)*3/4, 2)
	if tt+mate <= usable {
		return tt, mate
	}
	mateMB = max(min(mate, usable/4), 1)
	ttMB = max(min(tt, usable-mateMB), 1)
	return ttMB, mateMB
}
