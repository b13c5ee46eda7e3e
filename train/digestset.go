package train

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"fmt"
	"slices"
)

// digestKey is the first half of a game digest, as ingest keys its runs.
type digestKey [16]byte

func keyOf(digest string) (k digestKey, ok bool) {
	if len(digest) < 2*len(k) {
		return k, false
	}
	_, err := hex.Decode(k[:], []byte(digest[:2*len(k)]))
	return k, err == nil
}

func compareKeys(a, b digestKey) int { return bytes.Compare(a[:], b[:]) }

// digestSet is a set of games by digestKey, held as the sorted keys: 16
// bytes a game (a map of the same keys holds 20 to 40 with its spare
// room; TestDigestSetMemory). Keys added after it was read are looked up
// once seal has sorted them in.
type digestSet struct {
	keys     []digestKey
	unsorted bool
}

// add adds k; call seal before the next has.
func (s *digestSet) add(k digestKey) {
	s.keys = append(s.keys, k)
	s.unsorted = true
}

// seal sorts the keys added since the last seal in.
func (s *digestSet) seal() {
	if s.unsorted {
		slices.SortFunc(s.keys, compareKeys)
		s.keys = slices.Compact(s.keys)
		s.unsorted = false
	}
}

// has reports whether k is in the set. It may be called concurrently
// (ingest's workers do), but not with add or seal.
func (s *digestSet) has(k digestKey) bool {
	if s.unsorted {
		panic("train: internal error: a digest set looked up before seal")
	}
	_, ok := slices.BinarySearchFunc(s.keys, k, compareKeys)
	return ok
}

// readCounted returns the set of the games counted in the training
// database q (the rows of game_stats), each by the key of its digest;
// other, if not nil, gets the digests that have no key (not hex: none
// written by ingest). The keys are allocated once, for the games counted
// when it starts, so the set takes 16 bytes a game and no more.
func readCounted(ctx context.Context, q Queryer, other func(digest string)) (*digestSet, error) {
	n, err := CountedGames(ctx, q)
	if err != nil {
		return nil, err
	}
	s := &digestSet{keys: make([]digestKey, 0, n)}
	rows, err := q.QueryContext(ctx, "SELECT g.digest FROM games g JOIN game_stats s ON s.game_id = g.id")
	if err != nil {
		return nil, fmt.Errorf("train: reading counted games: %w", err)
	}
	defer rows.Close()
	var d sql.RawBytes // valid until Next: decoded, or copied, before it
	for rows.Next() {
		if err := rows.Scan(&d); err != nil {
			return nil, fmt.Errorf("train: reading counted games: %w", err)
		}
		var k digestKey
		if len(d) >= 2*len(k) {
			if _, err := hex.Decode(k[:], d[:2*len(k)]); err == nil {
				s.keys = append(s.keys, k)
				continue
			}
		}
		if other != nil {
			other(string(d))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("train: reading counted games: %w", err)
	}
	s.unsorted = true
	s.seal()
	return s, nil
}
