package npmtarget

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// stringSlices returns every []string reachable from vs through pointers,
// interfaces, exported struct fields and slices of structs.
func stringSlices(vs ...any) []reflect.Value {
	var out []reflect.Value
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice:
			if v.Type().Elem().Kind() == reflect.String {
				out = append(out, v)
				return
			}
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	for _, v := range vs {
		walk(reflect.ValueOf(v))
	}
	return out
}

// contents returns a slice's elements up to its capacity: what an append to
// it may overwrite.
func contents(s reflect.Value) []string {
	full := s.Slice(0, s.Cap())
	out := make([]string, full.Len())
	for i := range out {
		out[i] = full.Index(i).String()
	}
	return out
}

// assertNoSharing writes into every element, up to its capacity, of each
// slice reachable from vs in turn, and checks that no other slice changes:
// no two of them share a backing array, so that neither changing one nor
// appending to it reaches another.
func assertNoSharing(t *testing.T, vs ...any) {
	t.Helper()
	all := stringSlices(vs...)
	before := make([][]string, len(all))
	for i, s := range all {
		before[i] = contents(s)
	}
	for i, s := range all {
		full := s.Slice(0, s.Cap())
		for j := 0; j < full.Len(); j++ {
			full.Index(j).SetString(fmt.Sprintf("changed by slice %d", i))
		}
		for k, other := range all {
			assert.True(t, k == i || slices.Equal(before[k], contents(other)), "changing slice %d %q changes slice %d %q", i, before[i], k, before[k])
		}
		for j := 0; j < full.Len(); j++ {
			full.Index(j).SetString(before[i][j])
		}
	}
}

// TestNoSharing runs every call that takes or returns a slice and checks
// that its results share no backing array with its inputs or with each
// other, on both routes of both platforms.
func TestNoSharing(t *testing.T) {
	t.Parallel()
	environ := func() []string { return []string{"PATH=/bin", "A=1", `Path=C:\w`} }
	for _, target := range []Target{posixCli, posixNpm, winCli, winCmd} {
		t.Run(target.Invocation.Cmd, func(t *testing.T) {
			t.Parallel()
			tg := target
			tg.Invocation.PreArgs = slices.Clone(target.Invocation.PreArgs)
			npmArgs := make([]string, 3, 10) // room to append into
			copy(npmArgs, []string{"install", "-g", "@kici-dev/orchestrator@0.20.0"})

			args := tg.Args(npmArgs...)
			assertNoSharing(t, &tg, npmArgs, args)

			env := environ()
			out := tg.Env(env)
			assertNoSharing(t, &tg, env, out)

			c, err := tg.Command(npmArgs...)
			assert.NoError(t, err)
			assertNoSharing(t, &tg, npmArgs, &c)

			env = environ()
			assertNoSharing(t, &c, env, c.Env(env))

			first, second := c.ExecCmd(env), c.ExecCmd(env)
			assertNoSharing(t, &c, env, first, second)

			s := SelfInstall{Target: tg, Version: "0.20.0"}
			sc, err := s.Command()
			assert.NoError(t, err)
			assertNoSharing(t, &s, s.NpmArgs(), &sc)
		})
	}
	t.Run("Resolve and PlanUpgrade", func(t *testing.T) {
		t.Parallel()
		spec := LaunchSpec{ExecPath: "/usr/bin/node", Args: make([]string, 1, 4)}
		spec.Args[0] = "/usr/lib/node_modules" + orchestratorEntry
		opts := Options{Exists: func(string) bool { return true }}
		r := Resolve(spec, "orchestrator", opts)
		assertNoSharing(t, &spec, &r)
		in := PlanUpgradeInput{Spec: &spec, Component: "orchestrator", Version: "0.20.0", Options: opts}
		p := PlanUpgrade(in)
		assertNoSharing(t, &in, &p)
	})
}

// TestAssertNoSharingSees checks the check: it reports two slices that
// share an array, through their elements or their spare capacity.
func TestAssertNoSharingSees(t *testing.T) {
	t.Parallel()
	backing := make([]string, 2, 4)
	for _, tt := range []struct {
		name string
		a, b []string
	}{
		{"the same elements", backing, backing[:1]},
		{"an append's room", backing[:1], backing[2:3]},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			inner := &testing.T{}
			assertNoSharing(inner, tt.a, tt.b)
			assert.True(t, inner.Failed())
		})
	}
}
