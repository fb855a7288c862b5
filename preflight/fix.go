package preflight

import (
	"github.com/kicikit/kicikit/imageref"
	"github.com/kicikit/kicikit/scalerconfig"
)

// Replacement returns the image the finding advises: the repository pinned
// to the target release, "repository:target", as the message prints it.
//
// It reports false when there is no usable target; the message then asks
// for "<version>". It reports false too when that image would not be a
// valid reference: a repository Docker refuses, or a target whose suffix no
// tag can hold.
//
// A digest is not kept: it would outweigh the tag, so the pin would change
// nothing.
func (f MovingTag) Replacement() (string, bool) { return f.replacement(f.Target) }

// Replacement returns the image the finding advises, as
// [MovingTag.Replacement] does: "repository:target".
func (f OlderPin) Replacement() (string, bool) { return f.replacement(f.Target) }

// Replacement returns the image the finding advises, as
// [MovingTag.Replacement] does: "repository:target". Each host must still
// pull it before an agent spawns from it, as the message says.
func (f NeverPull) Replacement() (string, bool) { return f.replacement(f.Target) }

// Replacement returns the image the finding advises, as
// [MovingTag.Replacement] does: "repository:target". The message's other
// advice, a digest, names no one image.
func (f FloatingTag) Replacement() (string, bool) { return f.replacement(f.Target) }

// Replacement reports false: only a person can tell what an invalid image
// was meant to be.
func (InvalidImage) Replacement() (string, bool) { return "", false }

func (s Site) replacement(target string) (string, bool) {
	if target == "" {
		return "", false
	}
	image := s.repository() + ":" + target
	if _, err := imageref.Parse(image); err != nil {
		return "", false
	}
	return image, true
}

// Fix returns the edit that applies f's replacement image to the file that
// declares its label set. The edit is for [scalerconfig.EditImages]: the
// label set's [scalerconfig.LabelSet.ImageEdit] with the new image. It
// reports false when f has no replacement ([Finding.Replacement]). It does
// so too when its label set has no image position, as in a config built as
// a literal.
func Fix(f Finding) (scalerconfig.ImageEdit, bool) {
	image, ok := f.Replacement()
	s := f.LabelSet()
	if !ok || !s.ImagePos.IsValid() || !s.ImageEnd.IsValid() {
		return scalerconfig.ImageEdit{}, false
	}
	e := scalerconfig.ImageEdit{Pos: s.ImagePos, End: s.ImageEnd}
	if s.edit.Pos == s.ImagePos && s.edit.End == s.ImageEnd {
		e = s.edit // the loaded label set's own, which EditImages plans without a parse
	}
	e.Image = image
	return e, true
}
