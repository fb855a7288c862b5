package scalerconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// Why the JSON Schema accepts a config Load refuses: what JSON Schema
// cannot say of one file, or cannot see of it.
const (
	reasonMerge      = "the drop-in merge: a main file's scalers may be left out or null when drop-ins add them, and a drop-in adding to a main file that cannot take them fails only merged"
	reasonGate       = "gate labels' reachability: a label set's gate (mandatoryLabels, the platform's taints, its labels' taints) against its lower-cased labels"
	reasonPool       = "machine pool references: a scaler's machinePool must name a pool of the top level"
	reasonDuplicate  = "duplicate machine pool names"
	reasonHostAccess = "hostAccess entries: addresses, ranges and ports as the firewall reads them"
	reasonExtraHosts = "a firecracker scaler's extraHosts entries: host:address as the guest's /etc/hosts reads them"
	reasonYAMLOnly   = "YAML values JSON has no form for (timestamps, binary, sets, ordered maps, symbols, .inf, .nan, a merge's undefined): an editor's view of them is not the orchestrator's"
	reasonRead       = "a file or folder Load cannot read, or a folder named like a drop-in: no YAML for a schema"
)

// beyondSchema lists each case Load refuses and the schema accepts, by
// reason, and each case whose files the schema cannot see as Load does;
// TestJSONSchemaHoldsToLoad checks that the list is exact.
var beyondSchema = map[string]string{
	"scalers null":                                               reasonMerge,
	"typo scaler":                                                reasonMerge,
	"gate label unreachable":                                     reasonGate,
	"mandatory platform label on linux":                          reasonGate,
	"machine pool unknown":                                       reasonPool,
	"machine pool empty reference":                               reasonPool,
	"drop-in machine pool reference":                             reasonPool,
	"seed review-a9c4907556ddb49e":                               reasonPool,
	"machine pools duplicate":                                    reasonDuplicate,
	"seed review-bd3a06f3c4dfce90":                               reasonDuplicate,
	"host access entries":                                        reasonHostAccess,
	"host access edges":                                          reasonHostAccess,
	"firecracker extra hosts":                                    reasonExtraHosts,
	"drop-in with set scalers":                                   reasonYAMLOnly,
	"undefined by a merge of a set":                              reasonYAMLOnly,
	"undefined main scalers by a merge of a set, with a drop-in": reasonYAMLOnly,
	"resources an ordered map":                                   reasonYAMLOnly,
	"main file missing":                                          reasonRead,
	"drop-in folder missing":                                     reasonRead,
	"drop-in folder named like a drop-in":                        reasonRead,
}

// schemaCase is a config as the schemas see it: each YAML file Load
// reads, as a JSON value, or why it has none.
type schemaCase struct {
	name      string
	fsys      fstest.MapFS
	main, dir string
	values    map[string]any    // each file's JSON value
	unseen    map[string]string // each file without one: the YAML error, or "YAML-only value"
}

// compiledSchemas are the committed schemas, compiled.
func compiledSchemas(t *testing.T) (main, dropIn *jsonschema.Schema) {
	c := jsonschema.NewCompiler()
	for _, name := range []string{schemaName, dropInName} {
		raw, err := os.ReadFile(schemaDir + name)
		require.NoError(t, err)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		require.NoError(t, err)
		require.NoError(t, c.AddResource(schemaBaseURL+name, doc))
	}
	main, err := c.Compile(schemaBaseURL + schemaName)
	require.NoError(t, err)
	dropIn, err = c.Compile(schemaBaseURL + dropInName)
	require.NoError(t, err)
	return main, dropIn
}

// TestJSONSchemaHoldsToLoad validates every file of every load case, and
// of the configs other tests generate, against the committed schemas (the
// main file against the main schema, each drop-in against the drop-in
// schema): whatever Load accepts, they accept; whatever Load refuses, they
// refuse, unless beyondSchema lists the case with the reason they cannot.
func TestJSONSchemaHoldsToLoad(t *testing.T) {
	t.Parallel()
	mainSchema, dropInSchema := compiledSchemas(t)
	listed := map[string]bool{}
	for _, c := range schemaCases(t) {
		t.Run(c.name, func(t *testing.T) {
			_, loadErr := Load(c.fsys, c.main, c.dir)
			var failures []string
			for _, file := range sortedKeys(c.values) {
				sch := dropInSchema
				if file == c.main {
					sch = mainSchema
				}
				if err := sch.Validate(c.values[file]); err != nil {
					failures = append(failures, file+": "+err.Error())
				}
			}
			reason, ok := beyondSchema[c.name]
			switch {
			case loadErr == nil && len(c.unseen) == 0:
				assert.Empty(t, failures, "Load accepts it")
				assert.False(t, ok, "listed, but the schema sees it as Load does")
			case loadErr == nil || len(failures) == 0 && len(c.unseen) == 0 || isReadError(loadErr):
				require.True(t, ok, "Load: %v; the schema: %v, unseen %v: list the case with the reason the schema cannot say it", loadErr, failures, c.unseen)
				listed[c.name] = true
			default:
				assert.False(t, ok, "listed as %q, but the schema refuses it too: %v %v", reason, failures, c.unseen)
			}
		})
	}
	for name := range beyondSchema {
		assert.True(t, listed[name], "%s is listed, and is no such case", name)
	}
}

// isReadError reports whether err is one of a file Load cannot read, not
// one of a config it refuses.
func isReadError(err error) bool {
	var e *Error
	return err != nil && !errors.As(err, &e)
}

func sortedKeys(m map[string]any) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// schemaCases are the load cases, with the JSON value of each file as the
// npm yaml parser gave it, and the configs other tests make (and the
// command's), with the value yamljs gives.
func schemaCases(t *testing.T) []schemaCase {
	var out []schemaCase
	for _, c := range readLoadCases(t) {
		sc := schemaCase{name: c.Name, fsys: c.fsOf(), main: c.Main, dir: c.Dir, values: map[string]any{}, unseen: map[string]string{}}
		for _, file := range readFiles(c.fsOf(), c.Main, c.Dir) {
			p, ok := c.Parsed[file]
			switch {
			case !ok:
				sc.unseen[file] = "not parsed"
			case p.Error != "":
				sc.unseen[file] = p.Error
			default:
				sc.see(t, file, p.Value)
			}
		}
		out = append(out, sc)
	}
	for name, src := range generatedConfigs(t) {
		out = append(out, yamlCase(t, name, fstest.MapFS{"s.yaml": {Data: src}}, "s.yaml", ""))
	}
	sample := fstest.MapFS{}
	for _, name := range []string{"sample/scalers.yaml", "sample/scalers.d/10-mirror.yaml"} {
		raw, err := os.ReadFile(schemaDir + name)
		require.NoError(t, err)
		sample[name] = &fstest.MapFile{Data: raw}
	}
	out = append(out, yamlCase(t, "kici-preflight's sample", sample, "sample/scalers.yaml", "sample/scalers.d"))
	return out
}

// see records the JSON value of file, or that it holds a YAML-only value.
func (sc *schemaCase) see(t *testing.T, file string, raw json.RawMessage) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	require.NoError(t, err)
	v, ok := plainJSON(v)
	if !ok {
		sc.unseen[file] = "YAML-only value"
		return
	}
	sc.values[file] = v
}

// plainJSON is v with the generator's -0 as a JSON number; false when v
// holds another value the generator had to tag ({"\u0000tag": ...}).
func plainJSON(v any) (any, bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if strings.HasPrefix(k, "\u0000") {
				if k == "\u0000num" && x == "-0" {
					return json.Number("-0"), true
				}
				return nil, false
			}
			px, ok := plainJSON(x)
			if !ok {
				return nil, false
			}
			v[k] = px
		}
	case []any:
		for i, x := range v {
			px, ok := plainJSON(x)
			if !ok {
				return nil, false
			}
			v[i] = px
		}
	}
	return v, true
}

// readFiles are the YAML files Load reads: the main file and the drop-ins.
func readFiles(fsys fstest.MapFS, main, dir string) []string {
	files := []string{main}
	if dir == "" {
		return files
	}
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return files
	}
	for _, n := range dropInNames(entries) {
		files = append(files, path.Join(dir, n))
	}
	return files
}

// yamlCase is a case of files read with yamljs.
func yamlCase(t *testing.T, name string, fsys fstest.MapFS, main, dir string) schemaCase {
	sc := schemaCase{name: name, fsys: fsys, main: main, dir: dir, values: map[string]any{}, unseen: map[string]string{}}
	for _, file := range readFiles(fsys, main, dir) {
		n, err := yamljs.Parse(fsys[file].Data)
		if err != nil {
			sc.unseen[file] = err.Error()
			continue
		}
		if v, ok := nodeJSON(n); ok {
			sc.values[file] = v
		} else {
			sc.unseen[file] = "YAML-only value"
		}
	}
	return sc
}

// nodeJSON is n as JavaScript's JSON sees it; false for a value JSON has
// no form for.
func nodeJSON(n *yamljs.Node) (any, bool) {
	switch n.Kind {
	case yamljs.Null:
		return nil, true
	case yamljs.Bool:
		return n.Bool, true
	case yamljs.String:
		return n.Str, true
	case yamljs.Number:
		if math.IsNaN(n.Num) || math.IsInf(n.Num, 0) {
			return nil, false
		}
		return json.Number(strconv.FormatFloat(n.Num, 'g', -1, 64)), true
	case yamljs.Seq:
		out := make([]any, len(n.Items))
		for i, item := range n.Items {
			v, ok := nodeJSON(item)
			if !ok {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	case yamljs.Map:
		out := map[string]any{}
		for _, p := range n.Pairs {
			v, ok := nodeJSON(p.Value)
			if !ok {
				return nil, false
			}
			out[p.Key] = v
		}
		return out, true
	}
	return nil, false
}

// generatedConfigs are the configs the other tests make, and the
// command's test configs and the fuzz targets' seeds.
func generatedConfigs(t *testing.T) map[string][]byte {
	fleet, err := os.ReadFile("testdata/edit/fleet.yaml")
	require.NoError(t, err)
	out := map[string][]byte{
		"richConfig": richConfig(20), "byItemConfig": byItemConfig(60), "benchConfig": benchConfig(30),
		"editConfig": editConfig(40), "plainFleet": plainFleet(t), "fleet.yaml": fleet,
	}
	commands, err := filepath.Glob(schemaDir + "testdata/*.yaml")
	require.NoError(t, err)
	for _, file := range commands {
		raw, err := os.ReadFile(file)
		require.NoError(t, err)
		out["kici-preflight "+filepath.Base(file)] = raw
	}
	seeds, err := filepath.Glob("testdata/fuzz/FuzzLoadByItem/*")
	require.NoError(t, err)
	for _, file := range seeds {
		raw, err := os.ReadFile(file)
		require.NoError(t, err)
		_, arg, _ := strings.Cut(string(raw), "\n[]byte(")
		src, err := strconv.Unquote(strings.TrimSuffix(strings.TrimSpace(arg), ")"))
		require.NoError(t, err, file)
		out["seed "+filepath.Base(file)] = []byte(src)
	}
	return out
}
