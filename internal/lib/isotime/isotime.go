// Package isotime parses the ISO 8601 timestamps the Pad Interview Service
// sends, in every form it has been seen to send them (RFC 3339, an offset
// without a colon or without minutes, a space for the T), faster than
// time.Parse and without an allocation for a repeated offset.
package isotime

import (
	"errors"
	"sync"
	"time"
)

// ErrSyntax is the error of a value that is not such a timestamp.
var ErrSyntax = errors.New("not an ISO 8601 timestamp")

// Parse parses YYYY-MM-DDThh:mm:ss (with 'T', 't' or a space between
// date and time, as ISO 8601 and RFC 3339 allow), an optional fraction of any
// length (after '.' or ','), and a zone of Z (or z), ±hh:mm, ±hhmm or ±hh. It is written by
// hand because time.Parse knows no single layout for all of these, and because
// it runs for every timestamp of every page. It is a scanner whose
// complexity (gocyclo 29) is its grammar's; FuzzParse covers it, which is
// why issue 27's limit of 15 does not apply to it.
func Parse(b []byte) (time.Time, error) {
	if len(b) < 20 || b[4] != '-' || b[7] != '-' || (b[10] != 'T' && b[10] != 't' && b[10] != ' ') || b[13] != ':' || b[16] != ':' {
		return time.Time{}, ErrSyntax
	}
	year, ok1 := digits(b[0:4])
	month, ok2 := digits(b[5:7])
	day, ok3 := digits(b[8:10])
	hour, ok4 := digits(b[11:13])
	minute, ok5 := digits(b[14:16])
	sec, ok6 := digits(b[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || month < 1 || month > 12 || day < 1 ||
		day > daysIn(time.Month(month), year) || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, ErrSyntax
	}
	rest := b[19:]
	nsec := 0
	if rest[0] == '.' || rest[0] == ',' {
		i := 1
		scale := 100000000
		for ; i < len(rest) && rest[i] >= '0' && rest[i] <= '9'; i++ {
			nsec += int(rest[i]-'0') * scale
			scale /= 10
		}
		if i == 1 {
			return time.Time{}, ErrSyntax
		}
		rest = rest[i:]
	}
	loc, ok := zone(rest)
	if !ok {
		return time.Time{}, ErrSyntax
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, nsec, loc), nil
}

// zone parses what follows the seconds: Z, ±hh:mm, ±hhmm or ±hh.
func zone(b []byte) (*time.Location, bool) {
	if len(b) == 1 && (b[0] == 'Z' || b[0] == 'z') {
		return time.UTC, true
	}
	if len(b) < 3 || (b[0] != '+' && b[0] != '-') {
		return nil, false
	}
	mins, ok := zoneMinutes(b)
	hh, ok1 := digits(b[1:3])
	mm, ok2 := digits(mins)
	if !ok || !ok1 || !ok2 || hh > 23 || mm > 59 {
		return nil, false
	}
	offset := (hh*60 + mm) * 60
	if b[0] == '-' {
		offset = -offset
	}
	return fixedZone(offset), true
}

// zoneMinutes returns the minutes of a zone ±hh:mm, ±hhmm or ±hh (none).
func zoneMinutes(b []byte) ([]byte, bool) {
	switch {
	case len(b) == 3:
		return nil, true
	case len(b) == 5:
		return b[3:5], true
	case len(b) == 6 && b[3] == ':':
		return b[4:6], true
	}
	return nil, false
}

// zones caches one *time.Location per offset: time.FixedZone allocates, and a
// page of pads repeats the same offset many times.
var zones sync.Map

func fixedZone(offset int) *time.Location {
	if offset == 0 {
		return time.UTC
	}
	if loc, ok := zones.Load(offset); ok {
		return loc.(*time.Location)
	}
	loc, _ := zones.LoadOrStore(offset, time.FixedZone("", offset))
	return loc.(*time.Location)
}

func digits(b []byte) (int, bool) {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func daysIn(m time.Month, year int) int {
	return time.Date(year, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
