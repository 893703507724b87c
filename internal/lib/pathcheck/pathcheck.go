// Package pathcheck checks the URLs padapi sends to: the base URL a client
// is made with (BaseURL) and the API path a caller gives Client.Do (Check):
// the pipeline appends it to the base URL as it is, so a path that could
// leave the base URL or read as another path to a server is refused.
package pathcheck

import (
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/padinterview/padapi/internal/lib/jsonerr"
)

// Check says why a Do path is refused, or "" when it is not. It refuses a
// path that would leave the base URL, hide a query, or read as another path
// to a server: a server, a proxy or a framework in front of the
// service may undo its escapes once, twice or more before it resolves it.
// So the path is unescaped until it stops changing (at most maxUnescape
// times), and every form it takes on the way must be free of dot segments
// (".", "..", "...", ". ."), escaped slashes and backslashes, NUL and other
// control characters, ';' parameters ("..;", Tomcat's path parameters) and
// bytes that are not UTF-8 (an overlong "%c0%ae" is a dot to some decoders).
func Check(p string) string {
	if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "?#\\") || strings.Contains(p, "//") {
		return "path " + jsonerr.Short([]byte(p)) + ": need an escaped path starting with / and without a query"
	}
	for _, r := range p {
		if r < 0x21 || r == 0x7f {
			return "path has a space or control character"
		}
	}
	slashes := strings.Count(p, "/")
	for form, round := p, 0; ; round++ {
		if round == maxUnescape {
			return "path " + jsonerr.Short([]byte(p)) + ": escaped more than " + strconv.Itoa(maxUnescape) + " times over"
		}
		if why := pathFormProblem(form, slashes); why != "" {
			return "path " + jsonerr.Short([]byte(p)) + ": " + why
		}
		u, err := url.PathUnescape(form)
		if err != nil {
			return "path " + jsonerr.Short([]byte(p)) + ": has a bad escape, once unescaped " + strconv.Itoa(round) + " times"
		}
		if u == form {
			return ""
		}
		form = u
	}
}

// maxUnescape bounds how many times Check unescapes a path.
const maxUnescape = 8

// pathFormProblem says what is wrong with one form of a Do path (the path
// as given, or unescaped one or more times), or "" when nothing is. slashes
// is the number of slashes of the path as given: more in a form is an
// escaped slash.
func pathFormProblem(form string, slashes int) string {
	switch {
	case !utf8.ValidString(form):
		return "has bytes that are not UTF-8 (an overlong or broken sequence)"
	case strings.ContainsFunc(form, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return "has a NUL or another control character"
	case strings.ContainsRune(form, ';'):
		return "has a ';' parameter"
	case strings.ContainsRune(form, '\\') || strings.Count(form, "/") != slashes:
		return "has an escaped slash or a backslash"
	}
	for _, seg := range strings.Split(form, "/") {
		// "...", ". ." and full-width dots resolve to ".." on some servers.
		if seg != "" && strings.Trim(seg, ". \uff0e\u2024") == "" {
			return "has a . or .. segment"
		}
	}
	return ""
}
