package scalerconfig

import (
	"encoding/json"
	"go/ast"
	goparser "go/parser"
	"go/token"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/internal/zod"
)

// goTable is one table of schema.go with its Go type, and a fresh value of
// that type with the keys bound to its fields.
type goTable struct {
	name string
	typ  reflect.Type
	keys func() (dst reflect.Value, ks keys)
}

func tableOf[T any](t table[T]) goTable {
	return goTable{
		name: reflect.TypeFor[T]().Name(),
		typ:  reflect.TypeFor[T](),
		keys: func() (reflect.Value, keys) {
			dst := new(T)
			return reflect.ValueOf(dst).Elem(), t(dst)
		},
	}
}

// goTables are every table of schema.go.
func goTables() []goTable {
	return []goTable{
		tableOf(func(c *Config) keys { return configKeys(c, nil) }),
		tableOf(defaultsKeys), tableOf(poolKeys), tableOf(firecrackerKeys), tableOf(scalerKeys),
		tableOf(warmPoolKeys), tableOf(platformKeys), tableOf(labelSetKeys), tableOf(networkPolicyKeys),
		tableOf(resourcesKeys), tableOf(specKeys), tableOf(capKeys), spec016,
	}
}

// spec016 is the table of Rules016's resource spec: ResourceSpec's keys,
// cpus first.
var spec016 = func() goTable {
	tb := tableOf(specKeys016)
	tb.name += "016"
	return tb
}()

// fieldOf returns the struct field of dst that the key's pointer points to.
func fieldOf(t *testing.T, dst reflect.Value, k key) reflect.StructField {
	t.Helper()
	p := reflect.ValueOf(k.to)
	if img, ok := k.to.(imageOf); ok {
		p = reflect.ValueOf(&img.ls.Image)
	}
	for i := range dst.NumField() {
		if dst.Field(i).Addr().Pointer() == p.Pointer() && dst.Field(i).Addr().Type() == p.Type() {
			return dst.Type().Field(i)
		}
	}
	require.Failf(t, "no field", "%s: %s points to no field of %s", dst.Type(), k.name, dst.Type())
	return reflect.StructField{}
}

// TestTablesJSONNames holds the Go types' JSON to the schema: each key's
// field has the key as its JSON name, omitted when empty exactly when the
// key is optional, and every field with a JSON name has a key.
func TestTablesJSONNames(t *testing.T) {
	t.Parallel()
	for _, tb := range goTables() {
		t.Run(tb.name, func(t *testing.T) {
			t.Parallel()
			dst, ks := tb.keys()
			named := map[string]bool{}
			for _, k := range ks.list() {
				f := fieldOf(t, dst, k)
				tag, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
				want := k.name
				if tb.typ == reflect.TypeFor[ResourceCap]() && k.name == "maxMemory" {
					want = "maxMemoryBytes" // the cap's transform reads it as bytes
				}
				assert.Equal(t, want, tag, "%s.%s", tb.name, f.Name)
				omitted := strings.Contains(opts, "omitzero") || strings.Contains(opts, "omitempty")
				assert.Equal(t, k.absent == optionalKey, omitted, "%s.%s: %s", tb.name, f.Name, f.Tag)
				named[f.Name] = true
			}
			for i := range tb.typ.NumField() {
				if f := tb.typ.Field(i); f.IsExported() && f.Tag.Get("json") != "-" && !named[f.Name] {
					assert.Fail(t, "a JSON name but no key", "%s.%s", tb.name, f.Name)
				}
			}
		})
	}
}

// TestTablesInTheSchema walks the schemas Load validates with, by each of
// the rules: every object in them is made from a table (it knows its Go
// type), with the keys of one of its type's tables in that table's order.
// Every table is in one of them.
func TestTablesInTheSchema(t *testing.T) {
	t.Parallel()
	byType := map[reflect.Type][]goTable{}
	for _, tb := range goTables() {
		byType[tb.typ] = append(byType[tb.typ], tb)
	}
	seen := map[string]bool{}
	var walk func(s *zod.Schema, at string)
	walk = func(s *zod.Schema, at string) {
		if s == nil {
			return
		}
		if s.Kind == "object" {
			tables, ok := byType[s.GoType]
			require.True(t, ok, "%s: an object with no table", at)
			var shape []string
			for _, f := range s.Shape {
				shape = append(shape, f.Key)
				walk(f.Schema, at+"."+f.Key)
			}
			var orders [][]string
			for _, tb := range tables {
				_, ks := tb.keys()
				var names []string
				for _, k := range ks.list() {
					names = append(names, k.name)
				}
				if slices.Equal(names, shape) {
					seen[tb.name] = true
				}
				orders = append(orders, names)
			}
			assert.Contains(t, orders, shape, at)
		}
		walk(s.Inner, at)
		for _, o := range s.Options {
			walk(o, at)
		}
	}
	for _, r := range everyRules() {
		walk(configSchema(reading{rules: r}), r.String()+": config")
	}
	assert.Len(t, seen, len(goTables()), "every table is in a schema")
}

// TestTablesDefaults holds the defaults of the three places that apply
// them to the tables: WithDefaults of an empty literal, Load of a file
// that leaves every defaulted key out, and the Effective methods of the
// enums. Each gives a key's field the value its table writes as JSON.
func TestTablesDefaults(t *testing.T) {
	t.Parallel()
	src := "version: 1\nfirecracker: {}\nscalers:\n  - name: s\n    type: container\n    maxAgents: 1\n    warmPool: {}\n" +
		"    labelSets:\n      - labels: [x]\n        image: i\n        networkPolicy: {}\n"
	cfg, err := Load(fstest.MapFS{"s.yaml": {Data: []byte(src)}}, "s.yaml", "")
	require.NoError(t, err)
	s := &cfg.Scalers[0]
	loaded := map[reflect.Type]keys{
		reflect.TypeFor[Config]():             configKeys(cfg, nil),
		reflect.TypeFor[FirecrackerNetwork](): firecrackerKeys(cfg.Firecracker),
		reflect.TypeFor[Scaler]():             scalerKeys(s),
		reflect.TypeFor[WarmPool]():           warmPoolKeys(s.WarmPool),
		reflect.TypeFor[LabelSet]():           labelSetKeys(&s.LabelSets[0]),
		reflect.TypeFor[NetworkPolicy]():      networkPolicyKeys(s.LabelSets[0].NetworkPolicy),
	}
	literal := Config{Firecracker: &FirecrackerNetwork{}, Scalers: []Scaler{{
		WarmPool: &WarmPool{}, LabelSets: []LabelSet{{NetworkPolicy: &NetworkPolicy{}}},
	}}}.WithDefaults()
	ls := &literal.Scalers[0].LabelSets[0]
	filled := map[reflect.Type]keys{
		reflect.TypeFor[Config]():             configKeys(&literal, nil),
		reflect.TypeFor[FirecrackerNetwork](): firecrackerKeys(literal.Firecracker),
		reflect.TypeFor[Scaler]():             scalerKeys(&literal.Scalers[0]),
		reflect.TypeFor[WarmPool]():           warmPoolKeys(literal.Scalers[0].WarmPool),
		reflect.TypeFor[LabelSet]():           labelSetKeys(ls),
		reflect.TypeFor[NetworkPolicy]():      networkPolicyKeys(ls.NetworkPolicy),
	}
	n := 0
	for _, tb := range goTables() {
		_, ks := tb.keys()
		for i, k := range ks.list() {
			if !k.absent.defaulted() {
				continue
			}
			n++
			require.Contains(t, loaded, tb.typ, "%s.%s has a default: the test must load one", tb.name, k.name)
			for what, got := range map[string]any{"Load": loaded[tb.typ][i].to, "WithDefaults": filled[tb.typ][i].to} {
				raw, err := json.Marshal(got)
				require.NoError(t, err)
				assert.Equal(t, string(k.absent), string(raw), "%s of %s.%s", what, tb.name, k.name)
			}
		}
	}
	assert.Equal(t, 24, n, "the schema's defaults")
	assert.Equal(t, PullIfNotPresent, ls.ImagePullPolicy)
	assert.Equal(t, ls.ImagePullPolicy, PullPolicy("").Effective())
	assert.Equal(t, literal.Scalers[0].Runtime, Runtime("").Effective())
	assert.Equal(t, PullNever, PullNever.Effective(), "a value is its own effective value")
	assert.Equal(t, RuntimePodman, RuntimePodman.Effective())
	// A value no enum lists (which validation keeps from decoding) is
	// kept, in memory of its own.
	assert.Equal(t, Runtime("rkt"), known("rkt", runtimes()))
}

// TestTablesDocs holds the docs to the defaults: the doc of each field
// whose key has a default names it ("default 8", `default "auto"`), and
// the package doc's list of defaults says what the tables say.
func TestTablesDocs(t *testing.T) {
	t.Parallel()
	docs := fieldDocs(t, "config.go")
	for _, tb := range goTables() {
		if tb.typ.PkgPath() != reflect.TypeFor[Config]().PkgPath() {
			continue
		}
		dst, ks := tb.keys()
		for _, k := range ks.list() {
			f := fieldOf(t, dst, k)
			doc := docs[tb.name+"."+f.Name]
			assert.NotEmpty(t, doc, "%s.%s has no doc", tb.name, f.Name)
			if k.absent.defaulted() {
				says := regexp.MustCompile(`(?i)\bdefault ` + regexp.QuoteMeta(string(k.absent)) + `([^\w.]|\.(\D|$)|$)`)
				assert.Regexp(t, says, doc, "%s.%s", tb.name, f.Name)
			}
		}
	}
	pkg, err := goparser.ParseFile(token.NewFileSet(), "doc.go", nil, goparser.ParseComments)
	require.NoError(t, err)
	text := strings.Join(strings.Fields(pkg.Doc.Text()), " ")
	list := regexp.MustCompile(`defaults applied \(([^)]*)\)`).FindStringSubmatch(text)
	require.NotNil(t, list, "doc.go lists the defaults")
	defaults := map[string]string{}
	for _, tb := range goTables() {
		_, ks := tb.keys()
		for _, k := range ks.list() {
			if k.absent.defaulted() {
				defaults[k.name] = strings.Trim(string(k.absent), `"`)
			}
		}
	}
	for _, pair := range strings.Split(list[1], ", ") {
		name, value, _ := strings.Cut(pair, " ")
		if name == "..." {
			continue
		}
		assert.Equal(t, defaults[name], value, "doc.go: %q", pair)
	}
}

// fieldDocs returns the doc comment of each field of the file's struct
// types, "Type.Field", its lines joined by spaces.
func fieldDocs(t *testing.T, file string) map[string]string {
	f, err := goparser.ParseFile(token.NewFileSet(), file, nil, goparser.ParseComments)
	require.NoError(t, err)
	docs := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok {
			return true
		}
		st, ok := ts.Type.(*ast.StructType)
		if !ok {
			return false
		}
		for _, fl := range st.Fields.List {
			text := fl.Doc.Text() + " " + fl.Comment.Text()
			for _, name := range fl.Names {
				docs[ts.Name.Name+"."+name.Name] = strings.Join(strings.Fields(text), " ")
			}
		}
		return false
	})
	return docs
}

// TestHostconfigDocs: the resources' fields, which hostconfig declares,
// are documented there.
func TestHostconfigDocs(t *testing.T) {
	t.Parallel()
	docs := fieldDocs(t, "../hostconfig/spawn.go")
	for _, tb := range []goTable{tableOf(resourcesKeys), tableOf(specKeys)} {
		dst, ks := tb.keys()
		for _, k := range ks.list() {
			f := fieldOf(t, dst, k)
			assert.NotEmpty(t, docs[tb.name+"."+f.Name], "hostconfig.%s.%s has no doc", tb.name, f.Name)
		}
	}
	assert.Equal(t, reflect.TypeFor[hostconfig.Resources](), tableOf(resourcesKeys).typ)
}
