package isotime

import (
	"regexp"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	t.Parallel()
	zone := func(hours, minutes int) *time.Location {
		return time.FixedZone("", (hours*60+minutes)*60)
	}
	tests := []struct {
		in   string
		want time.Time
	}{
		{"2014-11-14T03:02:45Z", time.Date(2014, 11, 14, 3, 2, 45, 0, time.UTC)},
		{"2014-11-14T03:02:45z", time.Date(2014, 11, 14, 3, 2, 45, 0, time.UTC)},
		{"2014-11-14t03:02:45Z", time.Date(2014, 11, 14, 3, 2, 45, 0, time.UTC)},
		{"2014-11-14 03:02:45Z", time.Date(2014, 11, 14, 3, 2, 45, 0, time.UTC)},
		{"2018-01-30T16:16:00.000-08:00", time.Date(2018, 1, 30, 16, 16, 0, 0, zone(-8, 0))},
		{"2018-01-25T14:51:37.084-07:00", time.Date(2018, 1, 25, 14, 51, 37, 84e6, zone(-7, 0))},
		{"2024-03-01T05:30:00+05:30", time.Date(2024, 3, 1, 5, 30, 0, 0, zone(5, 30))},
		{"2024-03-01T05:30:00-09:30", time.Date(2024, 3, 1, 5, 30, 0, 0, zone(-9, -30))},
		{"2024-03-01T12:00:00+0000", time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)},
		{"2024-03-01T12:00:00-0800", time.Date(2024, 3, 1, 12, 0, 0, 0, zone(-8, 0))},
		{"2024-03-01T12:00:00+0545", time.Date(2024, 3, 1, 12, 0, 0, 0, zone(5, 45))},
		{"2024-03-01T12:00:00+00", time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)},
		{"2024-03-01T12:00:00-03", time.Date(2024, 3, 1, 12, 0, 0, 0, zone(-3, 0))},
		{"2024-03-01T12:00:00+14:00", time.Date(2024, 3, 1, 12, 0, 0, 0, zone(14, 0))},
		{"2024-03-01T12:00:00-23:59", time.Date(2024, 3, 1, 12, 0, 0, 0, zone(-23, -59))},
		{"2024-03-01T12:00:00-00:00", time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)},
		{"2024-03-01T12:00:00.5Z", time.Date(2024, 3, 1, 12, 0, 0, 5e8, time.UTC)},
		{"2024-03-01T12:00:00,5Z", time.Date(2024, 3, 1, 12, 0, 0, 5e8, time.UTC)},
		{"2024-03-01T12:00:00.12Z", time.Date(2024, 3, 1, 12, 0, 0, 12e7, time.UTC)},
		{"2024-03-01T12:00:00.123456+05:30", time.Date(2024, 3, 1, 12, 0, 0, 123456000, zone(5, 30))},
		{"2024-03-01T12:00:00.123456789-0700", time.Date(2024, 3, 1, 12, 0, 0, 123456789, zone(-7, 0))},
		{"2024-03-01T12:00:00.000000001+00", time.Date(2024, 3, 1, 12, 0, 0, 1, time.UTC)},
		// Past nanoseconds, digits are dropped (not rounded), as time.Parse does.
		{"2024-03-01T12:00:00.9999999999Z", time.Date(2024, 3, 1, 12, 0, 0, 999999999, time.UTC)},
		{"2024-03-01T12:00:00.123456789123456789123456789Z", time.Date(2024, 3, 1, 12, 0, 0, 123456789, time.UTC)},
		{"2024-02-29T23:59:59Z", time.Date(2024, 2, 29, 23, 59, 59, 0, time.UTC)},
		{"2000-02-29T00:00:00Z", time.Date(2000, 2, 29, 0, 0, 0, 0, time.UTC)},
		{"0001-01-01T00:00:00Z", time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"9999-12-31T23:59:59.999999999-23:59", time.Date(9999, 12, 31, 23, 59, 59, 999999999, zone(-23, -59))},
	}
	for _, tt := range tests {
		got, err := Parse([]byte(tt.in))
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		_, gotOff := got.Zone()
		_, wantOff := tt.want.Zone()
		if !got.Equal(tt.want) || gotOff != wantOff {
			t.Errorf("Parse(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// rejectedTimes are values Parse must refuse.
var rejectedTimes = []string{
	"",
	"garbage",
	"2024",
	"2024-03-01",
	"2024-03-01T12:00Z",
	"2024-03-01T12:00:00",            // no zone
	"2024-03-01T12:00:00.5",          // no zone after a fraction
	"2024-03-01T12:00:00.Z",          // empty fraction
	"2024-03-01T12:00:00,Z",          // empty fraction
	"2024-03-01T12:00:00..5Z",        // two dots
	"2023-02-29T12:00:00Z",           // not a leap year
	"2023-02-30T12:00:00Z",           // no such day
	"1900-02-29T12:00:00Z",           // century, not a leap year
	"2023-04-31T12:00:00Z",           // April has 30 days
	"2023-00-10T12:00:00Z",           // month 0
	"2023-13-10T12:00:00Z",           // month 13
	"2023-01-00T12:00:00Z",           // day 0
	"2023-01-32T12:00:00Z",           // day 32
	"2023-01-01T24:00:00Z",           // hour 24
	"2023-01-01T12:60:00Z",           // minute 60
	"2023-01-01T12:00:60Z",           // leap second: time.Parse refuses it too
	"2023-01-01T12:00:00+24:00",      // offset hour 24
	"2023-01-01T12:00:00+05:60",      // offset minute 60
	"2023-01-01T12:00:00+5:30",       // one-digit offset hour
	"2023-01-01T12:00:00+05:3",       // one-digit offset minute
	"2023-01-01T12:00:00+053",        // three-digit offset
	"2023-01-01T12:00:00+05:30:00",   // offset with seconds
	"2023-01-01T12:00:00+05-30",      // wrong offset separator
	"2023-01-01T12:00:00 +05:30",     // space before the offset
	"2023-01-01T12:00:00Z ",          // trailing space
	" 2023-01-01T12:00:00Z",          // leading space
	"2023-01-01T12:00:00ZZ",          // two zones
	"2023-01-01T12:00:00UTC",         // zone name
	"2023-01-01T12:00:00GMT+1",       // zone name
	"2023-01-01X12:00:00Z",           // bad separator
	"2023/01/01T12:00:00Z",           // bad date separator
	"2023-01-01T12.00.00Z",           // bad time separator
	"2023-1-01T12:00:00Z",            // one-digit month
	"2023-01-1T12:00:00Z",            // one-digit day
	"+2023-01-01T12:00:00Z",          // signed year
	"2023-01-01T12:00:00+-5:00",      // two signs
	"2023-01-01T-1:00:00Z",           // negative hour
	"２０２３-01-01T12:00:00Z",           // full-width digits
	"2023-01-01T12:00:00.1a2Z",       // letter in the fraction
	"1700000000",                     // Unix seconds
	"Fri, 01 Mar 2024 12:00:00 GMT",  // HTTP date
	"2023-01-01T12:00:00\x00Z",       // NUL byte
	"2023-01-01T12:00:00+0\x005:30",  // NUL byte in the offset
	"2023-01-01T12:00:00.5+05:30abc", // junk after the offset
}

func TestParseRejects(t *testing.T) {
	t.Parallel()
	for _, in := range rejectedTimes {
		if got, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", in, got)
		}
	}
}

// strictRFC3339 is RFC 3339's grammar for a date and time, stricter than
// the standard library, which takes one-digit hours and an offset of +24:00.
var strictRFC3339 = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$`)

// FuzzParse checks that Parse never panics, that whatever it accepts
// survives a trip through RFC 3339, and that it agrees with time.Parse on
// every value that is strictly RFC 3339.
func FuzzParse(f *testing.F) {
	for _, s := range rejectedTimes {
		f.Add(s)
	}
	for _, s := range []string{
		"2014-11-14T03:02:45Z",
		"2018-01-25T14:51:37.084-07:00",
		"2024-03-01T05:30:00+05:30",
		"2024-03-01T12:00:00+0000",
		"2024-03-01T12:00:00-03",
		"2024-03-01T12:00:00,123456789123Z",
		"0000-01-01T00:00:00+23:59",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Parse([]byte(s))
		if err == nil {
			out := got.Format(time.RFC3339Nano)
			again, err := Parse([]byte(out))
			if err != nil {
				t.Fatalf("Parse(%q) = %s, which Parse rejects: %v", s, out, err)
			}
			if !again.Equal(got) {
				t.Fatalf("Parse(%q) = %s, which parses back as %s", s, out, again.Format(time.RFC3339Nano))
			}
		}
		if std, stdErr := time.Parse(time.RFC3339Nano, s); stdErr == nil && strictRFC3339.MatchString(s) {
			if err != nil {
				t.Fatalf("time.Parse accepts %q as %v, Parse rejects it: %v", s, std, err)
			}
			if !got.Equal(std) {
				t.Fatalf("Parse(%q) = %v, time.Parse gives %v", s, got, std)
			}
		}
	})
}
