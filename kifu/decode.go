package kifu

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
)

// Encoding is the character encoding a record file was written in.
type Encoding uint8

// Encodings of record files.
const (
	EncodingUnknown Encoding = iota
	EncodingASCII            // plain ASCII (decodes the same in all of them)
	EncodingUTF8
	EncodingUTF8BOM  // UTF-8 with a byte-order mark
	EncodingShiftJIS // Shift_JIS as Microsoft's CP932 (Windows-31J)
	EncodingEUCJP
)

var encodingNames = [...]string{"unknown", "ascii", "utf-8", "utf-8-bom", "shift_jis", "euc-jp"}

// String returns the name used in MANIFEST.tsv: "ascii", "utf-8",
// "utf-8-bom", "shift_jis" or "euc-jp".
func (e Encoding) String() string {
	if int(e) < len(encodingNames) {
		return encodingNames[e]
	}
	return "unknown"
}

// DecodeText decodes the bytes of one record file to UTF-8 text
// (formats.md §1), choosing the encoding by, in order: a UTF-8 byte-order
// mark; an encoding declared on the first line ("#KIF version=2.0
// encoding=UTF-8", "'CSA encoding=SHIFT_JIS") if the bytes agree with it;
// the extension .kifu/.ki2u with valid UTF-8; valid UTF-8; else CP932 or
// EUC-JP, whichever reads as Japanese text. Bytes that are not text (NUL
// and other control characters) give a *ParseError wrapping ErrNotText.
func DecodeText(name string, b []byte) (text string, enc Encoding, err error) {
	if line, bad := binaryLine(b); bad {
		return "", EncodingUnknown, &ParseError{File: name, Line: line, Text: "\\x00",
			Err: errNotText("binary data (a control character); want a text record")}
	}
	if rest, ok := bytes.CutPrefix(b, []byte("\xEF\xBB\xBF")); ok {
		if !utf8.Valid(rest) {
			return "", EncodingUnknown, &ParseError{File: name, Line: invalidUTF8Line(rest), Text: "",
				Err: errNotText("a UTF-8 byte-order mark but invalid UTF-8")}
		}
		return string(rest), EncodingUTF8BOM, nil
	}
	ascii := isASCII(b)
	if ascii {
		return string(b), EncodingASCII, nil
	}
	valid := utf8.Valid(b)
	if !valid {
		// Valid UTF-8 cut inside its last character: a truncated file,
		// not another encoding.
		for k := 1; k <= 3 && k < len(b); k++ {
			tail := b[len(b)-k:]
			if utf8.RuneStart(tail[0]) && !utf8.FullRune(tail) && utf8.Valid(b[:len(b)-k]) {
				return "", EncodingUnknown, &ParseError{File: name, Line: bytes.Count(b, []byte("\n")) + 1,
					Err: errNotText("the file ends inside a UTF-8 character (truncated?)")}
			}
		}
	}
	switch declaredEncoding(b) {
	case EncodingUTF8:
		if valid {
			return string(b), EncodingUTF8, nil
		}
	case EncodingShiftJIS:
		if s, ok := decodeWith(japanese.ShiftJIS, b); ok {
			return s, EncodingShiftJIS, nil
		}
	case EncodingEUCJP:
		if s, ok := decodeWith(japanese.EUCJP, b); ok {
			return s, EncodingEUCJP, nil
		}
	}
	if valid {
		return string(b), EncodingUTF8, nil
	}
	sj, sjOK := decodeWith(japanese.ShiftJIS, b)
	eu, euOK := decodeWith(japanese.EUCJP, b)
	switch {
	case sjOK && (!euOK || japaneseScore(sj) >= japaneseScore(eu)):
		return sj, EncodingShiftJIS, nil
	case euOK:
		return eu, EncodingEUCJP, nil
	}
	return "", EncodingUnknown, undecodable(name, b)
}

// undecodable returns the error of bytes b that decode in none of the
// encodings: where the first sequence that is not UTF-8 starts (line and
// byte offset), the bytes there, and, when the lines before it are UTF-8
// Japanese and the rest reads as CP932 or EUC-JP, that the file mixes
// two encodings.
func undecodable(name string, b []byte) *ParseError {
	off := invalidUTF8Offset(b)
	line := bytes.Count(b[:off], []byte("\n")) + 1
	var found strings.Builder
	for _, c := range b[off:min(off+6, len(b))] {
		fmt.Fprintf(&found, "\\x%02x", c)
	}
	reason := fmt.Sprintf("bytes that are neither UTF-8, Shift_JIS (CP932) nor EUC-JP: not UTF-8 from byte offset %d", off)
	start := bytes.LastIndexByte(b[:off], '\n') + 1
	if start > 0 && !isASCII(b[:start]) {
		for _, e := range []struct {
			enc  encoding.Encoding
			name string
		}{{japanese.ShiftJIS, "Shift_JIS (CP932)"}, {japanese.EUCJP, "EUC-JP"}} {
			if _, ok := decodeWith(e.enc, b[start:]); ok {
				reason += fmt.Sprintf("; lines 1-%d are UTF-8 and the rest reads as %s: the file mixes two encodings (save it in one)", line-1, e.name)
				break
			}
		}
	}
	return &ParseError{File: name, Line: line, Text: found.String(), Err: errNotText(reason)}
}

// invalidUTF8Offset returns the byte offset of the first invalid UTF-8
// sequence of b (len(b) if none).
func invalidUTF8Offset(b []byte) int {
	for off := 0; off < len(b); {
		r, n := utf8.DecodeRune(b[off:])
		if r == utf8.RuneError && n <= 1 {
			return off
		}
		off += n
	}
	return len(b)
}

func errNotText(reason string) error { return &notTextError{reason} }

type notTextError struct{ reason string }

func (e *notTextError) Error() string { return e.reason }
func (e *notTextError) Unwrap() error { return ErrNotText }

// binaryLine reports the line of the first control character that no
// text record holds (tab, LF, CR, form feed and Ctrl-Z are allowed).
func binaryLine(b []byte) (int, bool) {
	line := 1
	for _, c := range b {
		switch {
		case c == '\n':
			line++
		case c < 0x20 && c != '\t' && c != '\r' && c != '\f' && c != 0x1a, c == 0x7f:
			return line, true
		}
	}
	return 0, false
}

// invalidUTF8Line returns the line of the first invalid UTF-8 sequence.
func invalidUTF8Line(b []byte) int {
	line := 1
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			return line
		}
		if r == '\n' {
			line++
		}
		b = b[n:]
	}
	return line
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// declaredEncoding reads "encoding=X" on the first line.
func declaredEncoding(b []byte) Encoding {
	first, _, _ := bytes.Cut(b, []byte("\n"))
	_, v, ok := bytes.Cut(bytes.ToLower(first), []byte("encoding="))
	if !ok {
		return EncodingUnknown
	}
	v = bytes.TrimSpace(v)
	if i := bytes.IndexAny(v, " \t\r;"); i >= 0 {
		v = v[:i]
	}
	switch string(v) {
	case "utf-8", "utf8":
		return EncodingUTF8
	case "shift_jis", "shift-jis", "sjis", "cp932", "windows-31j", "ms932":
		return EncodingShiftJIS
	case "euc-jp", "eucjp", "euc_jp":
		return EncodingEUCJP
	}
	return EncodingUnknown
}

// decodeWith decodes b; ok is false if any byte sequence is invalid.
func decodeWith(e encoding.Encoding, b []byte) (string, bool) {
	out, err := e.NewDecoder().Bytes(b)
	if err != nil || bytes.ContainsRune(out, utf8.RuneError) {
		return "", false
	}
	return string(out), true
}

// japaneseScore counts characters typical of Japanese text (kana, common
// kanji, full-width forms, ▲△) minus those a wrong decoding produces
// (half-width katakana, rare symbols).
func japaneseScore(s string) int {
	score := 0
	for _, r := range s {
		switch {
		case r < 0x80:
		case r >= 0x3040 && r <= 0x30FF, r >= 0x4E00 && r <= 0x9FFF, r >= 0xFF01 && r <= 0xFF5E,
			r == '▲' || r == '△' || r == '・' || r == '　':
			score++
		case r >= 0xFF61 && r <= 0xFF9F:
			score -= 2
		default:
			score--
		}
	}
	return score
}

// DetectFormat returns the format of a record file: the one its text
// shows (sniffFormat: the first line that only one format can hold), or,
// when the text does not tell, the one of the extension of name
// (.kif/.kifu, .ki2/.ki2u, .csa, .sfen/.usi, any case). A CSA record
// named .kif is read as CSA.
func DetectFormat(name, text string) Format {
	byExt := extFormat(name)
	if f := sniffFormat(text); f != FormatUnknown && f != byExt {
		return f
	}
	return byExt
}

// extFormat returns the format the extension of name stands for.
func extFormat(name string) Format {
	switch strings.ToLower(path.Ext(name)) {
	case ".kif", ".kifu":
		return FormatKIF
	case ".ki2", ".ki2u":
		return FormatKI2
	case ".csa":
		return FormatCSA
	case ".sfen", ".usi":
		return FormatSFEN
	case ".jkf":
		return FormatJKF
	}
	return FormatUnknown
}

// sniffFormat guesses the format from the first lines that decide it.
func sniffFormat(text string) Format {
	if isJKFText(text) {
		return FormatJKF
	}
	lines := splitLines(text)
	if len(lines) > 200 {
		lines = lines[:200]
	}
	for _, l := range lines {
		s := strings.TrimSpace(l)
		switch {
		case s == "" || s[0] == '#' || s[0] == '*':
		case strings.HasPrefix(s, "startpos") || strings.HasPrefix(s, "sfen ") ||
			strings.HasPrefix(s, "position "):
			return FormatSFEN
		case s == "PI" || (len(s) > 2 && s[0] == 'P' && s[1] >= '1' && s[1] <= '9' && (s[2] == '-' || s[2] == ' ')) ||
			strings.HasPrefix(s, "V2") || strings.HasPrefix(s, "V3") || strings.HasPrefix(s, "N+") ||
			strings.HasPrefix(s, "'CSA") || (len(s) >= 7 && (s[0] == '+' || s[0] == '-') && isCSAMove(s[:7])):
			return FormatCSA
		case isNumberedLine(s):
			return FormatKIF
		case isMarkLine(s):
			if _, _, header := cutKey(s); header {
				continue // a header named with a mark (▲：name)
			}
			return FormatKI2
		}
	}
	return FormatUnknown
}

func isCSAMove(s string) bool {
	for i := 1; i < 5; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	_, ok := csaPieces[s[5:7]]
	return ok
}

// ParseRecords reads the records of one decoded file: the format is
// chosen by DetectFormat, and errors and warnings (Record.Warnings) name
// the file. KIF and KI2 hold one
// record, CSA and SFEN lists any number. See ParseKIF and ParseCSA for
// what is returned with an error.
func ParseRecords(name, text string) ([]*Record, error) {
	return ParseText(DetectFormat(name, text), name, text)
}

// ParseText reads the records of text in format f; name is used in
// errors.
func ParseText(f Format, name, text string) ([]*Record, error) {
	switch f {
	case FormatKIF, FormatKI2:
		rec, err := parseKakinoki(name, text, f)
		if rec == nil {
			return nil, err
		}
		return []*Record{rec}, err
	case FormatCSA:
		return parseCSA(name, text)
	case FormatSFEN:
		return parseSFENMoves(name, text)
	case FormatJKF:
		rec, err := ParseJKF(name, strings.NewReader(strings.TrimPrefix(text, "\uFEFF")))
		if err != nil {
			return nil, err
		}
		return []*Record{rec}, nil
	}
	return nil, &ParseError{File: name, Line: 1, Text: firstLine(text),
		Err: syntaxError("unknown record format; want a .kif, .kifu, .ki2, .ki2u, .csa, .sfen or .jkf file, or text in one of those formats")}
}

// isJKFText reports whether text is a JKF (JSON) record: a JSON object
// with the "header" or "moves" key of JKF.
func isJKFText(text string) bool {
	t := strings.TrimSpace(strings.TrimPrefix(text, "\uFEFF"))
	return strings.HasPrefix(t, "{") && (strings.Contains(t, `"moves"`) || strings.Contains(t, `"header"`))
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
