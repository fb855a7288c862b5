package main

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/yamljs"
	"github.com/kicikit/kicikit/scalerconfig"
)

// TestSchemaFlag: -schema prints scaler-config.schema.json byte for byte,
// whatever else the command line says, and nothing on standard error.
func TestSchemaFlag(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile("scaler-config.schema.json")
	require.NoError(t, err)
	for _, args := range [][]string{{"-schema"}, {"-schema", "-format", "json"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			assert.Equal(t, 0, run(args, strings.NewReader(""), &stdout, &stderr))
			assert.Equal(t, want, stdout.Bytes())
			assert.Empty(t, stderr.String())
		})
	}
}

// rawBase is where the README's schema URLs point: this repository's
// files on its main branch.
const rawBase = "https://raw.githubusercontent.com/kicikit/kicikit/main/"

// readmeBlocks are README.md's fenced blocks of a language, each without
// its fences.
func readmeBlocks(t *testing.T, lang string) []string {
	raw, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	var blocks []string
	for _, m := range regexp.MustCompile("(?ms)^```"+lang+"\n(.*?)^```$").FindAllStringSubmatch(string(raw), -1) {
		blocks = append(blocks, m[1])
	}
	return blocks
}

// TestReadmeEditorSnippets checks the README's editor snippets: each
// yaml-language-server line names a schema file of this tree by its $id,
// and its example validates against that schema and loads (a drop-in's
// beside a main file); the VS Code setting is JSON that binds scalers.yaml
// to the main schema and the drop-ins to the drop-in schema.
func TestReadmeEditorSnippets(t *testing.T) {
	t.Parallel()
	schemas := map[string]*jsonschema.Schema{}
	c := jsonschema.NewCompiler()
	for _, name := range []string{"scaler-config.schema.json", "scaler-config-dropin.schema.json"} {
		raw, err := os.ReadFile(name)
		require.NoError(t, err)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		require.NoError(t, err)
		id := doc.(map[string]any)["$id"].(string)
		assert.Equal(t, rawBase+"cmd/kici-preflight/"+name, id, "the $id is the file's raw URL")
		require.NoError(t, c.AddResource(id, doc))
		schemas[id] = nil
	}
	for id := range schemas {
		schemas[id] = c.MustCompile(id)
	}
	bound := 0
	for _, block := range readmeBlocks(t, "yaml") {
		url, ok := strings.CutPrefix(strings.SplitN(block, "\n", 2)[0], "# yaml-language-server: $schema=")
		if !ok {
			continue
		}
		bound++
		require.Contains(t, schemas, url, "the README binds a schema of this tree")
		_, err := os.Stat("../../" + strings.TrimPrefix(url, rawBase))
		require.NoError(t, err, "the URL's path is in the tree")
		n, err := yamljs.Parse([]byte(block))
		require.NoError(t, err)
		var v any
		require.NoError(t, json.Unmarshal(mustJSON(t, n), &v))
		assert.NoError(t, schemas[url].Validate(v), "the README's example validates")
		fsys, dir := fstest.MapFS{"scalers.yaml": {Data: []byte(block)}}, ""
		if strings.Contains(url, "dropin") {
			fsys, dir = fstest.MapFS{"scalers.yaml": {Data: []byte("version: 1\nscalers: []\n")}, "scalers.d/a.yaml": {Data: []byte(block)}}, "scalers.d"
		}
		_, err = scalerconfig.Load(fsys, "scalers.yaml", dir)
		assert.NoError(t, err, "the README's example loads")
	}
	assert.Equal(t, 2, bound, "a line for the main file and one for a drop-in")
	checkVSCodeSetting(t, schemas)
}

// checkVSCodeSetting checks the README's yaml.schemas: JSON, the two
// schemas, each bound to the files it is for.
func checkVSCodeSetting(t *testing.T, schemas map[string]*jsonschema.Schema) {
	var setting map[string]map[string][]string
	n := 0
	for _, block := range readmeBlocks(t, "json") {
		if strings.Contains(block, "yaml.schemas") {
			n++
			require.NoError(t, json.Unmarshal([]byte(block), &setting), "the VS Code setting is JSON")
		}
	}
	require.Equal(t, 1, n, "one VS Code setting")
	globs := setting["yaml.schemas"]
	require.Len(t, globs, 2)
	for file, url := range map[string]string{
		"scalers.yaml": "scaler-config.schema.json", "ops/kici/scalers.yaml": "scaler-config.schema.json",
		"scalers.d/10-mirror.yaml": "scaler-config-dropin.schema.json", "ops/kici/scalers.d/a.yml": "scaler-config-dropin.schema.json",
	} {
		var got []string
		for u, gs := range globs {
			require.Contains(t, schemas, u)
			for _, g := range gs {
				if globMatch(g, file) {
					got = append(got, u)
					break
				}
			}
		}
		assert.Equal(t, []string{rawBase + "cmd/kici-preflight/" + url}, got, "%s is bound to its one schema", file)
	}
}

// globMatch reports whether a VS Code glob (*, and **/ for any folders)
// matches a workspace path.
func globMatch(glob, file string) bool {
	re := regexp.QuoteMeta(glob)
	re = strings.ReplaceAll(re, `\*\*/`, "(.*/)?")
	re = strings.ReplaceAll(re, `\*`, "[^/]*")
	return regexp.MustCompile("^" + re + "$").MatchString(file)
}

// mustJSON is the JSON of a YAML value of strings, numbers, lists and
// mappings.
func mustJSON(t *testing.T, n *yamljs.Node) []byte {
	var v func(n *yamljs.Node) any
	v = func(n *yamljs.Node) any {
		switch n.Kind {
		case yamljs.Map:
			m := map[string]any{}
			for _, p := range n.Pairs {
				m[p.Key] = v(p.Value)
			}
			return m
		case yamljs.Seq:
			var l []any
			for _, item := range n.Items {
				l = append(l, v(item))
			}
			return l
		case yamljs.Number:
			return n.Num
		case yamljs.String:
			return n.Str
		}
		require.FailNow(t, "a README example holds a value JSON has not", "%v", n.Kind)
		return nil
	}
	raw, err := json.Marshal(v(n))
	require.NoError(t, err)
	return raw
}
