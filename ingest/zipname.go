package ingest

import (
	"archive/zip"
	"unicode/utf8"

	"golang.org/x/text/encoding/japanese"
)

// zipName returns the name of a zip member as text. Zip tools of
// Japanese Windows store names in CP932 (Shift_JIS) without the UTF-8
// flag; such a name, not valid UTF-8, is decoded from CP932. A name that
// is neither is kept as it is.
func zipName(zf *zip.File) string {
	if !zf.NonUTF8 || utf8.ValidString(zf.Name) {
		return zf.Name
	}
	s, err := japanese.ShiftJIS.NewDecoder().String(zf.Name)
	if err != nil || !utf8.ValidString(s) {
		return zf.Name
	}
	return s
}
