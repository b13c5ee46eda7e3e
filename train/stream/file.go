package stream

import (
	"bufio"
	"errors"
	"fmt"
	"os"
)

// A File holds a fit's chunks on disk: records appended one after the
// other, each a chunk in the fit's own encoding, read back by number, on
// every pass, by many goroutines at once. Only the records' offsets stay
// in memory (8 bytes a chunk). The File owns the *os.File it is given;
// where the file lives and when its name goes is the fit's.
type File struct {
	f *os.File
	w *bufio.Writer
	// record i is at offs[i] (offs[i+1] its end), in bytes.
	offs []int64
}

// NewFile returns the File of records written to f, which must be empty.
func NewFile(f *os.File) *File {
	return &File{f: f, w: bufio.NewWriterSize(f, 1<<20), offs: []int64{0}}
}

// Append appends a record, parts one after the other.
func (c *File) Append(parts ...[]byte) error {
	n := int64(0)
	for _, p := range parts {
		if _, err := c.w.Write(p); err != nil {
			return err
		}
		n += int64(len(p))
	}
	c.offs = append(c.offs, c.offs[len(c.offs)-1]+n)
	return nil
}

// Flush writes what Append buffered: the records can then be read. It
// must be called after the last Append, before the reads.
func (c *File) Flush() error { return c.w.Flush() }

// Len returns the number of records.
func (c *File) Len() int { return len(c.offs) - 1 }

// Size returns the size of the records, in bytes.
func (c *File) Size() int64 { return c.offs[len(c.offs)-1] }

// RecordSize returns the size of record i, in bytes.
func (c *File) RecordSize(i int) int64 { return c.offs[i+1] - c.offs[i] }

// ErrShort is the error of a read past the end of its record.
var ErrShort = errors.New("read past the end of the record")

// ReadAt reads len(p) bytes of record i from its byte off into p.
func (c *File) ReadAt(i int, p []byte, off int64) error {
	if off < 0 || off+int64(len(p)) > c.RecordSize(i) {
		return fmt.Errorf("record %d: %w", i, ErrShort)
	}
	if len(p) == 0 {
		return nil
	}
	_, err := c.f.ReadAt(p, c.offs[i]+off)
	return err
}

// Close closes the file.
func (c *File) Close() error { return c.f.Close() }

// Name returns the name of the file.
func (c *File) Name() string { return c.f.Name() }
