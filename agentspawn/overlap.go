package agentspawn

import "github.com/kicikit/kicikit/scalerconfig"

// Overlap is a label set two scalers both declare, which makes routing
// ambiguous.
type Overlap struct {
	// Labels is the label set's [NormalizeLabelSet].
	Labels string
	// First is the scaler that declares it first; Second the one that
	// declares it again.
	First, Second string
}

// Overlaps returns every label set a scaler declares when an earlier scaler
// of another name already declared it, in config order. This is the
// orchestrator's detectLabelSetOverlaps (label-matcher.ts, at db60c39). It
// refuses an ambiguous config with it at startup. Label sets compare by
// [NormalizeLabelSet]. A scaler may repeat its own label sets. A nil config
// has none.
func Overlaps(cfg *scalerconfig.Config) []Overlap {
	if cfg == nil {
		return nil
	}
	var out []Overlap
	owner := map[string]string{}
	for i := range cfg.Scalers {
		s := &cfg.Scalers[i]
		for _, ls := range s.LabelSets {
			key := NormalizeLabelSet(ls.Labels)
			first, seen := owner[key]
			switch {
			case !seen:
				owner[key] = s.Name
			case first != s.Name:
				out = append(out, Overlap{Labels: key, First: first, Second: s.Name})
			}
		}
	}
	return out
}
