package categorize

import (
	"fmt"

	"github.com/rpshogi/rpshogi/kifu"
)

// Category identifies a move category. IDs are stable: they index the
// generated probability table and are stored in SQLite and Arrow files, so
// the list below only ever grows at the end (bump ListVersion when it
// changes).
type Category uint8

// ListVersion identifies the category list; stores record it so that
// counts from different lists are never mixed.
const ListVersion = 1

// Family is a group of categories (a row group of Tsuruoka et al.'s
// Table 1, or a plain move/drop family).
type Family uint8

// Families, in ID order.
const (
	FamRecapture Family = iota // takes back on the square the previous move captured on
	FamCapture                 // any other capture
	FamCheck                   // gives check, directly or by discovery
	FamPromote                 // promotes a rook, bishop, silver, knight, lance or pawn
	FamEscape                  // moves an en-prise piece to a square where it is not
	FamFork                    // the moved piece attacks two or more pieces worth attacking
	FamAttack                  // a pawn or knight attacks a king, rook, bishop, gold or silver
	FamMove                    // every board move, by moving piece type
	FamDrop                    // every drop, by dropped piece type
	familyNB
)

var familyNames = [familyNB]string{"recapture", "capture", "check", "promote", "escape", "fork", "attack", "move", "drop"}

func (f Family) String() string {
	if f < familyNB {
		return familyNames[f]
	}
	return fmt.Sprintf("Family(%d)", uint8(f))
}

// Grade is the material-gain grade of a category, from the static
// exchange evaluation (SEE) of the move in pawn units (see Value).
type Grade uint8

// Grades. Gain1..Gain5 are the buckets of a positive gain used for
// captures and recaptures; Gain is any positive gain (checks); Even is a
// gain of exactly 0; OK is "+ or 0"; Loss is a negative gain. NoGrade is
// for families graded by a piece instead (escape, fork, attack).
const (
	NoGrade Grade = iota
	Gain1         // 1..3: about a pawn
	Gain2         // 4..7: a lance, or a small exchange gain
	Gain3         // 8..11: a knight or a silver
	Gain4         // 12..17: a gold or a bishop
	Gain5         // 18 and more: a rook, horse or dragon
	Gain          // > 0
	Even          // = 0
	OK            // >= 0
	Loss          // < 0
	gradeNB
)

var gradeNames = [gradeNB]string{"", "gain+1", "gain+2", "gain+3", "gain+4", "gain+5", "gain", "even", "ok", "loss"}

func (g Grade) String() string {
	if g < gradeNB {
		return gradeNames[g]
	}
	return fmt.Sprintf("Grade(%d)", uint8(g))
}

// GainGrade returns the grade of a SEE gain for the bucketed families
// (capture, recapture): Gain1..Gain5, Even or Loss.
func GainGrade(gain int) Grade {
	switch {
	case gain < 0:
		return Loss
	case gain == 0:
		return Even
	case gain <= 3:
		return Gain1
	case gain <= 7:
		return Gain2
	case gain <= 11:
		return Gain3
	case gain <= 17:
		return Gain4
	}
	return Gain5
}

// Target groups pieces for the families graded by a piece (escape, fork,
// attack): the promoted small pieces count as golds.
type Target uint8

// Targets. Escape and fork use Pawn..Dragon; attack uses King, Rook,
// Bishop, Gold and Silver, where Rook includes the dragon, Bishop the
// horse and Gold the promoted small pieces.
const (
	TPawn Target = iota
	TLance
	TKnight
	TSilver
	TGold // gold, and promoted pawn, lance, knight, silver
	TBishop
	TRook
	THorse
	TDragon
	TKing
	targetNB
)

var targetNames = [targetNB]string{"pawn", "lance", "knight", "silver", "gold", "bishop", "rook", "horse", "dragon", "king"}

func (t Target) String() string {
	if t < targetNB {
		return targetNames[t]
	}
	return fmt.Sprintf("Target(%d)", uint8(t))
}

// TargetOf returns the escape/fork target group of a piece type.
func TargetOf(pt kifu.PieceType) Target { return targetOfType[pt] }

var targetOfType = [kifu.PieceTypeNB]Target{
	kifu.Pawn: TPawn, kifu.Lance: TLance, kifu.Knight: TKnight, kifu.Silver: TSilver,
	kifu.Gold: TGold, kifu.ProPawn: TGold, kifu.ProLance: TGold, kifu.ProKnight: TGold, kifu.ProSilver: TGold,
	kifu.Bishop: TBishop, kifu.Rook: TRook, kifu.Horse: THorse, kifu.Dragon: TDragon, kifu.King: TKing,
}

// AttackTargetOf returns the attack-family target of a piece type, and
// false when a pawn or knight attacking it makes no attack category
// (pawns, lances, knights).
func AttackTargetOf(pt kifu.PieceType) (Target, bool) {
	switch t := targetOfType[pt]; t {
	case TKing, TRook, TBishop, TGold, TSilver:
		return t, true
	case THorse:
		return TBishop, true
	case TDragon:
		return TRook, true
	}
	return 0, false
}

// Info describes one category.
type Info struct {
	ID     Category
	Name   string // e.g. "recapture/gain+3", "promote/rook/ok", "attack/king/by-knight"
	Family Family
	Piece  kifu.PieceType // promote, move, drop: the moving piece; attack: the attacker (pawn or knight)
	Target Target         // escape, fork, attack: the piece group attacked or saved
	Grade  Grade
}

// The category list and its lookup tables are package variables with
// initialisers (no init function): Go initialises a variable after every
// variable its initialiser refers to, directly or through the functions it
// calls, so the tables below are built from list whatever the file order
// (TestTablesBuilt checks them).
var (
	// list is every category in ID order (see buildList).
	list = buildList()

	// Lookup tables by grade, piece type or target, derived from list;
	// the entries of no category are 0.
	recaptureCat = byGrade(FamRecapture)
	captureCat   = byGrade(FamCapture)
	checkCat     = byGrade(FamCheck)
	promoteCat   = byPiece(FamPromote) // [pt][0=ok,1=loss]
	escapeCat    = byTarget(FamEscape)
	forkCat      = byTarget(FamFork)
	attackCat    = byAttack()       // [target][0=pawn,1=knight]
	moveCat      = byPiece(FamMove) // [pt][0=ok,1=loss]
	dropCat      = byPiece(FamDrop) // [pt][0=ok,1=loss]
)

var bucketGrades = []Grade{Gain1, Gain2, Gain3, Gain4, Gain5, Even, Loss}

// promotable lists the piece types that promote, in the order of the
// paper's Table 1.
var promotable = []kifu.PieceType{kifu.Rook, kifu.Bishop, kifu.Silver, kifu.Knight, kifu.Lance, kifu.Pawn}

// buildList returns the category list: the IDs are the positions in it,
// in this order (which only ever grows at the end).
func buildList() []Info {
	var out []Info
	add := func(i Info) {
		i.ID = Category(len(out))
		out = append(out, i)
	}
	for _, g := range bucketGrades {
		add(Info{Name: "recapture/" + g.String(), Family: FamRecapture, Grade: g})
	}
	for _, g := range bucketGrades {
		add(Info{Name: "capture/" + g.String(), Family: FamCapture, Grade: g})
	}
	for _, g := range []Grade{Gain, Even, Loss} {
		add(Info{Name: "check/" + g.String(), Family: FamCheck, Grade: g})
	}
	for _, pt := range promotable {
		for _, g := range []Grade{OK, Loss} {
			add(Info{Name: "promote/" + pt.Name() + "/" + g.String(), Family: FamPromote, Piece: pt, Grade: g})
		}
	}
	for t := TPawn; t <= TDragon; t++ {
		add(Info{Name: "escape/" + t.String(), Family: FamEscape, Target: t})
	}
	for t := TPawn; t <= TDragon; t++ {
		add(Info{Name: "fork/" + t.String(), Family: FamFork, Target: t, Grade: OK})
	}
	for _, t := range []Target{TKing, TRook, TBishop, TGold, TSilver} {
		for _, by := range []kifu.PieceType{kifu.Pawn, kifu.Knight} {
			add(Info{Name: "attack/" + t.String() + "/by-" + by.Name(), Family: FamAttack, Piece: by, Target: t, Grade: OK})
		}
	}
	for pt := kifu.Pawn; pt < kifu.PieceTypeNB; pt++ {
		add(Info{Name: "move/" + pt.Name() + "/ok", Family: FamMove, Piece: pt, Grade: OK})
		if pt != kifu.King { // a legal king move never loses material
			add(Info{Name: "move/" + pt.Name() + "/loss", Family: FamMove, Piece: pt, Grade: Loss})
		}
	}
	for pt := kifu.Pawn; pt <= kifu.Gold; pt++ {
		for _, g := range []Grade{OK, Loss} {
			add(Info{Name: "drop/" + pt.Name() + "/" + g.String(), Family: FamDrop, Piece: pt, Grade: g})
		}
	}
	if len(out) > MaxCategories {
		panic("categorize: too many categories")
	}
	return out
}

// byGrade returns the categories of family f (recapture, capture, check)
// by grade.
func byGrade(f Family) (t [gradeNB]Category) {
	for _, i := range list {
		if i.Family == f {
			t[i.Grade] = i.ID
		}
	}
	return t
}

// byPiece returns the categories of family f (promote, move, drop) by
// piece type and okLoss index.
func byPiece(f Family) (t [kifu.PieceTypeNB][2]Category) {
	for _, i := range list {
		if i.Family == f {
			loss := 0
			if i.Grade == Loss {
				loss = 1
			}
			t[i.Piece][loss] = i.ID
		}
	}
	return t
}

// byTarget returns the categories of family f (escape, fork) by target.
func byTarget(f Family) (t [targetNB]Category) {
	for _, i := range list {
		if i.Family == f {
			t[i.Target] = i.ID
		}
	}
	return t
}

// byAttack returns the attack categories by target and attacker (0 pawn,
// 1 knight).
func byAttack() (t [targetNB][2]Category) {
	for _, i := range list {
		if i.Family == FamAttack {
			by := 0
			if i.Piece == kifu.Knight {
				by = 1
			}
			t[i.Target][by] = i.ID
		}
	}
	return t
}

// MaxCategories bounds the number of categories (the size of a Set).
const MaxCategories = 128

// Count returns the number of categories.
func Count() int { return len(list) }

// List returns every category in ID order. The slice must not be modified.
func List() []Info { return list }

// Lookup returns the category of the given name.
func Lookup(name string) (Category, bool) {
	for _, i := range list {
		if i.Name == name {
			return i.ID, true
		}
	}
	return 0, false
}

// Info returns the description of c.
func (c Category) Info() Info { return list[c] }

// String returns the category's name.
func (c Category) String() string {
	if int(c) < len(list) {
		return list[c].Name
	}
	return fmt.Sprintf("Category(%d)", uint8(c))
}

func okLoss(gain int) int {
	if gain < 0 {
		return 1
	}
	return 0
}

// RecaptureCategory returns the recapture category of a SEE gain.
func RecaptureCategory(gain int) Category { return recaptureCat[GainGrade(gain)] }

// CaptureCategory returns the (non-recapture) capture category of a SEE gain.
func CaptureCategory(gain int) Category { return captureCat[GainGrade(gain)] }

// CheckCategory returns the check category of a SEE gain.
func CheckCategory(gain int) Category {
	switch {
	case gain > 0:
		return checkCat[Gain]
	case gain == 0:
		return checkCat[Even]
	}
	return checkCat[Loss]
}

// PromoteCategory returns the category of promoting a piece of type pt
// (Pawn..Rook) with SEE gain gain.
func PromoteCategory(pt kifu.PieceType, gain int) Category { return promoteCat[pt][okLoss(gain)] }

// EscapeCategory returns the category of saving a piece of group t.
func EscapeCategory(t Target) Category { return escapeCat[t] }

// ForkCategory returns the fork category whose lesser target is t.
func ForkCategory(t Target) Category { return forkCat[t] }

// AttackCategory returns the category of attacking t (King, Rook, Bishop,
// Gold or Silver) with a pawn (byKnight false) or a knight.
func AttackCategory(t Target, byKnight bool) Category {
	if byKnight {
		return attackCat[t][1]
	}
	return attackCat[t][0]
}

// MoveCategory returns the plain category of a board move of a piece of
// type pt (before promotion) with SEE gain gain.
func MoveCategory(pt kifu.PieceType, gain int) Category { return moveCat[pt][okLoss(gain)] }

// DropCategory returns the plain category of a drop of type pt with SEE
// gain gain.
func DropCategory(pt kifu.PieceType, gain int) Category { return dropCat[pt][okLoss(gain)] }

// Set is a set of categories, one bit per ID.
type Set [MaxCategories / 64]uint64

// Add adds c to the set.
func (s *Set) Add(c Category) { s[c>>6] |= 1 << (c & 63) }

// Has reports whether c is in the set.
func (s Set) Has(c Category) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// Union adds every member of o to s.
func (s *Set) Union(o Set) {
	for i := range s {
		s[i] |= o[i]
	}
}

// IsEmpty reports whether the set has no member.
func (s Set) IsEmpty() bool { return s[0]|s[1] == 0 }

// Categories returns the members in ID order (allocates).
func (s Set) Categories() []Category {
	var out []Category
	for c := 0; c < len(list); c++ {
		if s.Has(Category(c)) {
			out = append(out, Category(c))
		}
	}
	return out
}
