package main

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kicikit/kicikit/preflight"
	"github.com/kicikit/kicikit/scalerconfig"
)

// Fixes: -diff and -write make the fixes of the config's problems that
// leave no choice (scalerconfig.Problem.Fix: a flat resources block nested
// under limits, a scaler's platform declared), for a target of 0.16.0 or
// later, whose rules alone give problems fixes. The config is then read
// again from the fixed bytes, and the findings and pins are the fixed
// config's: one -write makes a config the target loads, and pins it.

// maxFixRounds bounds the rounds of fixes. A flat block in a label set
// stops its scaler's rules, so the scaler's platform labels show only once
// the block is nested: a second round fixes them, and a third finds none.
const maxFixRounds = 3

// fix makes the fixes of the problems refused holds, when -diff or -write
// asks, a round at a time, reading the config again after each; it
// returns the findings or problems of the config as the fixes leave it,
// and keeps the problems it fixed (c.fixed).
func (c *check) fix(findings []preflight.Finding, refused *scalerconfig.Error) ([]preflight.Finding, *scalerconfig.Error, error) {
	if !c.opts.diff && !c.opts.write {
		return findings, refused, nil
	}
	if c.unfixable == nil {
		c.unfixable = map[string]bool{}
	}
	for round := 0; refused != nil && round < maxFixRounds; round++ {
		byFile, order := fixesByFile(refused.Problems, c.unfixable)
		var made, failed []scalerconfig.Fix
		for _, name := range order {
			m, f := c.fixFile(name, byFile[name])
			made, failed = append(made, m...), append(failed, f...)
		}
		for _, p := range refused.Problems {
			switch {
			case p.Fix == nil:
			case slices.ContainsFunc(made, sameFix(*p.Fix)):
				c.fixed = append(c.fixed, p)
			case slices.ContainsFunc(failed, sameFix(*p.Fix)):
				c.unfixable[problemKey(p)] = true
			}
		}
		if made == nil {
			break
		}
		var err error
		if findings, refused, err = c.scan(); err != nil {
			return nil, nil, err
		}
	}
	return findings, refused, nil
}

// problemKey names a problem with a fix in a way that a fix made
// elsewhere in its file leaves as it is: its file, its path and the kind of
// its fix. (A fix's position moves when a fix above it adds a line.)
func problemKey(p scalerconfig.Problem) string {
	return fmt.Sprintf("%s\x00%s\x00%t", p.File, p.Path, p.Fix.Platform != nil)
}

// fixesByFile are the problems' fixes, each once, by the file that holds
// it, and the files in the order the problems name them; the problems
// whose fixes were refused in an earlier round (refused, by problemKey)
// are left out.
func fixesByFile(problems []scalerconfig.Problem, refused map[string]bool) (map[string][]scalerconfig.Fix, []string) {
	byFile := map[string][]scalerconfig.Fix{}
	var order []string
	for _, p := range problems {
		if p.Fix == nil || slices.ContainsFunc(byFile[p.Fix.Pos.File], sameFix(*p.Fix)) || refused[problemKey(p)] {
			continue
		}
		if _, seen := byFile[p.Fix.Pos.File]; !seen {
			order = append(order, p.Fix.Pos.File)
		}
		byFile[p.Fix.Pos.File] = append(byFile[p.Fix.Pos.File], *p.Fix)
	}
	return byFile, order
}

// fixFile makes the fixes of the file name, those ApplyFixes refuses left
// out, each with its reason; the next scan reads the fixed bytes. It
// returns the fixes made, and those refused.
func (c *check) fixFile(name string, fixes []scalerconfig.Fix) (made, refused []scalerconfig.Fix) {
	if c.pins == nil {
		c.pins = &pins{keepNew: true}
	}
	if c.in.fsys.fixed == nil {
		c.in.fsys.fixed = map[string][]byte{}
	}
	src, shown := c.in.fsys.files[name], c.in.name(name)
	out, reps, err := scalerconfig.ApplyFixes(src, fixes)
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			var fe *scalerconfig.FixError
			if errors.As(e, &fe) {
				c.pins.refuseFix(fmt.Sprintf("%s:%d:%d: not fixed: %v", escape(shown), fe.Fix.Pos.Line, fe.Fix.Pos.Column, escape(fe.Err.Error())))
				refused = append(refused, fe.Fix)
				fixes = slices.DeleteFunc(fixes, sameFix(fe.Fix))
			}
		}
		out, reps, err = scalerconfig.ApplyFixes(src, fixes)
	}
	if err != nil {
		c.pins.refuseFix(escape(shown) + ": not fixed: " + escape(err.Error()))
		return nil, append(refused, fixes...)
	}
	if len(reps) == 0 || !c.pins.fileOf(name, shown, src).change(reps, out) {
		return nil, refused
	}
	c.pins.fixes += len(reps)
	c.in.fsys.fixed[name] = out
	return fixes, refused
}

// sameFix reports whether a fix is f: the same file and place, and the
// same platform, if any.
func sameFix(f scalerconfig.Fix) func(scalerconfig.Fix) bool {
	return func(g scalerconfig.Fix) bool {
		return f.Pos.File == g.Pos.File && f.Pos.Line == g.Pos.Line && f.Pos.Column == g.Pos.Column &&
			(f.Platform == nil) == (g.Platform == nil) && (f.Platform == nil || *f.Platform == *g.Platform)
	}
}

// refuseFix records a fix that could not be made.
func (p *pins) refuseFix(line string) {
	p.refused = append(p.refused, line)
	p.unfixed++
}
