package containerscaler

import (
	"cmp"
	"encoding/json"
	"net/netip"
	"slices"
	"strings"
)

// ruleset is what the rule reaper reads of the kici table
// (`nft -j list table ip kici`): the addresses that have chains or map
// entries of the backend's layout, with the rules their chains hold, and
// the orchestrator's own per-address rules in its forward and input
// chains, which a host it ran on may still hold.
type ruleset struct {
	rules  map[netip.Addr]int
	legacy map[string][]legacyRule
}

// legacyRule is one rule of the orchestrator's layout: a rule in forward or
// input that matches one source address.
type legacyRule struct {
	chain  string
	handle uint64
}

// nftObject is one object of nft's JSON listing; only one field is set.
type nftObject struct {
	Map *struct {
		Name string
		Elem []json.RawMessage
	}
	Chain *struct{ Name string }
	Rule  *struct {
		Chain  string
		Handle uint64
		Expr   []json.RawMessage
	}
}

// parseRuleset reads nft's JSON listing of the kici table.
func parseRuleset(out []byte) (ruleset, error) {
	var doc struct{ Nftables []nftObject }
	if err := json.Unmarshal(out, &doc); err != nil {
		return ruleset{}, err
	}
	rs := ruleset{rules: map[netip.Addr]int{}, legacy: map[string][]legacyRule{}}
	for _, o := range doc.Nftables {
		switch {
		case o.Map != nil && (o.Map.Name == forwardAddrs || o.Map.Name == inputAddrs):
			for _, e := range o.Map.Elem {
				var pair []json.RawMessage
				var key string
				if json.Unmarshal(e, &pair) == nil && len(pair) == 2 && json.Unmarshal(pair[0], &key) == nil {
					rs.note(key, 0)
				}
			}
		case o.Chain != nil:
			rs.note(chainAddr(o.Chain.Name), 0)
		case o.Rule != nil && (o.Rule.Chain == "forward" || o.Rule.Chain == "input"):
			if id := identifierOf(o.Rule.Expr); id != "" {
				rs.legacy[id] = append(rs.legacy[id], legacyRule{o.Rule.Chain, o.Rule.Handle})
			}
		case o.Rule != nil:
			rs.note(chainAddr(o.Rule.Chain), 1)
		}
	}
	return rs, nil
}

// note counts n rules more for the address s, when s is one.
func (rs ruleset) note(s string, n int) {
	if a, err := netip.ParseAddr(s); err == nil && a.Is4() {
		rs.rules[a] += n
	}
}

// chainAddr is the address an agent chain's name holds; "" for any other
// chain.
func chainAddr(name string) string {
	if a, ok := strings.CutPrefix(name, forwardChainPre); ok {
		return a
	}
	if a, ok := strings.CutPrefix(name, inputChainPre); ok {
		return a
	}
	return ""
}

// identifierOf is the orchestrator's reading of which agent a rule of its
// layout belongs to (nftables.ts's identifierOf, at 221047e): the first
// match of a plain source address or input interface; none when a source
// match is a whole subnet or any matched string holds a wildcard.
func identifierOf(expr []json.RawMessage) string {
	var candidate string
	for _, raw := range expr {
		var node struct {
			Match *struct {
				Left struct {
					Payload *struct{ Field string }
					Meta    *struct{ Key string }
				}
				Right json.RawMessage
			}
		}
		if json.Unmarshal(raw, &node) != nil || node.Match == nil {
			continue
		}
		left := node.Match.Left
		saddr := left.Payload != nil && left.Payload.Field == "saddr"
		var right string
		if json.Unmarshal(node.Match.Right, &right) != nil {
			if saddr {
				return ""
			}
			continue
		}
		if strings.Contains(right, "*") {
			return ""
		}
		if candidate == "" && (saddr || left.Meta != nil && left.Meta.Key == "iifname") {
			candidate = right
		}
	}
	return candidate
}

// stale returns the addresses on the isolated network whose rules no live
// address holds, the orchestrator-layout rules of such addresses, and the
// number of rules the two hold. An address is on the isolated network when
// its text starts as the subnet's does ("172.30."), as the orchestrator
// tests it.
func (rs ruleset) stale(live map[string]bool) (addrs []netip.Addr, legacy []legacyRule, n int) {
	const prefix = "172.30."
	for a, count := range rs.rules {
		if s := a.String(); strings.HasPrefix(s, prefix) && !live[s] {
			addrs = append(addrs, a)
			n += count
		}
	}
	for id, rules := range rs.legacy {
		if strings.HasPrefix(id, prefix) && !live[id] {
			legacy = append(legacy, rules...)
			n += len(rules)
		}
	}
	slices.SortFunc(addrs, netip.Addr.Compare)
	slices.SortFunc(legacy, func(a, b legacyRule) int {
		if c := strings.Compare(a.chain, b.chain); c != 0 {
			return c
		}
		return cmp.Compare(a.handle, b.handle)
	})
	return addrs, legacy, n
}
