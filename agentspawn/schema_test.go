package agentspawn

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kicikit/kicikit/internal/yamljs"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// createBodySchema is the request body of POST /containers/create in the
// Docker Engine API's own definition: openapi.yaml of the
// github.com/moby/moby/api module this one requires, read with
// internal/yamljs (the YAML as the npm yaml package reads it) and compiled
// with santhosh-tekuri/jsonschema as JSON Schema 2020-12, the dialect the
// file declares. It is read once per test process.
var createBodySchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/moby/moby/api").Output()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(strings.TrimSpace(string(out)), "openapi.yaml")
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	root, err := yamljs.Parse(src)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	const url = "file:///moby/api/openapi.json"
	if err := c.AddResource(url, jsValue(root)); err != nil {
		return nil, err
	}
	return c.Compile(url + "#/paths/~1containers~1create/post/requestBody/content/application~1json/schema")
})

// jsValue is a yamljs node as the value JSON decoding makes of it.
func jsValue(n *yamljs.Node) any {
	switch n.Kind {
	case yamljs.Bool:
		return n.Bool
	case yamljs.Number:
		return json.Number(strconv.FormatFloat(n.Num, 'g', -1, 64))
	case yamljs.String:
		return n.Str
	case yamljs.Seq:
		items := make([]any, len(n.Items))
		for i, item := range n.Items {
			items[i] = jsValue(item)
		}
		return items
	case yamljs.Map:
		m := make(map[string]any, len(n.Pairs))
		for _, p := range n.Pairs {
			m[p.Key] = jsValue(p.Value)
		}
		return m
	}
	return nil
}

// validateBody checks a create body against the Engine's schema, and that
// it holds no null, no empty array or object but EndpointsConfig's and
// Labels, and no empty string as a member's value but a Docker label's
// (kici-labels is "" for a label set whose labels are all "", as the
// orchestrator's is; an empty string inside a list comes from the config).
func validateBody(t testing.TB, body []byte) {
	t.Helper()
	sch, err := createBodySchema()
	require.NoError(t, err)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	require.NoError(t, err, "%s", body)
	require.NoError(t, sch.Validate(inst), "%s", body)
	checkMembers(t, "", inst, body)
}

// checkMembers walks v, the JSON at path, for the values validateBody
// refuses.
func checkMembers(t testing.TB, path string, v any, body []byte) {
	t.Helper()
	switch v := v.(type) {
	case nil:
		require.FailNow(t, "null in the body", "at %s in %s", path, body)
	case string:
		emptyAllowed := strings.HasPrefix(path, "/Labels/") || strings.Contains(path, "[")
		require.True(t, v != "" || emptyAllowed, "empty string at %s in %s", path, body)
	case []any:
		require.NotEmpty(t, v, "empty array at %s in %s", path, body)
		for _, e := range v {
			checkMembers(t, path+"[]", e, body)
		}
	case map[string]any:
		emptyAllowed := path == "/Labels" || path == "/NetworkingConfig/EndpointsConfig" || strings.HasPrefix(path, "/NetworkingConfig/EndpointsConfig/")
		require.True(t, len(v) > 0 || emptyAllowed, "empty object at %s in %s", path, body)
		for k, e := range v {
			checkMembers(t, path+"/"+k, e, body)
		}
	}
}

// plan is Plan, with the JSON of every Spawn it returns validated against
// the Engine's schema.
func plan(t testing.TB, r Request) (Spawn, error) {
	t.Helper()
	sp, err := Plan(r)
	if err == nil {
		body, jerr := json.Marshal(sp)
		require.NoError(t, jerr)
		validateBody(t, body)
	}
	return sp, err
}

// TestSchemaRefuses shows the schema is not a no-op: bodies the Engine's
// definition refuses are refused.
func TestSchemaRefuses(t *testing.T) {
	t.Parallel()
	sch, err := createBodySchema()
	require.NoError(t, err)
	for _, body := range []string{
		`{"Image": 7}`,
		`{"Env": "A=1"}`,
		`{"Cmd": [1]}`,
		`{"Labels": {"kici-managed": true}}`,
		`{"HostConfig": {"PidsLimit": "4096"}}`,
		`{"HostConfig": {"NanoCpus": 1.5}}`,
		`{"HostConfig": {"GroupAdd": [1990]}}`,
		`{"HostConfig": {"AutoRemove": "false"}}`,
		`{"HostConfig": {"Binds": "/a:/a"}}`,
		`{"NetworkingConfig": {"EndpointsConfig": {"kici-agent-net": []}}}`,
	} {
		t.Run(body, func(t *testing.T) {
			t.Parallel()
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(body))
			require.NoError(t, err)
			assert.Error(t, sch.Validate(inst))
		})
	}
}
