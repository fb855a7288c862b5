package yamljs

// joined is a string made by appending pieces to it, as yaml makes a
// comment with `comment += sep + cb`, in time linear in its length:
// JavaScript concatenates strings as ropes, but Go copies the whole string
// at each +=, which made a few hundred thousand comment lines take minutes.
// While it is one piece it is that piece, a slice of the text, with no
// copy; from the second piece on, the pieces go to a buffer.
//
// The zero joined is the empty string.
type joined struct {
	s   string // the string while it is one piece
	buf []byte // the string from its second piece on; nil before
}

// add appends t.
func (j *joined) add(t string) {
	switch {
	case t == "":
	case j.buf == nil && j.s == "":
		j.s = t
	default:
		j.spill(len(t))
		j.buf = append(j.buf, t...)
	}
}

// addJoined appends what k holds.
func (j *joined) addJoined(k *joined) {
	if k.buf == nil {
		j.add(k.s)
		return
	}
	if len(k.buf) > 0 {
		j.spill(len(k.buf))
		j.buf = append(j.buf, k.buf...)
	}
}

// spill moves j to its buffer, when it is not there yet, with room for n
// more bytes.
func (j *joined) spill(n int) {
	if j.buf == nil {
		j.buf = append(make([]byte, 0, 2*(len(j.s)+n)), j.s...)
		j.s = ""
	}
}

// empty reports whether j is "".
func (j *joined) empty() bool { return j.s == "" && len(j.buf) == 0 }

// reset makes j "" again, keeping its buffer.
func (j *joined) reset() {
	j.s = ""
	if j.buf != nil {
		j.buf = j.buf[:0]
	}
}

// String returns the string.
func (j *joined) String() string {
	if j.buf != nil {
		return string(j.buf)
	}
	return j.s
}
