package containerscaler

import (
	"net/netip"
	"strings"
	"sync"
)

// What the backends of one process share. Two container scalers of one
// orchestrator write one nftables table and fill the same runtime volumes:
// each must see what the other holds and does. So, as the orchestrator's
// module-level state, these are the process's own.
var (
	tables      = tableSet{m: map[string]*table{}}
	volumeFills fills
)

// tableSet is the nftables tables of the process's backends, each named by
// the command that reaches it.
type tableSet struct {
	mu sync.Mutex
	m  map[string]*table
}

// table is one table ip kici.
type table struct {
	// mu makes each change of an address's rules, with the check of who
	// holds the address, one step.
	mu     sync.Mutex
	owners map[netip.Addr]*agent // the agent whose rules each address holds
}

// tableFor returns the table that the nft command argv writes.
func tableFor(argv []string) *table {
	key := strings.Join(argv, "\x00")
	tables.mu.Lock()
	defer tables.mu.Unlock()
	t := tables.m[key]
	if t == nil {
		t = &table{owners: map[netip.Addr]*agent{}}
		tables.m[key] = t
	}
	return t
}
