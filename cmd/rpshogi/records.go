package main

import (
	"fmt"
	"os"

	"github.com/rpshogi/rpshogi/kifu"
)

// readRecords reads a record file: bytes, decoded (kifu.DecodeText) and
// parsed by its format (kifu.ParseRecords). The records are returned with
// any error, as kifu returns them (a record cut short by an illegal move
// comes with a *kifu.ReplayError).
func readRecords(path string) ([]*kifu.Record, kifu.Encoding, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, kifu.EncodingUnknown, err
	}
	text, enc, err := kifu.DecodeText(path, data)
	if err != nil {
		return nil, enc, err
	}
	recs, err := kifu.ParseRecords(path, text)
	if err == nil && len(recs) == 0 {
		err = fmt.Errorf("%s: no record found", path)
	}
	return recs, enc, err
}

// pickGame returns the records to work on: all, or game n (from 1).
func pickGame(path string, recs []*kifu.Record, n int) ([]*kifu.Record, error) {
	if n == 0 {
		return recs, nil
	}
	if n > len(recs) {
		return nil, fmt.Errorf("%s holds %d game(s), there is no game %d", path, len(recs), n)
	}
	return recs[n-1 : n], nil
}
