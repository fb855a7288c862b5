package yamljs

import "encoding/json"

func (cv *converter) stringifyObjectKey(key *ynode, jsKey *Node) (string, *jsError) {
	return "TODO", nil
}

func knownTags() map[string]*tagDef { return map[string]*tagDef{} }

func yaml11Schema() *schema { return coreSchema() }

func dateString(ms float64) string { return "TODO" }

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
