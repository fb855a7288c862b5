package scalerconfig

import "encoding/binary"

// utf16Len counts the UTF-16 code units of the string node makes of UTF-8
// bytes (Buffer.toString("utf8"), and the StringDecoder fs/promises
// readFile decodes with, which agree at every split): the Encoding
// Standard's UTF-8 decoder, whose every maximal invalid part (a byte that
// starts no sequence, or the start of a sequence that a wrong byte, or
// the end, cuts short) is one U+FFFD. A character above U+FFFF (four
// bytes) is two units, any other character one. Bytes are written in
// pieces; end marks the end of the text.
type utf16Len struct {
	units int64
	need  int  // continuation bytes the sequence still needs
	lo    byte // the range of the next continuation byte
	hi    byte
	pair  bool // the sequence is a character above U+FFFF
}

// asciiMask has the high bit of each of eight bytes.
const asciiMask = 0x8080808080808080

// asciiRun is the length of the run of ASCII that starts p, counted
// eight bytes at a time. It reads nothing but p, a buffer of the read's
// own; the race detector, which would check each of its bytes, leaves it
// out, so that a file of 512 MiB is counted in a fraction of a second
// under go test -race too, not in ten.
//
//go:norace
func asciiRun(p []byte) int {
	n := 0
	for n+8 <= len(p) && binary.LittleEndian.Uint64(p[n:])&asciiMask == 0 {
		n += 8
	}
	return n
}

// write counts the units of p, which continues what was written before.
func (c *utf16Len) write(p []byte) {
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
			c.units += 1 + b2i(c.pair)
		}
	}
}

// lead counts a byte that comes where a character starts.
func (c *utf16Len) lead(b byte) {
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
		} else if b == 0xED {
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

// end counts a sequence the end of the text cuts short.
func (c *utf16Len) end() {
	if c.need > 0 {
		c.units++
		c.need = 0
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
