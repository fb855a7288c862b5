package scalerconfig

import (
	"iter"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// The one reader of a config file behind Load and EditImages: a file in
// the plain form of [yamljs.SplitItems] is split at its scalers list, the
// rest parsed on its own and the list's items a group at a time, so that
// no syntax tree of the whole file exists. A file in any other form, or
// where a part does not parse, is read whole with yamljs.Parse. Load reads
// a scaler of many label sets by groups of label sets too (bigscaler.go).

// groupBytes is about how much of a list the reader parses at once:
// enough items that parsing costs what it costs for the whole file, few
// enough that their syntax trees stay small.
const groupBytes = 32 << 10

// readSplit splits src at its scalers list when the file is in the plain
// form (split), and parses the rest: rest is the file without the list,
// err the rest's YAML error. The whole file's error may be another.
func readSplit(src []byte) (rest *yamljs.Node, items yamljs.Items, split bool, err error) {
	items, split = yamljs.SplitItems(src, "scalers")
	if !split {
		return nil, items, false, nil
	}
	rest, err = yamljs.ParseWithout(src, items.Start, items.End)
	return rest, items, true, err
}

// itemGroup is a run of consecutive items of a [yamljs.Items]: its text
// is src[from.Offset:end], and it holds items items.
type itemGroup struct {
	from  yamljs.Pos
	end   int
	items int
}

// itemGroups yields the items in groups of consecutive items, in order, each
// group as many items as start within size bytes of its first one (at
// least one), so that each group's text is about size bytes long unless
// one item is longer.
func itemGroups(items yamljs.Items, size int) iter.Seq[itemGroup] {
	return func(yield func(itemGroup) bool) {
		for i := 0; i < len(items.Items); {
			j := i + 1
			for j < len(items.Items) && int(items.Items[j].Offset-items.Items[i].Offset) < size {
				j++
			}
			end := int(items.End.Offset)
			if j < len(items.Items) {
				end = int(items.Items[j].Offset)
			}
			if !yield(itemGroup{from: items.Items[i], end: end, items: j - i}) {
				return
			}
			i = j
		}
	}
}

// readGroups parses items of src a group of about size bytes at a time,
// all in parts, and calls f with each group and its tree, a sequence of
// the group's items, valid until f returns. It returns false at the first
// group that does not parse as its items (where the whole file must be
// read) or when f returns false.
//
// big, when not nil, is asked first about a group of one item longer than
// 32 groups: it reads it itself when it can (read), and says whether the
// item was valid (ok). Otherwise the item is parsed as any other.
func readGroups(parts *yamljs.Reader, src []byte, items yamljs.Items, size int, big func(itemGroup) (read, ok bool), f func(g itemGroup, seq *yamljs.Node) bool) bool {
	for g := range itemGroups(items, size) {
		if big != nil && g.items == 1 && g.end-int(g.from.Offset) > 32*size {
			if read, ok := big(g); read {
				if !ok {
					return false
				}
				continue
			}
		}
		n, err := parts.ParseRange(src, g.from, g.end)
		if err != nil || n.Kind != yamljs.Seq || len(n.Items) != g.items || !f(g, n) {
			return false
		}
	}
	return true
}
