package jsstr

import (
	"encoding/binary"
	"unsafe"
)

// UTF16Len returns s.length in JavaScript: the UTF-16 code units of s.
// A character above U+FFFF is two units, any other one. s may hold a lone
// surrogate as its three WTF-8 bytes, one unit, as yamljs writes it. Any
// other invalid part counts as [UTF16Counter] counts it.
func UTF16Len(s string) int {
	c := UTF16Counter{wtf8: true}
	c.Add(unsafe.Slice(unsafe.StringData(s), len(s))) // read, never written
	return int(c.End())
}

// UTF16Counter counts the UTF-16 code units of the string node decodes
// from UTF-8 bytes: Buffer.toString("utf8"), and the StringDecoder that
// fs/promises readFile uses. Bytes come in pieces, split anywhere. Each
// maximal invalid part is one U+FFFD, as the Encoding Standard's decoder
// reads it. The zero UTF16Counter is ready; it allocates nothing.
type UTF16Counter struct {
	units int64
	need  int  // continuation bytes the sequence still needs
	lo    byte // the range of the next continuation byte
	hi    byte
	pair  bool // the sequence is a character above U+FFFF
	wtf8  bool // a surrogate's three bytes are one unit (UTF16Len)
}

// asciiMask has the high bit of each of eight bytes.
const asciiMask = 0x8080808080808080

// asciiRun is the length of the run of ASCII that starts p, counted
// eight bytes at a time. The race detector, which would check each byte,
// leaves it out: a file of 512 MiB is then counted in a fraction of a
// second under go test -race too, not in ten. It reads only p.
//
//go:norace
func asciiRun(p []byte) int {
	n := 0
	for n+8 <= len(p) && binary.LittleEndian.Uint64(p[n:])&asciiMask == 0 {
		n += 8
	}
	return n
}

// Add counts the units of p, which continues the bytes added before.
func (c *UTF16Counter) Add(p []byte) {
	for i := 0; i < len(p); {
		if c.need == 0 {
			n := asciiRun(p[i:])
			c.units += int64(n)
			i += n
			if i < len(p) {
				c.lead(p[i])
				i++
			}
			continue
		}
		b := p[i]
		if b < c.lo || b > c.hi {
			c.units++ // the cut sequence; b starts anew
			c.need = 0
			continue
		}
		i++
		c.lo, c.hi = 0x80, 0xBF
		if c.need--; c.need == 0 {
			c.units++
			if c.pair {
				c.units++
			}
		}
	}
}

// lead counts a byte that comes where a character starts.
func (c *UTF16Counter) lead(b byte) {
	c.lo, c.hi, c.pair = 0x80, 0xBF, false
	switch {
	case b < 0x80:
		c.units++
	case 0xC2 <= b && b <= 0xDF:
		c.need = 1
	case 0xE0 <= b && b <= 0xEF:
		c.need = 2
		if b == 0xE0 {
			c.lo = 0xA0 // no overlong form
		} else if b == 0xED && !c.wtf8 {
			c.hi = 0x9F // no surrogate
		}
	case 0xF0 <= b && b <= 0xF4:
		c.need, c.pair = 3, true
		if b == 0xF0 {
			c.lo = 0x90
		} else if b == 0xF4 {
			c.hi = 0x8F // nothing above U+10FFFF
		}
	default:
		c.units++ // 0x80 to 0xC1, 0xF5 to 0xFF start nothing
	}
}

// Units returns the units counted so far. A sequence the bytes have not
// finished yet is not counted: it is at least one more unit.
func (c *UTF16Counter) Units() int64 { return c.units }

// End counts a sequence that the end of the bytes cuts short. It returns
// the units of the whole text.
func (c *UTF16Counter) End() int64 {
	if c.need > 0 {
		c.units++
		c.need = 0
	}
	return c.units
}
