// Package recfile reads the game records of one file for the rpshogi
// commands that work on a file's games (convert, show, cra --search),
// and writes them as those commands do: in another format (Convert, with
// Shift_JIS output) and as a summary (Show).
package recfile

import (
	"fmt"
	"os"
	"strings"

	"github.com/rpshogi/rpshogi/kifu"
)

// Read reads a record file: bytes, decoded (kifu.DecodeText) and parsed
// by its format (kifu.ParseRecords). The records are returned with any
// error, as kifu returns them (a record cut short by an illegal move
// comes with a *kifu.ReplayError).
func Read(path string) ([]*kifu.Record, kifu.Encoding, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, kifu.EncodingUnknown, err
	}
	if len(data) == 0 { // as ingest rejects it (ingest.RejectEmpty)
		return nil, kifu.EncodingUnknown, fmt.Errorf("%s: empty file (0 bytes): no record", path)
	}
	text, enc, err := kifu.DecodeText(path, data)
	if err != nil {
		return nil, enc, err
	}
	if strings.TrimSpace(strings.TrimPrefix(text, "\uFEFF")) == "" {
		return nil, enc, fmt.Errorf("%s: empty file (only blank lines): no record", path)
	}
	recs, err := kifu.ParseRecords(path, text)
	if err == nil && len(recs) == 0 {
		err = fmt.Errorf("%s: no record found", path)
	}
	return recs, enc, err
}

// Pick returns the records to work on: all (n = 0), or game n (from 1).
func Pick(path string, recs []*kifu.Record, n int) ([]*kifu.Record, error) {
	if n == 0 {
		return recs, nil
	}
	if n > len(recs) {
		return nil, fmt.Errorf("%s holds %d game(s), there is no game %d", path, len(recs), n)
	}
	return recs[n-1 : n], nil
}

// Game returns game n (from 1) of the file at path: Read, then Pick. A
// file whose reading stopped with an error after some records still
// gives those.
func Game(path string, n int) (*kifu.Record, error) {
	if n < 1 {
		return nil, fmt.Errorf("%s: there is no game %d (games are numbered from 1)", path, n)
	}
	recs, _, err := Read(path)
	if err != nil && len(recs) == 0 {
		return nil, err
	}
	if recs, err = Pick(path, recs, n); err != nil {
		return nil, err
	}
	return recs[0], nil
}
