package recfile

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/rpshogi/rpshogi/kifu"
	"golang.org/x/text/encoding/japanese"
)

// ConvertOptions configures Convert.
type ConvertOptions struct {
	To         string // kif, ki2, csa, sfen or jkf
	CSAVersion string // with To csa: 2.2 or 3.0
	ShiftJIS   bool   // encode the output as Shift_JIS (CP932) instead of UTF-8
}

// Convert writes the records of the file at path in the format
// opts.To ("rpshogi convert"). KIF, KI2 and JKF hold one game: more
// records are an error that says to pick one.
func Convert(path string, recs []*kifu.Record, opts ConvertOptions) ([]byte, error) {
	to, _ := kifu.LookupFormat(opts.To)
	var b bytes.Buffer
	var err error
	switch {
	case opts.To == "jkf":
		if len(recs) != 1 {
			return nil, fmt.Errorf("%s holds %d games and JKF holds one: pick one with --game", path, len(recs))
		}
		err = kifu.WriteJKF(&b, recs[0])
	case to == kifu.FormatKIF, to == kifu.FormatKI2:
		if len(recs) != 1 {
			return nil, fmt.Errorf("%s holds %d games and %s holds one: pick one with --game", path, len(recs), to)
		}
		if to == kifu.FormatKIF {
			err = kifu.WriteKIF(&b, recs[0])
		} else {
			err = kifu.WriteKI2(&b, recs[0])
		}
	case to == kifu.FormatCSA:
		err = kifu.WriteCSA(&b, kifu.CSAVersion(opts.CSAVersion), recs...)
	default:
		err = kifu.WriteSFENMoves(&b, recs...)
	}
	if err != nil {
		return nil, err
	}
	out := b.Bytes()
	if opts.ShiftJIS {
		if out, err = ToShiftJIS(out); err != nil {
			return nil, fmt.Errorf("convert: %s: %w", path, err)
		}
	}
	return out, nil
}

// ToShiftJIS encodes UTF-8 text as Shift_JIS (CP932), its first line's
// "encoding=UTF-8" (KIF, CSA 3.0) made "encoding=Shift_JIS". A character
// CP932 lacks is an error naming it and its line.
func ToShiftJIS(text []byte) ([]byte, error) {
	first, rest, _ := bytes.Cut(text, []byte("\n"))
	if bytes.HasSuffix(first, []byte("encoding=UTF-8")) {
		var nb []byte
		nb = append(nb, bytes.TrimSuffix(first, []byte("UTF-8"))...)
		nb = append(nb, "Shift_JIS\n"...)
		text = append(nb, rest...)
	}
	out, err := japanese.ShiftJIS.NewEncoder().Bytes(text)
	if err != nil {
		for i, line := range strings.Split(string(text), "\n") {
			for _, r := range line {
				if _, err := japanese.ShiftJIS.NewEncoder().String(string(r)); err != nil {
					return nil, fmt.Errorf("line %d: %q (U+%04X) has no Shift_JIS (CP932) code: write UTF-8 instead", i+1, r, r)
				}
			}
		}
		return nil, err
	}
	return out, nil
}
