package scalerconfig

// The defaults of a Config built as a literal, from the tables of
// schema.go: the same defaults Load fills in for a file that leaves a key
// out.

// WithDefaults returns c with every empty defaulted field set to its
// default, as Load does for a file that leaves the field out. It copies
// what it changes: c is not modified.
func (c Config) WithDefaults() Config {
	if c.Version == 0 {
		c.Version = 1 // a literal in the schema, not a default: the one version there is
	}
	ks := configKeys(&c, nil)
	fill(&ks)
	scalers := make([]Scaler, len(c.Scalers))
	for i, s := range c.Scalers {
		scalers[i] = s.WithDefaults()
	}
	c.Scalers = scalers
	if c.Firecracker != nil {
		f := *c.Firecracker
		ks := firecrackerKeys(&f)
		fill(&ks)
		c.Firecracker = &f
	}
	return c
}

// WithDefaults returns s with every empty defaulted field set to its
// default, its warm pool's and label sets' too. s is not modified.
func (s Scaler) WithDefaults() Scaler {
	ks := scalerKeys(&s)
	fill(&ks)
	if s.WarmPool != nil {
		w := *s.WarmPool
		ks := warmPoolKeys(&w)
		fill(&ks)
		s.WarmPool = &w
	}
	sets := make([]LabelSet, len(s.LabelSets))
	for i, ls := range s.LabelSets {
		sets[i] = ls.WithDefaults()
	}
	s.LabelSets = sets
	return s
}

// WithDefaults returns ls with its pull policy's default applied and no
// nil labels. (Its network policy's one default, denyAll false, is Go's
// zero value.)
func (ls LabelSet) WithDefaults() LabelSet {
	ks := labelSetKeys(&ls)
	fill(&ks)
	if ls.Labels == nil {
		ls.Labels = []string{}
	}
	return ls
}

// fill sets each field of the keys that is empty (zero, nil) and has a
// default to the default. A key whose default is false needs nothing: a
// field of a key whose default is true is a *bool, so that false is not
// empty.
func fill(ks *keys) {
	for _, k := range ks.list() {
		if k.absent.defaulted() {
			fillDefault(k.to, k.absent)
		}
	}
}

// fillDefault sets the field p points to to def when it is empty. No field
// is left pointing into def, so that the keys' fields, and the value they
// belong to, need not move to the heap.
func fillDefault(p any, def presence) {
	switch p := p.(type) {
	case *int64:
		if *p == 0 {
			*p = int64(def.num())
		}
	case **float64:
		if *p == nil {
			f := def.num()
			*p = &f
		}
	case **string:
		if *p == nil {
			s := own(def.str()) // a copy: no field points into the table
			*p = &s
		}
	case **bool:
		if *p == nil {
			b := def == "true"
			*p = &b
		}
	case *Runtime:
		if *p == "" {
			*p = known(def.str(), runtimes())
		}
	case *PullPolicy:
		if *p == "" {
			*p = known(def.str(), pullPolicies())
		}
	case *[]string:
		if *p == nil {
			*p = []string{}
		}
	}
}
