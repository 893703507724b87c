package pathcheck

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// BaseURL returns the base URL without a trailing slash, or an error
// when it is not one the key may be sent to. An error names the URL by its
// scheme, host and path only: a query or user information may hold a
// secret.
func BaseURL(raw string, insecure bool) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", errors.New("padapi: invalid base URL: cannot parse it as a URL")
	}
	shown := strings.TrimSpace((&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String())
	if len(shown) > 200 {
		shown = shown[:200] + "..."
	}
	switch {
	case u.User != nil:
		return "", fmt.Errorf("padapi: base URL %q: must not carry user information", shown)
	case u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		return "", fmt.Errorf("padapi: base URL %q: need an absolute http or https URL", shown)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return "", fmt.Errorf("padapi: base URL %q: must not have a query or fragment", shown)
	case u.Scheme == "http" && !insecure && !Loopback(u.Hostname()):
		return "", fmt.Errorf("padapi: base URL %q: plain http would send the API key in clear text; use https, a loopback host, or WithInsecureHTTP", shown)
	case strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/api"):
		// Kept, every call would go to .../api/api/... and get a 404.
		return "", fmt.Errorf("padapi: base URL %q: drop the trailing /api; the client adds /api/... to every path itself", shown)
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// Loopback reports whether host is localhost or a loopback IP address.
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
