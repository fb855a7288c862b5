package containerscaler

import (
	"encoding/json"
	"net/netip"
	"strings"
)

// tableState is what the backend reads of table ip kici
// (`nft -j list table ip kici`): who owns each agent address, the rules
// each address's chains hold, and the orchestrator's own per-address
// rules in its forward and input chains, which a host it ran on may still
// hold.
type tableState struct {
	owners map[netip.Addr]string   // agent-owners: address to owner
	rules  map[netip.Addr]int      // the rules of each address's chains; an address with chains but none is 0
	legacy map[string][]legacyRule // the orchestrator's rules, by the identifier it reads in them
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
	Set *struct {
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

// listing reads nft's JSON listing into its objects.
func listing(out []byte) ([]nftObject, error) {
	var doc struct{ Nftables []nftObject }
	if err := json.Unmarshal(out, &doc); err != nil {
		return nil, err
	}
	return doc.Nftables, nil
}

// parseTable reads nft's JSON listing of table ip kici. Entries it cannot
// read are not the backend's and are left out.
func parseTable(out []byte) (tableState, error) {
	objs, err := listing(out)
	if err != nil {
		return tableState{}, err
	}
	st := tableState{owners: map[netip.Addr]string{}, rules: map[netip.Addr]int{}, legacy: map[string][]legacyRule{}}
	for _, o := range objs {
		switch {
		case o.Map != nil && o.Map.Name == ownersMap:
			for _, e := range o.Map.Elem {
				if addr, owner, ok := ownerEntry(e); ok {
					st.owners[addr] = owner
				}
			}
		case o.Chain != nil:
			st.note(chainAddr(o.Chain.Name), 0)
		case o.Rule != nil && (o.Rule.Chain == "forward" || o.Rule.Chain == "input"):
			if id := identifierOf(o.Rule.Expr); id != "" {
				st.legacy[id] = append(st.legacy[id], legacyRule{o.Rule.Chain, o.Rule.Handle})
			}
		case o.Rule != nil:
			st.note(chainAddr(o.Rule.Chain), 1)
		}
	}
	return st, nil
}

// ownerEntry reads an element of agent-owners: [address, owner].
func ownerEntry(e json.RawMessage) (netip.Addr, string, bool) {
	var pair []json.RawMessage
	var key, owner string
	if json.Unmarshal(e, &pair) != nil || len(pair) != 2 ||
		json.Unmarshal(pair[0], &key) != nil || json.Unmarshal(pair[1], &owner) != nil {
		return netip.Addr{}, "", false
	}
	addr, err := netip.ParseAddr(key)
	return addr, owner, err == nil && addr.Is4()
}

// note counts n rules more for the address s, when s is one.
func (st tableState) note(s string, n int) {
	if a, err := netip.ParseAddr(s); err == nil && a.Is4() {
		st.rules[a] += n
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

// boundPort is an element of the bridge table's agent-bindings, as nft
// lists it: the port (an interface index, or the name of an interface
// that exists), the MAC and the address.
type boundPort struct {
	port string
	mac  string
	addr netip.Addr
}

// parseBindings reads nft's JSON listing of set bridge kici
// agent-bindings.
func parseBindings(out []byte) ([]boundPort, error) {
	objs, err := listing(out)
	if err != nil {
		return nil, err
	}
	var list []boundPort
	for _, o := range objs {
		if o.Set == nil || o.Set.Name != bindingsSet {
			continue
		}
		for _, e := range o.Set.Elem {
			var el struct{ Concat []string }
			if json.Unmarshal(e, &el) != nil || len(el.Concat) != 3 || !nftWord(el.Concat[0]) || !nftWord(el.Concat[1]) {
				continue
			}
			if addr, err := netip.ParseAddr(el.Concat[2]); err == nil && addr.Is4() {
				list = append(list, boundPort{port: el.Concat[0], mac: el.Concat[1], addr: addr})
			}
		}
	}
	return list, nil
}

// nftWord reports whether s can be written back into an nft script as it
// is, or in double quotes: an interface name, a number or a MAC.
func nftWord(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c <= ' ' || c == '"' || c == '\\' || c > '~' {
			return false
		}
	}
	return true
}
