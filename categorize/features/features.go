package features

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/kifu"
)

// Version identifies the feature set: a model's weights are indexed by
// feature ID, so weights fitted with one version are meaningless with
// another. Bump it whenever a template is added, removed or changes.
const Version = 9

// Feature is a feature ID, 0..NumFeatures()-1.
type Feature = uint16

// Group is a group of templates, the unit of the ablation study.
type Group uint8

// Groups.
const (
	GroupCategory   Group = iota // the project's move categories, alone and by game phase
	GroupCRA                     // CRA relevance features and rank, alone, by phase and by king danger
	GroupKing                    // origin and destination relative to both kings, by moving piece
	GroupSquare                  // destination square and game phase, by moving piece
	GroupExchange                // SEE, captured piece, attackers and defenders of origin and destination
	GroupPrevious                // relation to the previous moves, answering a check
	GroupDanger                  // both kings' danger, by moving piece
	GroupBook                    // opening frequency: how often the training games played the move from the position
	GroupMate                    // checks by the opponent's number of legal replies (0: mate)
	GroupOpening                 // destination square by moving piece and move number, in the first 30 moves
	GroupPattern                 // what stands on each of the 8 squares around the destination, by moving piece
	GroupThreat                  // the opponent pieces the move attacks (worth it or not, forks, pinned targets, discovered attacks)
	GroupHanging                 // our most valuable hanging piece: does the move save it (and did their last move attack it)
	GroupExposed                 // our pieces the move leaves hanging (a defender moved away, a line opened)
	GroupMateThreat              // a mate in one the move threatens; what the move does about the opponent's
	GroupLastMove                // the opponent's last move: what its piece attacks now and newly, what it stopped guarding
	GroupHand                    // the pieces in hand: how many of each side, their rooks and bishops, the dropped type's count
	GroupFormation               // formation book: how often the training games played the move from the same camp formation(s)
	GroupNB
)

var groupNames = [GroupNB]string{"category", "cra", "king", "square", "exchange", "previous", "danger", "book", "mate", "opening", "pattern", "threat", "hanging", "exposed", "matethreat", "lastmove", "hand", "formation"}

func (g Group) String() string {
	if g < GroupNB {
		return groupNames[g]
	}
	return fmt.Sprintf("Group(%d)", uint8(g))
}

// ParseGroup returns the group named s.
func ParseGroup(s string) (Group, bool) {
	for g, n := range groupNames {
		if n == s {
			return Group(g), true
		}
	}
	return 0, false
}

// Kinds: a board move by the moving piece's type before the move (14
// kinds), or a drop by the dropped type (7 kinds).
const (
	kindNB      = 21
	boardKindNB = 14
)

var kindNames = func() (n [kindNB]string) {
	for pt := kifu.Pawn; pt <= kifu.Dragon; pt++ {
		n[pt-1] = pt.String()
		if pt <= kifu.Gold {
			n[boardKindNB+int(pt)-1] = pt.String() + "*"
		}
	}
	return n
}()

// Buckets.
const (
	relNB     = 17 * 17 // a square relative to a king: file and rank difference in -8..8
	phaseNB   = 7       // by the number of the move: 1-20, 21-40, 41-60, 61-80, 81-100, 101-130, 131-
	dangerNB  = 5       // KingDangerScore: 0-1, 2-3, 4-5, 6-8, 9-
	seeNB     = 10      // SEE: see seeBucket
	countNB   = 4       // attackers or defenders: 0, 1, 2, 3+
	pieceNB   = 15      // no piece, or a piece type Pawn..Dragon
	prevNB    = 6       // distance to the previous move's destination: none, 0, 1, 2, 3-4, 5+
	craNB     = 64
	rankNB    = int(cra.RankNB) + 1
	promoteNB = 2
	evasionNB = 5 // the opponent's legal replies to a check: 0 (mate), 1, 2, 3-4, 5+
	openNB    = 6 // move number 1-5, 6-10, ..., 26-30
	handNB    = 5 // pieces in hand: 0, 1, 2-3, 4-6, 7+
	dirNB     = 8 // the 8 neighbours of a square
	occNB     = 2 + 2*14
)

var (
	phaseNames   = [phaseNB]string{"1-20", "21-40", "41-60", "61-80", "81-100", "101-130", "131-"}
	dangerNames  = [dangerNB]string{"0-1", "2-3", "4-5", "6-8", "9-"}
	seeNames     = [seeNB]string{"<=-11", "-10..-6", "-5..-3", "-2..-1", "0", "1..3", "4..7", "8..11", "12..17", ">=18"}
	countNames   = [countNB]string{"0", "1", "2", "3+"}
	prevNames    = [prevNB]string{"none", "0", "1", "2", "3-4", "5+"}
	evasionNames = [evasionNB]string{"0", "1", "2", "3-4", "5+"}
	openNames    = [openNB]string{"1-5", "6-10", "11-15", "16-20", "21-25", "26-30"}
	handNames    = [handNB]string{"0", "1", "2-3", "4-6", "7+"}
	// dirNames name the neighbours, as file and rank differences seen
	// from the side to move (forward is -rank).
	dirNames = [dirNB]string{"(-1,-1)", "(-1,+0)", "(-1,+1)", "(+0,-1)", "(+0,+1)", "(+1,-1)", "(+1,+0)", "(+1,+1)"}
	dirDF    = [dirNB]int{-1, -1, -1, 0, 0, 1, 1, 1}
	dirDR    = [dirNB]int{-1, 0, 1, -1, 1, -1, 0, 1}
)

// occName names what stands on a square: empty, off the board, or our
// or their piece of a type.
func occName(i int) string {
	switch {
	case i == 0:
		return "empty"
	case i == 1:
		return "edge"
	case i < 16:
		return "our-" + kifu.PieceType(i-1).String()
	}
	return "their-" + kifu.PieceType(i-15).String()
}

func pieceName(i int) string {
	if i == 0 {
		return "none"
	}
	return kifu.PieceType(i).String()
}

func relName(i int) string { return fmt.Sprintf("(%+d,%+d)", i/17-8, i%17-8) }

func sqName(i int) string { return kifu.Square(i).String() }

// A dim is one dimension of a template: its size and the name of a value.
type dim struct {
	label string
	n     int
	name  func(int) string
}

func names(a []string) func(int) string { return func(i int) string { return a[i] } }

var (
	dKind      = dim{"kind", kindNB, names(kindNames[:])}
	dBoardKind = dim{"kind", boardKindNB, names(kindNames[:boardKindNB])}
	dPhase     = dim{"phase", phaseNB, names(phaseNames[:])}
	dCat       = dim{"cat", categorize.MaxCategories, func(i int) string {
		if i < categorize.Count() {
			return categorize.List()[i].Name
		}
		return fmt.Sprintf("unused%d", i)
	}}
	dCRA = dim{"cra", craNB, func(i int) string {
		if i < cra.FeatureCount() {
			return cra.Feature(i).String()
		}
		return fmt.Sprintf("unused%d", i)
	}}
	dRank         = dim{"rank", rankNB, func(i int) string { return cra.Rank(i).String() }}
	dOurDanger    = dim{"our-danger", dangerNB, names(dangerNames[:])}
	dTheirDanger  = dim{"their-danger", dangerNB, names(dangerNames[:])}
	dToTheirK     = dim{"to-their-king", relNB, relName}
	dToOurK       = dim{"to-our-king", relNB, relName}
	dFromTheirK   = dim{"from-their-king", relNB, relName}
	dFromOurK     = dim{"from-our-king", relNB, relName}
	dTo           = dim{"to", kifu.SquareNB, sqName}
	dSEE          = dim{"see", seeNB, names(seeNames[:])}
	dCaptured     = dim{"captured", pieceNB, pieceName}
	dPromote      = dim{"promote", promoteNB, names([]string{"no", "yes"})}
	dToAtt        = dim{"to-attackers", countNB, names(countNames[:])}
	dToDef        = dim{"to-defenders", countNB, names(countNames[:])}
	dFromAtt      = dim{"from-attackers", countNB, names(countNames[:])}
	dFromDef      = dim{"from-defenders", countNB, names(countNames[:])}
	dToLeastAtt   = dim{"to-least-attacker", pieceNB, pieceName}
	dToLeastDef   = dim{"to-least-defender", pieceNB, pieceName}
	dFromLeastAtt = dim{"from-least-attacker", pieceNB, pieceName}
	dFromLeastDef = dim{"from-least-defender", pieceNB, pieceName}
	dPrevDist     = dim{"prev-distance", prevNB, names(prevNames[:])}
	dInCheck      = dim{"in-check", 2, names([]string{"no", "yes"})}
	dFollow       = dim{"follow-up", 2, names([]string{"no", "yes"})}
	dPrevCapture  = dim{"prev-captured", 2, names([]string{"no", "yes"})}
	dCapture      = dim{"captures", 2, names([]string{"no", "yes"})}
	dBookPos      = dim{"book-games", bookPosNB, names(bookPosNames[:])}
	dBookShare    = dim{"book-share", bookShareNB, names(bookShareNames[:])}
	dBookRank     = dim{"book-rank", bookRankNB, names(bookRankNames[:])}
	dEvasions     = dim{"replies", evasionNB, names(evasionNames[:])}
	dOpen         = dim{"move-number", openNB, names(openNames[:])}
	dDir          = dim{"neighbour", dirNB, names(dirNames[:])}
	dOcc          = dim{"occupant", occNB, occName}
	dTarget       = dim{"target", pieceNB, pieceName}
	dWorthy       = dim{"worthy", 2, names([]string{"no", "yes"})}
	dSafe         = dim{"safe", 2, names([]string{"no", "yes"})}
	dNWorthy      = dim{"worthy-targets", 4, names([]string{"0", "1", "2", "3+"})}
	dChecks       = dim{"checks", 2, names([]string{"no", "yes"})}
	dPinned       = dim{"target-pinned", 2, names([]string{"no", "yes"})}
	dDisc         = dim{"discovered-target", pieceNB, pieceName}
	dHangPiece    = dim{"hanging", pieceNB, pieceName}
	dHangOutcome  = dim{"hanging-after", hangOutcomeNB, names([]string{"moved", "captures-attacker", "still-hanging", "saved"})}
	dHangByPrev   = dim{"attacked-by-last-move", 2, names([]string{"no", "yes"})}
	dHangCount    = dim{"hanging-count", 3, names([]string{"1", "2", "3+"})}
	dExposed      = dim{"exposed", pieceNB, pieceName}
	dExposedCount = dim{"exposed-count", 3, names([]string{"1", "2", "3+"})}
	dMateThreat   = dim{"mate-threat", 2, names([]string{"no", "yes"})}
	dMateRespond  = dim{"their-mate-threat", respNB, names([]string{"king-moves", "captures-mater", "occupies", "guards", "checks", "none"})}
	dFromLast     = dim{"from-newly-attacked", 2, names([]string{"no", "yes"})}
	dToLast       = dim{"to-attacked-by-last", 2, names([]string{"no", "yes"})}
	dUnguarded    = dim{"to-unguarded-by-last", 2, names([]string{"no", "yes"})}
	dLastTarget   = dim{"last-move-target", pieceNB, pieceName}
	dLastResp     = dim{"answer", lastRespNB, names([]string{"moves-it", "captures-attacker", "defends", "other"})}
	dCounter      = dim{"attacks-last-piece", 2, names([]string{"no", "yes"})}
	dOurHand      = dim{"our-hand", handNB, names(handNames[:])}
	dTheirHand    = dim{"their-hand", handNB, names(handNames[:])}
	dTheirMajors  = dim{"their-rooks-bishops-in-hand", 3, names([]string{"0", "1", "2+"})}
	dDropType     = dim{"drops", 7, func(i int) string { return kifu.PieceType(i + 1).String() }}
	dDropCount    = dim{"in-hand", 4, names([]string{"1", "2", "3", "4+"})}
	dFormKey      = dim{"formation", formKeyNB, names(formKeyNames[:])}
	dFormVisits   = dim{"formation-visits", formVisitsNB, names(formVisitsNames[:])}
)

// A template is a conjunction of dims; its features are the cells of
// their product.
type template struct {
	id    tmpl
	group Group
	dims  []dim
	base  int // the first feature ID
	size  int
}

// tmpl names the templates, in ID order.
type tmpl uint8

const (
	tCat tmpl = iota
	tPhaseCat
	tCRA
	tRank
	tPhaseCRA
	tTheirDangerCRA
	tOurDangerCRA
	tKindCRA
	tSEECRA
	tKindToTheirK
	tKindToOurK
	tKindFromTheirK
	tKindFromOurK
	tKindTo
	tPhaseKind
	tKindSEE
	tKindCaptured
	tKindPromote
	tKindToCounts
	tKindFromCounts
	tKindToLeastAtt
	tKindToLeastDef
	tKindFromLeastAtt
	tKindFromLeastDef
	tCapturedSEE
	tKindPrevDist
	tKindInCheck
	tKindFollow
	tPrevCaptureRecapture
	tKindOurDanger
	tKindTheirDanger
	tBookShare
	tBookRank
	tPhaseBookShare
	tKindBookShare
	tKindMate
	tTheirDangerMate
	tOpenKindTo
	tKindPattern
	tKindThreat
	tThreatSafe
	tKindForks
	tThreatPinned
	tDiscovered
	tHang
	tKindHang
	tHangCount
	tKindExposed
	tExposedCount
	tKindMateThreat
	tDangerMateThreat
	tKindMateRespond
	tDangerMateRespond
	tKindLastAttack
	tKindUnguarded
	tLastTarget
	tKindCounter
	tKindOurHand
	tKindTheirHand
	tKindTheirMajors
	tDropCount
	tFormShare
	tFormRank
	tPhaseFormShare
	tKindFormShare
	tmplNB
)

var templates = func() []template {
	t := []template{
		{id: tCat, group: GroupCategory, dims: []dim{dCat}},
		{id: tPhaseCat, group: GroupCategory, dims: []dim{dPhase, dCat}},
		{id: tCRA, group: GroupCRA, dims: []dim{dCRA}},
		{id: tRank, group: GroupCRA, dims: []dim{dRank}},
		{id: tPhaseCRA, group: GroupCRA, dims: []dim{dPhase, dCRA}},
		{id: tTheirDangerCRA, group: GroupCRA, dims: []dim{dTheirDanger, dCRA}},
		{id: tOurDangerCRA, group: GroupCRA, dims: []dim{dOurDanger, dCRA}},
		{id: tKindCRA, group: GroupCRA, dims: []dim{dKind, dCRA}},
		{id: tSEECRA, group: GroupCRA, dims: []dim{dSEE, dCRA}},
		{id: tKindToTheirK, group: GroupKing, dims: []dim{dKind, dToTheirK}},
		{id: tKindToOurK, group: GroupKing, dims: []dim{dKind, dToOurK}},
		{id: tKindFromTheirK, group: GroupKing, dims: []dim{dBoardKind, dFromTheirK}},
		{id: tKindFromOurK, group: GroupKing, dims: []dim{dBoardKind, dFromOurK}},
		{id: tKindTo, group: GroupSquare, dims: []dim{dKind, dTo}},
		{id: tPhaseKind, group: GroupSquare, dims: []dim{dPhase, dKind}},
		{id: tKindSEE, group: GroupExchange, dims: []dim{dKind, dSEE}},
		{id: tKindCaptured, group: GroupExchange, dims: []dim{dKind, dCaptured}},
		{id: tKindPromote, group: GroupExchange, dims: []dim{dBoardKind, dPromote}},
		{id: tKindToCounts, group: GroupExchange, dims: []dim{dKind, dToAtt, dToDef}},
		{id: tKindFromCounts, group: GroupExchange, dims: []dim{dBoardKind, dFromAtt, dFromDef}},
		{id: tKindToLeastAtt, group: GroupExchange, dims: []dim{dKind, dToLeastAtt}},
		{id: tKindToLeastDef, group: GroupExchange, dims: []dim{dKind, dToLeastDef}},
		{id: tKindFromLeastAtt, group: GroupExchange, dims: []dim{dBoardKind, dFromLeastAtt}},
		{id: tKindFromLeastDef, group: GroupExchange, dims: []dim{dBoardKind, dFromLeastDef}},
		{id: tCapturedSEE, group: GroupExchange, dims: []dim{dCaptured, dSEE}},
		{id: tKindPrevDist, group: GroupPrevious, dims: []dim{dKind, dPrevDist}},
		{id: tKindInCheck, group: GroupPrevious, dims: []dim{dKind, dInCheck}},
		{id: tKindFollow, group: GroupPrevious, dims: []dim{dKind, dFollow}},
		{id: tPrevCaptureRecapture, group: GroupPrevious, dims: []dim{dPrevCapture, dPrevDist, dCapture}},
		{id: tKindOurDanger, group: GroupDanger, dims: []dim{dKind, dOurDanger}},
		{id: tKindTheirDanger, group: GroupDanger, dims: []dim{dKind, dTheirDanger}},
		{id: tBookShare, group: GroupBook, dims: []dim{dBookPos, dBookShare}},
		{id: tBookRank, group: GroupBook, dims: []dim{dBookPos, dBookRank}},
		{id: tPhaseBookShare, group: GroupBook, dims: []dim{dPhase, dBookShare}},
		{id: tKindBookShare, group: GroupBook, dims: []dim{dKind, dBookShare}},
		{id: tKindMate, group: GroupMate, dims: []dim{dKind, dEvasions}},
		{id: tTheirDangerMate, group: GroupMate, dims: []dim{dTheirDanger, dEvasions}},
		{id: tOpenKindTo, group: GroupOpening, dims: []dim{dOpen, dKind, dTo}},
		{id: tKindPattern, group: GroupPattern, dims: []dim{dKind, dDir, dOcc}},
		{id: tKindThreat, group: GroupThreat, dims: []dim{dKind, dTarget, dWorthy}},
		{id: tThreatSafe, group: GroupThreat, dims: []dim{dTarget, dWorthy, dSafe}},
		{id: tKindForks, group: GroupThreat, dims: []dim{dKind, dNWorthy, dChecks}},
		{id: tThreatPinned, group: GroupThreat, dims: []dim{dTarget, dWorthy, dPinned}},
		{id: tDiscovered, group: GroupThreat, dims: []dim{dBoardKind, dDisc, dWorthy}},
		{id: tHang, group: GroupHanging, dims: []dim{dHangPiece, dHangOutcome, dHangByPrev}},
		{id: tKindHang, group: GroupHanging, dims: []dim{dKind, dHangOutcome}},
		{id: tHangCount, group: GroupHanging, dims: []dim{dHangCount, dHangOutcome}},
		{id: tKindExposed, group: GroupExposed, dims: []dim{dKind, dExposed}},
		{id: tExposedCount, group: GroupExposed, dims: []dim{dExposedCount, dSafe, dChecks}},
		{id: tKindMateThreat, group: GroupMateThreat, dims: []dim{dKind, dMateThreat, dSafe}},
		{id: tDangerMateThreat, group: GroupMateThreat, dims: []dim{dTheirDanger, dMateThreat}},
		{id: tKindMateRespond, group: GroupMateThreat, dims: []dim{dKind, dMateRespond}},
		{id: tDangerMateRespond, group: GroupMateThreat, dims: []dim{dOurDanger, dMateRespond}},
		{id: tKindLastAttack, group: GroupLastMove, dims: []dim{dKind, dFromLast, dToLast}},
		{id: tKindUnguarded, group: GroupLastMove, dims: []dim{dKind, dUnguarded, dCapture}},
		{id: tLastTarget, group: GroupLastMove, dims: []dim{dLastTarget, dLastResp, dSafe}},
		{id: tKindCounter, group: GroupLastMove, dims: []dim{dKind, dCounter, dSafe}},
		{id: tKindOurHand, group: GroupHand, dims: []dim{dKind, dOurHand}},
		{id: tKindTheirHand, group: GroupHand, dims: []dim{dKind, dTheirHand}},
		{id: tKindTheirMajors, group: GroupHand, dims: []dim{dKind, dTheirMajors, dOurDanger}},
		{id: tDropCount, group: GroupHand, dims: []dim{dDropType, dDropCount, dPhase}},
		{id: tFormShare, group: GroupFormation, dims: []dim{dFormKey, dFormVisits, dBookShare}},
		{id: tFormRank, group: GroupFormation, dims: []dim{dFormKey, dFormVisits, dBookRank}},
		{id: tPhaseFormShare, group: GroupFormation, dims: []dim{dFormKey, dPhase, dBookShare}},
		{id: tKindFormShare, group: GroupFormation, dims: []dim{dFormKey, dKind, dBookShare}},
	}
	base := 0
	for i := range t {
		if t[i].id != tmpl(i) {
			panic("features: templates out of order")
		}
		t[i].size = 1
		for _, d := range t[i].dims {
			t[i].size *= d.n
		}
		t[i].base = base
		base += t[i].size
	}
	if base > 1<<16 {
		panic("features: too many features for a uint16 ID")
	}
	return t
}()

var numFeatures = templates[len(templates)-1].base + templates[len(templates)-1].size

// NumFeatures returns the number of feature IDs.
func NumFeatures() int { return numFeatures }

// template returns the template of feature id.
func templateOf(id int) *template {
	i := sort.Search(len(templates), func(i int) bool { return templates[i].base+templates[i].size > id })
	return &templates[i]
}

// GroupOf returns the group of feature id.
func GroupOf(id int) Group { return templateOf(id).group }

// Name returns the name of feature id, the template's dims and their
// values joined by "|", for instance "kind=R|to-their-king=(+1,-2)" (file
// and rank differences seen from the side to move, forward being -rank).
func Name(id int) string {
	if id < 0 || id >= numFeatures {
		return fmt.Sprintf("feature%d", id)
	}
	t := templateOf(id)
	off := id - t.base
	parts := make([]string, len(t.dims))
	for i := len(t.dims) - 1; i >= 0; i-- {
		d := t.dims[i]
		parts[i] = d.label + "=" + d.name(off%d.n)
		off /= d.n
	}
	return strings.Join(parts, "|")
}
