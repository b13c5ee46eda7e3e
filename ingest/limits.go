package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Limits bounds the memory, disk and time one input may cost, so that a
// hostile or broken file (a zip nested thousands deep, a zip bomb, a
// 60 MB line) is rejected with a reason instead of exhausting the
// machine. A zero field takes its default.
//
// Memory: the walker keeps no archive in memory (a nested archive is
// spilled to a temporary file and read from there), so what it holds is
// one file of at most MaxFileBytes per input in flight, at most
// 4·workers+5 of them; a worker parsing a file needs about 40 bytes per
// input byte (the moves, comments and times of its records: a 16 MB
// SFEN list of long games peaks at 670 MB). Peak memory is therefore
// about (4·workers+5)·MaxFileBytes + workers·40·MaxFileBytes, whatever
// the collection and its archives. Disk: a tar stream is spilled member
// by member to a temporary folder, at most MaxTotalBytes per top-level
// input. Time: at most MaxTotalBytes are decompressed per top-level
// input (about 10 s per GiB here).
type Limits struct {
	// MaxFileBytes bounds one file or archive member (default
	// MaxFileSize, 16 MiB; the largest record file of the test corpora
	// is 111 kB).
	MaxFileBytes int64
	// MaxLineBytes bounds one line of a record file (default
	// DefaultMaxLineBytes, 64 KiB; the longest line of the test corpora
	// is a 5,083-byte comment, and a 10,000-move SFEN game is a 50 kB
	// line).
	MaxLineBytes int
	// MaxDepth bounds the nesting of archives: an archive holding an
	// archive is depth 2 (default DefaultMaxDepth, 8).
	MaxDepth int
	// MaxTotalBytes bounds the bytes decompressed from one top-level
	// archive, nested archives, skipped members and tar headers
	// included (default DefaultMaxTotalBytes, 4 GiB): the rest of an
	// archive past it is not read.
	MaxTotalBytes int64
}

// Default limits (see Limits).
const (
	DefaultMaxLineBytes  = 64 << 10
	DefaultMaxDepth      = 8
	DefaultMaxTotalBytes = 4 << 30
)

// withDefaults returns l with its zero fields set to the defaults.
func (l Limits) withDefaults() Limits {
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = MaxFileSize
	}
	if l.MaxLineBytes <= 0 {
		l.MaxLineBytes = DefaultMaxLineBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = DefaultMaxTotalBytes
	}
	return l
}

// validate rejects negative limits (zero means the default).
func (l Limits) validate() error {
	if l.MaxFileBytes < 0 || l.MaxLineBytes < 0 || l.MaxDepth < 0 || l.MaxTotalBytes < 0 {
		return fmt.Errorf("ingest: negative limit in %+v", l)
	}
	return nil
}

// ErrLimit is wrapped by every *LimitError.
var ErrLimit = errors.New("ingest: limit exceeded")

// LimitError says which bound of Limits an input exceeded. Records of an
// input that exceeds a limit are rejected with kind RejectLimit.
type LimitError struct {
	// What is exceeded: "file size", "line length", "archive nesting" or
	// "decompressed bytes".
	What string
	// Limit is the bound (bytes, or levels for nesting); Got what was
	// found (at least Limit+1 when not known exactly).
	Limit, Got int64
	// Line is the line that is too long (line length).
	Line int
	// Top names the top-level archive (decompressed bytes).
	Top string
}

func (e *LimitError) Error() string {
	switch e.What {
	case "line length":
		return fmt.Sprintf("line %d is longer than the %s limit for one line (--max-line)", e.Line, sizeString(e.Limit))
	case "archive nesting":
		return fmt.Sprintf("an archive nested %d deep, deeper than the limit of %d (--max-depth); not opened", e.Got, e.Limit)
	case "decompressed bytes":
		return fmt.Sprintf("more than %s decompressed from %s, the limit for one input (--max-total); the rest of it is not read", sizeString(e.Limit), quoteName(e.Top))
	}
	if e.Got > e.Limit+1 {
		return fmt.Sprintf("file of %d bytes is larger than the %s limit (--max-file-size)", e.Got, sizeString(e.Limit))
	}
	return fmt.Sprintf("file larger than the %s limit (--max-file-size)", sizeString(e.Limit))
}

// Unwrap returns ErrLimit.
func (e *LimitError) Unwrap() error { return ErrLimit }

// checkLines returns a *LimitError for the first line of data longer than
// max bytes (lines end at \n or \r).
func checkLines(data []byte, max int) error {
	line := 1
	for len(data) > max {
		i := bytes.IndexAny(data[:max+1], "\n\r")
		if i < 0 {
			return &LimitError{What: "line length", Limit: int64(max), Got: int64(max) + 1, Line: line}
		}
		j := i + 1
		if data[i] == '\r' && j < len(data) && data[j] == '\n' {
			j++
		}
		line++
		data = data[j:]
	}
	return nil
}

// budget counts the bytes decompressed from one top-level archive.
type budget struct {
	top   string
	limit int64
	left  int64
	err   *LimitError // set once exceeded
}

func newBudget(top string, limit int64) *budget {
	return &budget{top: top, limit: limit, left: limit}
}

// reader returns r, counting what is read against the budget: a read
// past it fails with the budget's *LimitError.
func (b *budget) reader(r io.Reader) io.Reader { return &budgetReader{r: r, b: b} }

type budgetReader struct {
	r io.Reader
	b *budget
}

func (c *budgetReader) Read(p []byte) (int, error) {
	b := c.b
	if b.err != nil {
		return 0, b.err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left+1] // one byte more tells the end of the stream from too much
	}
	n, err := c.r.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		b.err = &LimitError{What: "decompressed bytes", Limit: b.limit, Got: b.limit + 1, Top: b.top}
		return n, b.err
	}
	return n, err
}

// readLimited reads all of r, failing with a *LimitError beyond max
// bytes.
func readLimited(r io.Reader, max int64) ([]byte, error) {
	if r == nil {
		return nil, errors.New("no standard input to read")
	}
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, &LimitError{What: "file size", Limit: max, Got: max + 1}
	}
	return b, nil
}
