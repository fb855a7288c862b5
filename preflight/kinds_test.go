package preflight

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/scalerconfig"
)

// TestKinds holds the package against its table of kinds: each finding
// type of the package has one row, named after it, and the package doc's
// table lists the rows in order, with their codes, types and severities.
func TestKinds(t *testing.T) {
	t.Parallel()
	pkg := parsePackage(t)
	var rows, types []string
	for _, k := range Kinds() {
		rows = append(rows, k.Code+" ["+k.Name+"] "+k.Severity)
		types = append(types, k.Name)
		assert.Contains(t, []string{"warning", "error"}, k.Severity, k.Code)
		assert.True(t, strings.HasSuffix(k.Summary, ".") && strings.HasSuffix(k.Help, "."), "%s: a sentence each", k.Code)
	}
	assert.Equal(t, docTable(t, pkg), rows, "the package doc's table")
	assert.ElementsMatch(t, findingTypes(pkg), types, "a row for each type with a finding method")

	kinds := Kinds()
	kinds[0].Code = "changed"
	assert.Equal(t, CodeMovingTag, Kinds()[0].Code, "Kinds returns a copy")
}

// TestKindsCodes: each finding type's Code is its row's.
func TestKindsCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		f    Finding
	}{
		{"MovingTag", MovingTag{}}, {"OlderPin", OlderPin{}}, {"NeverPull", NeverPull{}}, {"FloatingTag", FloatingTag{}},
		{"InvalidImage", InvalidImage{}}, {"InvalidMemory", InvalidMemory{}}, {"InvalidLimit", InvalidLimit{}},
	}
	require.Len(t, tests, len(Kinds()))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			i := slices.IndexFunc(Kinds(), func(k Kind) bool { return k.Name == tt.name })
			require.GreaterOrEqual(t, i, 0)
			assert.Equal(t, Kinds()[i].Code, tt.f.Code())
		})
	}
}

// parsePackage parses the package's files, tests left out.
func parsePackage(t *testing.T) []*ast.File {
	t.Helper()
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var files []*ast.File
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		require.NoError(t, err)
		files = append(files, f)
	}
	return files
}

// docTable is the package doc's table of kinds, a row a line: its code,
// type and severity, each once.
func docTable(t *testing.T, files []*ast.File) []string {
	t.Helper()
	var rows []string
	for _, f := range files {
		if f.Doc == nil {
			continue
		}
		in := false
		for _, line := range strings.Split(f.Doc.Text(), "\n") {
			fields := strings.Fields(line)
			switch {
			case len(fields) == 3 && fields[0] == "code" && fields[1] == "type":
				in = true
			case in && strings.HasPrefix(line, "\t") && len(fields) == 3:
				rows = append(rows, strings.Join(fields, " "))
			default:
				in = false
			}
		}
	}
	require.NotEmpty(t, rows, "the package doc has a table of kinds")
	return rows
}

// findingTypes are the types with a finding method: the Finding types.
func findingTypes(files []*ast.File) []string {
	var types []string
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != "finding" {
				continue
			}
			if id, ok := fn.Recv.List[0].Type.(*ast.Ident); ok {
				types = append(types, id.Name)
			}
		}
	}
	return types
}

// orderConfig has findings of the defaults and of label sets with both
// image and resource findings, over two scalers.
const orderConfig = `version: 1
defaults:
  resources: {limits: {memory: 8GB}}
scalers:
  - name: a
    type: container
    maxAgents: 1
    labelSets:
      - labels: [one]
        image: kici-agent:latest
        resources: {limits: {memory: 0k}}
      - labels: [two]
        image: kici-agent:0.19.0
        imagePullPolicy: Never
        resources: {requests: {memory: 4GB}}
  - name: b
    type: bare-metal
    maxAgents: 1
    labelSets:
      - labels: [three]
        binaryPath: /opt/kici
        resources: {limits: {memory: 2 gigs}}
`

// TestCheckOrder: Check's one order, the defaults' findings first, then
// each label set's in config order, its image findings before its resource
// findings; CheckAgentImages's are Check's image findings, and
// CheckService's are Check's.
func TestCheckOrder(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"etc/kici/orchestrator.env": {Data: []byte("KICI_SCALER_CONFIG_PATH=/etc/kici/scalers.yaml\n")},
		"etc/kici/scalers.yaml":     {Data: []byte(orderConfig)},
	}
	loc := scalerconfig.Location{Path: "/etc/kici/scalers.yaml"}
	cfg, err := loc.Load(fsys)
	require.NoError(t, err)
	in := Input{Config: cfg, Location: loc, TargetVersion: "0.20.0"}
	type line struct {
		code          string
		scaler, label int
	}
	lines := func(findings []Finding) []line {
		var out []line
		for _, f := range findings {
			out = append(out, line{f.Code(), f.LabelSet().ScalerIndex, f.LabelSet().LabelSetIndex})
		}
		return out
	}
	all := Check(in)
	assert.Equal(t, []line{
		{CodeInvalidMemory, -1, -1},
		{CodeMovingTag, 0, 0}, {CodeInvalidLimit, 0, 0},
		{CodeOlderPin, 0, 1}, {CodeNeverPull, 0, 1}, {CodeInvalidMemory, 0, 1},
		{CodeInvalidMemory, 1, 0},
	}, lines(all))
	images := slices.DeleteFunc(slices.Clone(all), func(f Finding) bool {
		_, resource := f.(interface{ valueAt() scalerconfig.Pos })
		return resource
	})
	assert.Equal(t, images, CheckAgentImages(in))

	checked, ok := CheckService(ServiceInput{FS: fsys, EnvFile: "/etc/kici/orchestrator.env", TargetVersion: "0.20.0"}).(Checked)
	require.True(t, ok)
	assert.Equal(t, all, checked.Findings)
}

// TestValuePos: an image finding is about the image value, a resource
// finding about its resource value.
func TestValuePos(t *testing.T) {
	t.Parallel()
	cfg, err := scalerconfig.Load(fstest.MapFS{"s.yaml": {Data: []byte(orderConfig)}}, "s.yaml", "")
	require.NoError(t, err)
	var got []string
	for _, f := range Check(Input{Config: cfg, Location: scalerconfig.Location{Path: "s.yaml"}, TargetVersion: "0.20.0"}) {
		pos, end := ValuePos(f)
		got = append(got, f.Code()+" "+pos.String()+" "+end.String())
	}
	assert.Equal(t, []string{
		"invalid-memory s.yaml:3:32 ",
		"moving-tag s.yaml:10:16 s.yaml:10:33",
		"invalid-limit s.yaml:11:38 ",
		"older-pin s.yaml:13:16 s.yaml:13:33",
		"never-pull s.yaml:13:16 s.yaml:13:33",
		"invalid-memory s.yaml:15:40 ",
		"invalid-memory s.yaml:22:38 ",
	}, got)

	pos, end := ValuePos(MovingTag{})
	assert.False(t, pos.IsValid() || end.IsValid(), "a literal has no positions")
}

// TestPosition: a finding's Position is its value's, the image or a
// resource's, not its label set's image for every finding.
func TestPosition(t *testing.T) {
	t.Parallel()
	cfg, err := scalerconfig.Load(fstest.MapFS{"s.yaml": {Data: []byte(orderConfig)}}, "s.yaml", "")
	require.NoError(t, err)
	var got []string
	for _, f := range Check(Input{Config: cfg, Location: scalerconfig.Location{Path: "s.yaml"}, TargetVersion: "0.20.0"}) {
		got = append(got, f.Code()+" "+f.Position().String()+" (image "+f.LabelSet().ImagePos.String()+")")
		pos, _ := ValuePos(f)
		assert.Equal(t, pos, f.Position(), "ValuePos starts at Position")
	}
	assert.Equal(t, []string{
		"invalid-memory s.yaml:3:32 (image )",
		"moving-tag s.yaml:10:16 (image s.yaml:10:16)",
		"invalid-limit s.yaml:11:38 (image s.yaml:10:16)",
		"older-pin s.yaml:13:16 (image s.yaml:13:16)",
		"never-pull s.yaml:13:16 (image s.yaml:13:16)",
		"invalid-memory s.yaml:15:40 (image s.yaml:13:16)",
		"invalid-memory s.yaml:22:38 (image )",
	}, got)
	for _, f := range []Finding{MovingTag{}, InvalidMemory{}, InvalidLimit{}} {
		assert.False(t, f.Position().IsValid(), "a literal has no positions: %T", f)
	}
}
